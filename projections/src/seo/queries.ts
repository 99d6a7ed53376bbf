import { isSeoPage, type SeoEntry, seoPages } from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { withReadModels } from '../read-models';

/** Every page's entry (nine rows at most: the table is read whole), in the SEO tab's order of pages. */
export async function seoEntries(db: Kysely<Database>): Promise<SeoEntry[]> {
  const rows = await withReadModels(db).selectFrom('rm_seo_settings').selectAll().execute();
  const order = Object.keys(seoPages);
  return rows
    .flatMap(({ page, ...row }) =>
      isSeoPage(page)
        ? [
            {
              page,
              path: seoPages[page],
              title: row.title,
              description: row.description,
              keywords: row.keywords,
              ogTitle: row.og_title,
              ogDescription: row.og_description,
              ogImage: row.og_image,
              isPublic: row.is_public,
              updatedAt: row.updated_at.toISOString(),
            },
          ]
        : [],
    )
    .sort((a, b) => order.indexOf(a.page) - order.indexOf(b.page));
}
