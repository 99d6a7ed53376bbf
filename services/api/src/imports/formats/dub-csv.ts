import { cell, csvTable } from './csv-table';
import { checkTarget, clickCount, codeOfShortUrl, isoTime, splitTags, textOrNull } from './link-fields';
import type { ImportParser } from './types';

// Dub's link export names its columns by label ("Short link", "Destination URL", ...); the column ids ("link",
// "url", ...) are accepted too since API-made CSVs use them. The short link is a full URL, so its path is the code.
const URL_COLUMNS = ['destination url', 'url'];

/** Reads Dub's CSV export of links. */
export const parseDubCsv: ImportParser = async function* (input) {
  for await (const line of csvTable(input, { format: 'Dub CSV export', urlColumns: URL_COLUMNS })) {
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
    const key = textOrNull(cell(cells, 'key', 'short key'));
    yield {
      row: line.row,
      link: {
        code: key ?? codeOfShortUrl(cell(cells, 'short link', 'link', 'shortlink')),
        url: target.url,
        title: textOrNull(cell(cells, 'title')),
        tags: splitTags(cell(cells, 'tags')),
        createdAt: isoTime(cell(cells, 'created at', 'createdat')),
        clicks: clickCount(cell(cells, 'clicks')),
      },
    };
  }
};
