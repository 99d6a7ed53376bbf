import { csvRows } from './csv-rows';
import type { ImportParser } from './types';

/**
 * Bitly's CSV export of links (Links, "Export", and the API's `links_list` export): one row per Bitlink with
 * its title, the Bitlink (`bit.ly/3xYz`, or a custom back-half on a branded domain), the long URL, when it
 * was created, its tags and, with metrics, its engagements. The export's column names have changed over the
 * years (`Long URL`/`long_url`, `Created`/`created_at`), so columns are found by any of their names.
 */
export const parseBitlyCsv: ImportParser = (input) =>
  csvRows(input, {
    name: 'Bitly CSV export',
    headers: {
      shortUrl: ['custom_bitlinks', 'Custom Bitlink', 'Bitlink', 'link', 'Short URL', 'Short Link', 'id'],
      url: ['long_url', 'Long URL', 'Original URL', 'Destination URL', 'Destination'],
      title: ['title', 'Link Title'],
      tags: ['tags', 'Tag'],
      createdAt: ['created_at', 'Created', 'Date Created', 'Created At', 'Creation Date'],
      clicks: ['clicks', 'Total Clicks', 'Engagements', 'Total Engagements', 'user_clicks'],
    },
    headerless: null,
  });
