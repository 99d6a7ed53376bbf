import { z } from 'zod';

/** How long a finished export can be downloaded: long enough to fetch it later that day, short enough not to linger. */
export const EXPORT_VALID_HOURS = 24;

/** What the ZIP is made of, in the order it is built: the progress counts these steps. */
export const EXPORT_PARTS = ['profile', 'links', 'clicks', 'tickets'] as const;

/**
 * The user's latest export, as the Profile card follows it: `building` with its progress, `ready` with the
 * link to download it until `expiresAt`, or `failed` (start again).
 */
export const dataExportSchema = z
  .object({
    id: z.string(),
    status: z.enum(['building', 'ready', 'failed']),
    /** Steps done of `total` (profile, links, daily clicks, tickets). */
    done: z.number().int(),
    total: z.number().int(),
    createdAt: z.string(),
    /** Null until the file is ready. */
    expiresAt: z.string().nullable(),
    /** Where the ZIP downloads from, with the owner's session, while it is ready and not expired. */
    downloadUrl: z.string().nullable(),
    /** The ZIP's size in bytes, once ready. */
    size: z.number().int().nullable(),
  })
  .meta({ id: 'DataExport' });
export type DataExport = z.infer<typeof dataExportSchema>;

/** `GET /api/exports/latest`: the latest export, or null when there is none (or it expired). */
export const latestExportSchema = z
  .object({ export: dataExportSchema.nullable() })
  .meta({ id: 'LatestDataExport' });
