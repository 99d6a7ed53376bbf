import { z } from 'zod';
import { hasVisibleText, visibleText } from '../text';

/**
 * The admin console's internal documentation (the Docs tab): short pages for admins, each in one section
 * of the console, ordered by `sortOrder` within it, written in markdown.
 */

/** The console's parts a doc is about. */
export const adminDocSections = ['config', 'users', 'premium', 'seo', 'support', 'moderation'] as const;
export type AdminDocSection = (typeof adminDocSections)[number];

export const ADMIN_DOC_TITLE_MAX = 200;
/** A page, not a book: long enough for a checklist with its reasons. */
export const ADMIN_DOC_CONTENT_MAX = 20_000;
export const ADMIN_DOC_SORT_ORDER_MAX = 100_000;

const sectionSchema = z.enum(adminDocSections, {
  error: `must be one of ${adminDocSections.join(', ')}`,
});

/**
 * Markdown: refused when nothing in it is visible; kept as written except for trailing space, so an
 * indented block on the first line keeps its indent.
 */
const contentSchema = z
  .string()
  .refine(hasVisibleText, 'is required')
  .transform((content) => content.trimEnd())
  .pipe(
    z
      .string()
      .max(
        ADMIN_DOC_CONTENT_MAX,
        `must be at most ${ADMIN_DOC_CONTENT_MAX.toLocaleString('en-US')} characters`,
      ),
  );

/**
 * `POST /api/admin/docs` and `PUT /api/admin/docs/{id}`: section, title and content required; sortOrder a
 * whole number (smallest first), 0 when left out.
 */
export const adminDocBody = z.object({
  section: sectionSchema,
  title: visibleText(ADMIN_DOC_TITLE_MAX, 'is required'),
  content: contentSchema,
  sortOrder: z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(ADMIN_DOC_SORT_ORDER_MAX, `must be at most ${ADMIN_DOC_SORT_ORDER_MAX.toLocaleString('en-US')}`)
    .default(0),
});
export type AdminDocBody = z.input<typeof adminDocBody>;
export type AdminDocFields = z.output<typeof adminDocBody>;

/** `GET /api/admin/docs?section=users`: one section's docs; without it, every section's. */
export const adminDocsQuery = z.object({
  section: sectionSchema.optional().describe('Only the docs of this section'),
});

export const adminDocSchema = z.object({
  id: z.string(),
  section: z.enum(adminDocSections),
  title: z.string(),
  content: z.string().describe('Markdown'),
  sortOrder: z.number().int(),
  /**
   * Who changed it last, as the console names admins: their e-mail address now; null once that
   * account is erased, or when the app itself wrote it.
   */
  lastUpdatedBy: z.string().nullable(),
  /** The user id of whoever changed it last (`system` for the app itself). */
  lastUpdatedById: z.string(),
  /** ISO instant of the last change. */
  updatedAt: z.string(),
});
export type AdminDoc = z.infer<typeof adminDocSchema>;

/** What `DELETE /api/admin/docs/{id}` answers. */
export const deletedAdminDocSchema = z.object({ ok: z.literal(true), id: z.string() });

/** `POST /api/admin/docs/seed`: the starter docs added; those added by an earlier seed are skipped. */
export const adminDocsSeedResultSchema = z.object({
  /** What the console shows: how many were created, or that there was nothing to do. */
  message: z.string(),
  created: z.number().int(),
  skipped: z.number().int(),
});
export type AdminDocsSeedResult = z.infer<typeof adminDocsSeedResultSchema>;
