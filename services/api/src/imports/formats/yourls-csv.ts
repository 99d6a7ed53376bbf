import { csvRows } from './csv-rows';
import type { ImportParser } from './types';

/**
 * YOURLS's links as its admin exports them to CSV: the columns of its `yourls_url` table (`keyword`, `url`,
 * `title`, `timestamp` as `YYYY-MM-DD HH:MM:SS`, `ip`, `clicks`), with a header row, or without one in that
 * order (a table dumped as it is). The keyword is the short code.
 */
export const parseYourlsCsv: ImportParser = (input) =>
  csvRows(input, {
    name: 'YOURLS CSV export',
    headers: {
      code: ['keyword', 'Short URL keyword'],
      shortUrl: ['shorturl', 'Short URL'],
      url: ['url', 'Long URL'],
      title: ['title'],
      createdAt: ['timestamp', 'Date'],
      clicks: ['clicks', 'Visits'],
    },
    headerless: ['code', 'url', 'title', 'createdAt', null, 'clicks'],
  });
