import { cell, csvTable } from './csv-table';
import { checkTarget, clickCount, codeOfShortUrl, isoTime, splitTags, textOrNull } from './link-fields';
import type { ImportParser } from './types';

// `shlink short-url:list` prints the columns "Short Code", "Title", "Short URL", "Long URL", "Date created",
// "Visits count", and with --show-tags "Tags" joined by ", "; older versions lack "Title". Headers are matched
// without case since versions differ in it.
const URL_COLUMNS = ['long url', 'longurl'];

/** Reads the CSV of Shlink's `short-url:list` command. */
export const parseShlinkCsv: ImportParser = async function* (input) {
  for await (const line of csvTable(input, {
    format: 'Shlink short-url:list CSV',
    urlColumns: URL_COLUMNS,
  })) {
    if ('error' in line) {
      yield line;
      continue;
    }
    const { cells } = line;
    const target = checkTarget(cell(cells, ...URL_COLUMNS));
    if ('error' in target) {
      yield { row: line.row, error: target.error };
      continue;
    }
    yield {
      row: line.row,
      link: {
        code:
          textOrNull(cell(cells, 'short code', 'shortcode')) ??
          codeOfShortUrl(cell(cells, 'short url', 'shorturl')),
        url: target.url,
        title: textOrNull(cell(cells, 'title')),
        tags: splitTags(cell(cells, 'tags')),
        createdAt: isoTime(cell(cells, 'date created', 'datecreated')),
        clicks: clickCount(cell(cells, 'visits count', 'visits', 'visitscount')),
      },
    };
  }
};
