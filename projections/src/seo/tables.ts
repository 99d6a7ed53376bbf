import type { Int8 } from '@sniplink/platform';

/**
 * The SEO settings read model, written by `seoProjection` from the streams `seo-{page}`, read through
 * `./queries`. Its migration is `…28T14-seo-settings` in services/platform/src/db/migrations/.
 */
export type SeoTables = {
  rm_seo_settings: RmSeoSettingsTable;
};

export interface RmSeoSettingsTable {
  /** The page's key (`about`), as the API names it. */
  page: string;
  title: string;
  description: string | null;
  keywords: string | null;
  og_title: string | null;
  og_description: string | null;
  og_image: string | null;
  is_public: boolean;
  updated_at: Date;
  /** The stream revision of the event that wrote the row: an older one never overwrites it. */
  last_revision: Int8;
}
