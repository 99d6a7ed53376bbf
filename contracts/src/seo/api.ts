import { z } from 'zod';
import { optionalVisibleText, visibleText } from '../text';

/**
 * The public pages whose head tags an admin may set (the console's SEO tab), by the key the API names them
 * with, and their paths.
 */
export const seoPages = {
  landing: '/',
  home: '/home',
  subscribe: '/subscribe',
  marketplace: '/marketplace',
  about: '/about',
  privacy: '/privacy',
  terms: '/terms',
  contact: '/contact',
  help: '/help',
} as const;

export type SeoPage = keyof typeof seoPages;
export type SeoPagePath = (typeof seoPages)[SeoPage];

export const seoPageKeys = Object.keys(seoPages) as [SeoPage, ...SeoPage[]];

export const isSeoPage = (page: string): page is SeoPage => Object.hasOwn(seoPages, page);

/** The page key of a path, or undefined when no SEO entry can be set for it. */
export const seoPageOfPath = (path: string): SeoPage | undefined =>
  seoPageKeys.find((page) => seoPages[page] === path);

/** The pages' key list in words, for the message that refuses any other. */
export const seoPageList = seoPageKeys.join(', ');

/**
 * Lengths the console suggests (search results cut longer titles and descriptions; a share card's image
 * is drawn at 1200x630); they are guidance, never refused.
 */
export const seoGuidance = {
  title: { min: 50, max: 60 },
  description: { min: 150, max: 160 },
  image: { width: 1200, height: 630 },
} as const;

/** What the API keeps at most: far above the guidance, below what would make a page's head a document. */
export const SEO_TITLE_MAX = 200;
export const SEO_DESCRIPTION_MAX = 1_000;
export const SEO_KEYWORDS_MAX = 1_000;
export const SEO_IMAGE_URL_MAX = 2_048;

/** The keywords of a comma-separated list: each trimmed, blanks dropped, each once (ignoring case). */
export function keywordsOf(list: string | null): string[] {
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const keyword of (list ?? '').split(',')) {
    const trimmed = keyword.trim();
    if (trimmed === '' || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    keywords.push(trimmed);
  }
  return keywords;
}

/** An https address with a host: crawlers and share cards fetch the image from it, never over plain http. */
export const isHttpsUrl = (text: string): boolean => {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return url.protocol === 'https:' && url.hostname !== '';
};

/** Optional text: left out, null, empty or invisible is none (`null`). */
const optionalText = (max: number) =>
  optionalVisibleText(max)
    .nullish()
    .transform((text) => text ?? null);

/** The image's address: none, or an https URL. */
const imageUrl = z
  .string()
  .trim()
  .max(SEO_IMAGE_URL_MAX, `must be at most ${SEO_IMAGE_URL_MAX.toLocaleString('en-US')} characters`)
  .refine((url) => url === '' || isHttpsUrl(url), 'must be an https URL (https://…)')
  .nullish()
  .transform((url) => (url ? url : null));

/**
 * `PUT /api/admin/seo/{page}`: the page's head tags. The title is required; what else is left out falls
 * back (og title and description to the title and description, the description to the page's own).
 * `page`, when the body names it, must be the path's. `isPublic` defaults to true.
 */
export const updateSeoBody = z.object({
  page: z.string().optional(),
  title: visibleText(SEO_TITLE_MAX),
  description: optionalText(SEO_DESCRIPTION_MAX),
  keywords: optionalText(SEO_KEYWORDS_MAX).transform((list) => keywordsOf(list).join(', ') || null),
  ogTitle: optionalText(SEO_TITLE_MAX),
  ogDescription: optionalText(SEO_DESCRIPTION_MAX),
  ogImage: imageUrl,
  isPublic: z.boolean().default(true),
});
export type UpdateSeoBody = z.input<typeof updateSeoBody>;

/** A page's settings as stored: every field but the title may be none. */
export const seoSettingsSchema = z.object({
  title: z.string(),
  description: z.string().nullable(),
  keywords: z.string().nullable(),
  ogTitle: z.string().nullable(),
  ogDescription: z.string().nullable(),
  ogImage: z.string().nullable(),
  isPublic: z.boolean(),
});
export type SeoSettings = z.infer<typeof seoSettingsSchema>;

/** One page's entry as the API answers it. */
export const seoEntrySchema = seoSettingsSchema
  .extend({
    page: z.enum(seoPageKeys),
    path: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'SeoEntry' });
export type SeoEntry = z.infer<typeof seoEntrySchema>;

/** `GET /api/admin/seo`: the pages that have an entry (an admin's list includes those not public). */
export const seoEntryListSchema = z.array(seoEntrySchema);
