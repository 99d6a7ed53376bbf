import { fieldsOf, jsonListItems } from './json-items';
import { checkTarget, clickCount, isoTime, textOrNull } from './link-fields';
import type { ImportParser } from './types';

/**
 * Reads the JSON of Kutt's `GET /api/v2/links`: `{ total, limit, skip, data: [...] }`, each link with `address`
 * (the code), `target`, `description`, `created_at` and `visit_count`. Kutt has no tags and no titles, so its
 * description becomes the title.
 */
export const parseKuttJson: ImportParser = async function* (input) {
  let row = 0;
  for await (const item of jsonListItems(input, ['data'], 'Kutt links JSON')) {
    row += 1;
    if ('error' in item) {
      yield { row, error: item.error };
      continue;
    }
    const link = fieldsOf(item.value);
    if (link === null) {
      yield { row, error: 'list item is not a link object' };
      continue;
    }
    const target = checkTarget(link.target);
    if ('error' in target) {
      yield { row, error: target.error };
      continue;
    }
    yield {
      row,
      link: {
        code: textOrNull(link.address),
        url: target.url,
        title: textOrNull(link.description),
        tags: [],
        createdAt: isoTime(link.created_at),
        clicks: clickCount(link.visit_count),
      },
    };
  }
};
