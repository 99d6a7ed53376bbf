import { fieldsOf, jsonListItems } from './json-items';
import { checkTarget, clickCount, codeOfShortUrl, isoTime, tagList, textOrNull } from './link-fields';
import type { ImportParser } from './types';

/**
 * Reads the JSON of Shlink's `GET /rest/v3/short-urls`: `{ shortUrls: { data: [...], pagination } }`, each with
 * `shortCode`, `longUrl`, `title`, `tags`, `dateCreated` and `visitsSummary.total` (older servers: `visitsCount`).
 */
export const parseShlinkJson: ImportParser = async function* (input) {
  let row = 0;
  for await (const item of jsonListItems(input, ['shortUrls', 'data'], 'Shlink short URLs JSON')) {
    row += 1;
    if ('error' in item) {
      yield { row, error: item.error };
      continue;
    }
    const link = fieldsOf(item.value);
    if (link === null) {
      yield { row, error: 'list item is not a short URL object' };
      continue;
    }
    const target = checkTarget(link.longUrl);
    if ('error' in target) {
      yield { row, error: target.error };
      continue;
    }
    const summary = fieldsOf(link.visitsSummary);
    yield {
      row,
      link: {
        code: textOrNull(link.shortCode) ?? codeOfShortUrl(link.shortUrl),
        url: target.url,
        title: textOrNull(link.title),
        tags: tagList(link.tags),
        createdAt: isoTime(link.dateCreated),
        clicks: clickCount(summary?.total) ?? clickCount(link.visitsCount),
      },
    };
  }
};
