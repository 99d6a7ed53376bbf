import { checkTags, MAX_TAGS_PER_LINK } from '@sniplink/contracts';
import { checkTargetUrl, DomainError } from '@sniplink/domain';
import type { ImportedLink, ParsedRow } from './formats/types';

const TITLE_MAX = 200;

/** A row as Sniplink would create it, or why it cannot be a link here. */
export type CheckedRow =
  | { row: number; link: ImportedLink & { url: string }; problem?: undefined }
  | { row: number; problem: string; link?: undefined };

/**
 * The checks a link created by hand meets that the file alone can fail: a target this site takes. A title
 * too long is cut (the link is still worth having); tags that break the tag rule are left out, and at most
 * MAX_TAGS_PER_LINK are kept. The code is checked when it is claimed (taken, or not a code here).
 */
export function checkRow(parsed: ParsedRow, ownOrigins: readonly string[]): CheckedRow {
  if ('error' in parsed) return { row: parsed.row, problem: parsed.error };
  const { link } = parsed;
  let url: string;
  try {
    url = checkTargetUrl(link.url, ownOrigins);
  } catch (error) {
    if (error instanceof DomainError) return { row: parsed.row, problem: error.message };
    throw error;
  }
  const tags = link.tags.flatMap((tag) => {
    const checked = checkTags([tag]);
    return checked.ok ? checked.tags : [];
  });
  return {
    row: parsed.row,
    link: {
      ...link,
      url,
      title: link.title === null ? null : link.title.slice(0, TITLE_MAX),
      tags: [...new Set(tags)].slice(0, MAX_TAGS_PER_LINK),
    },
  };
}
