import { z } from 'zod';

/**
 * Page copy: the text of the informational pages (/privacy, /terms, /about, /contact, /help), written in
 * markdown in the admin console. Saving keeps a draft; publishing makes the draft the page's next version,
 * which the public page shows. Every published version stays readable.
 */
export const pageCopyKeys = ['privacy', 'terms', 'about', 'contact', 'help'] as const;
export type PageCopyKey = (typeof pageCopyKeys)[number];

export const PAGE_COPY_TITLE_MAX = 200;
export const PAGE_COPY_CONTENT_MAX = 100_000;

/** The page in a path: one of the informational pages, or a 400 naming them. */
export const pageCopyParams = z.object({
  page: z.enum(pageCopyKeys, { error: `must be one of ${pageCopyKeys.join(', ')}` }),
});

/**
 * `PUT /api/admin/content/{page}`: the draft's title and markdown. Either may be empty while the copy is
 * being written (publishing needs both). Saving keeps the page a draft: `isPublished`, when sent, may only
 * say so.
 */
export const savePageCopyBody = z.object({
  title: z
    .string()
    .max(PAGE_COPY_TITLE_MAX, `must be at most ${PAGE_COPY_TITLE_MAX} characters`)
    .transform((title) => title.trim()),
  content: z
    .string()
    .max(
      PAGE_COPY_CONTENT_MAX,
      `must be at most ${PAGE_COPY_CONTENT_MAX.toLocaleString('en-US')} characters`,
    ),
  isPublished: z
    .literal(false, {
      error: 'saving keeps a draft: publish it with POST /api/admin/content/{page}/publish',
    })
    .optional(),
});
export type SavePageCopyBody = z.input<typeof savePageCopyBody>;

/** A page's copy as the console edits it: its draft, and where it stands against the published version. */
export const pageCopySchema = z.object({
  page: z.enum(pageCopyKeys),
  title: z.string(),
  /** Markdown. */
  content: z.string(),
  /** Whether the draft is what the public page shows (false until published, and again after an edit). */
  isPublished: z.boolean(),
  /** The last published version's number: 0 before the first. */
  version: z.number().int(),
  /** ISO instant of the last publish, or null. */
  publishedAt: z.string().nullable(),
  /** ISO instant of the last saved draft, or null when nothing was ever saved. */
  updatedAt: z.string().nullable(),
});
export type PageCopy = z.infer<typeof pageCopySchema>;

/** One published version, as it was published. */
export const pageCopyVersionSchema = z.object({
  version: z.number().int(),
  title: z.string(),
  content: z.string(),
  publishedAt: z.string(),
});
export type PageCopyVersion = z.infer<typeof pageCopyVersionSchema>;

/** What a public page shows: the published version, or `published: null` while there is none. */
export const publicPageCopySchema = z.object({
  page: z.enum(pageCopyKeys),
  published: pageCopyVersionSchema.nullable(),
});
export type PublicPageCopy = z.infer<typeof publicPageCopySchema>;
