import { z } from 'zod';

export const deviceTypes = ['desktop', 'mobile', 'tablet'] as const;

/**
 * One redirect, as the click stream carries it (topic `clicks`, keyed by link id). The visitor's IP
 * address is resolved to a country in the redirect and never leaves it.
 */
export const clickSchema = z.object({
  /** UUID v7: makes a re-published click a no-op in analytics. */
  id: z.uuid(),
  linkId: z.uuid(),
  code: z.string(),
  /** ISO time of the redirect. */
  at: z.string(),
  /** ISO 3166-1 alpha-2, or `Unknown`. */
  country: z.string(),
  device: z.enum(deviceTypes),
  /** Browser name (`Chrome`, `Safari`…) or `Unknown`. */
  browser: z.string(),
  /** Operating system name (`Windows`, `iOS`…) or `Unknown`. */
  os: z.string(),
  /** The referring host without `www.`, or `direct`. */
  referrer: z.string(),
  /** Known bots are redirected but not counted as clicks. */
  bot: z.boolean(),
});
export type Click = z.infer<typeof clickSchema>;
