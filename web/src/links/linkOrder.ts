import type { Link } from '@sniplink/contracts';
import type { LinkSort } from '../dashboard/places';

/** What a link is called in A-Z order: its title, else its short code. */
const nameOf = (link: Link): string => link.title ?? link.shortCode;

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/**
 * The links in the order chosen: newest first (the server's order, kept), most clicked first (ties
 * newest first), or A-Z by title in the reader's language (ignoring case and accents), ties newest first.
 */
export function sortLinks(links: readonly Link[], sort: LinkSort | undefined): Link[] {
  const newestFirst = [...links];
  if (sort === 'clicks') return newestFirst.sort((a, b) => b.clickCount - a.clickCount);
  if (sort === 'title') return newestFirst.sort((a, b) => collator.compare(nameOf(a), nameOf(b)));
  return newestFirst;
}

/** A cell that a spreadsheet would read as a formula is given a leading apostrophe. */
const cell = (value: string | number): string => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The chosen links as CSV: title, short URL, target, clicks and when each was made (ISO). */
export function linksCsv(links: readonly Link[]): string {
  const rows = [
    ['Title', 'Short URL', 'Original URL', 'Clicks', 'Created'],
    ...links.map((link) => [
      link.title ?? '',
      link.shortUrl,
      link.originalUrl,
      link.clickCount,
      link.createdAt,
    ]),
  ];
  return `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
