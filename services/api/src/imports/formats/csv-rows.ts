import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { ImportedLink, ParsedRow } from './types';

/** The fields of a link a CSV export may hold, each found by one of its header names. */
export type CsvField = 'code' | 'shortUrl' | 'url' | 'title' | 'tags' | 'createdAt' | 'clicks';

/** Header names (compared lower-cased, without spaces, dashes or underscores) of each field, first match wins. */
export type CsvHeaders = Partial<Record<CsvField, readonly string[]>>;

export interface CsvFormat {
  /** The export's name, as errors say it ("This is not a Bitly CSV export: …"). */
  name: string;
  headers: CsvHeaders;
  /** The columns of a file without a header row, in order (null: a column not kept); null: a header row is required. */
  headerless: readonly (CsvField | null)[] | null;
}

const comparable = (header: string) => header.toLowerCase().replace(/[\s_\-.()]/g, '');

/**
 * The rows of a CSV export, streamed through csv-parse (quoting, a BOM, CRLF or LF, embedded newlines): the
 * header row maps columns to fields, and every data row becomes a link or the reason it cannot be one.
 */
export async function* csvRows(
  input: AsyncIterable<Uint8Array | string>,
  format: CsvFormat,
): AsyncIterable<ParsedRow> {
  const records = Readable.from(input).pipe(
    parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true }),
  );
  let columns: Partial<Record<CsvField, number>> | null = null;
  let row = 0;
  for await (const record of records as AsyncIterable<string[]>) {
    if (columns === null) {
      columns = columnsOf(record, format);
      if (columns !== null) continue;
      if (format.headerless === null)
        throw new CsvFormatError(`This is not a ${format.name}: its first row names no URL column`);
      columns = Object.fromEntries(
        format.headerless.flatMap((field, index) => (field === null ? [] : [[field, index]])),
      );
    }
    row += 1;
    yield rowOf(row, record, columns);
  }
}

/** A file that is not the format at all (no URL column): the whole upload is refused, not each row. */
export class CsvFormatError extends Error {}

function columnsOf(header: string[], format: CsvFormat): Partial<Record<CsvField, number>> | null {
  const names = header.map(comparable);
  const columns: Partial<Record<CsvField, number>> = {};
  for (const [field, candidates] of Object.entries(format.headers) as [CsvField, readonly string[]][]) {
    for (const candidate of candidates) {
      const index = names.indexOf(comparable(candidate));
      if (index >= 0) {
        columns[field] = index;
        break;
      }
    }
  }
  return columns.url === undefined ? null : columns;
}

function rowOf(row: number, record: string[], columns: Partial<Record<CsvField, number>>): ParsedRow {
  const cell = (field: CsvField) => {
    const index = columns[field];
    const value = index === undefined ? '' : (record[index] ?? '');
    return value.trim();
  };
  const url = cell('url');
  if (url === '') return { row, error: 'The row has no URL' };
  const createdAt = timeOf(cell('createdAt'));
  if (createdAt === undefined) return { row, error: 'The creation date is not a date' };
  const clicks = clicksOf(cell('clicks'));
  if (clicks === undefined) return { row, error: 'The click count is not a whole number' };
  const link: ImportedLink = {
    code: cell('code') || codeOfShortUrl(cell('shortUrl')),
    url,
    title: cell('title') || null,
    tags: tagsOf(cell('tags')),
    createdAt,
    clicks,
  };
  return { row, link };
}

/** The code of a short URL: its path without the slashes (`bit.ly/3xYz` and `https://bit.ly/3xYz` alike). */
export function codeOfShortUrl(shortUrl: string): string | null {
  if (shortUrl === '') return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(shortUrl) ? shortUrl : `https://${shortUrl}`;
  try {
    const path = decodeURIComponent(new URL(withScheme).pathname).replace(/^\/+|\/+$/g, '');
    return path === '' ? null : path;
  } catch {
    return null;
  }
}

/** Tags separated by commas, semicolons or bars, as the exports write a list in one cell. */
function tagsOf(cell: string): string[] {
  return cell
    .split(/[,;|]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/**
 * A time as ISO 8601 UTC: an ISO or SQL date-time (`2024-03-01 12:30:00`, read as UTC when it names no
 * zone), or Unix seconds. Empty is null; anything else is undefined (the row is invalid).
 */
export function timeOf(cell: string): string | null | undefined {
  if (cell === '') return null;
  if (/^\d{9,11}$/.test(cell)) return new Date(Number(cell) * 1000).toISOString();
  const sqlLike = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(cell);
  const parsed = new Date(sqlLike ? `${cell.replace(' ', 'T')}Z` : cell);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString();
}

function clicksOf(cell: string): number | null | undefined {
  if (cell === '') return null;
  const digits = cell.replace(/[,\s]/g, '');
  return /^\d{1,15}$/.test(digits) ? Number(digits) : undefined;
}
