import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ParsedRow } from './types';

/**
 * A fixture file read in tiny chunks, so that multi-byte characters, quotes, escapes and CRLFs are split between
 * chunks the way a slow upload splits them.
 */
export function fixture(name: string, chunkBytes = 7): AsyncIterable<Uint8Array> {
  return createReadStream(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), {
    highWaterMark: chunkBytes,
  });
}

export async function parseAll(rows: AsyncIterable<ParsedRow>): Promise<ParsedRow[]> {
  const all: ParsedRow[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

/**
 * `count` generated rows between a head and a tail, as UTF-8 chunks of about 64 KiB: the input of a large export
 * without ever holding it whole.
 */
export async function* generatedExport(
  count: number,
  row: (index: number) => string,
  head = '',
  tail = '',
): AsyncIterable<Uint8Array> {
  const encoder = new TextEncoder();
  let text = head;
  for (let index = 0; index < count; index += 1) {
    text += row(index);
    if (text.length > 65_536) {
      yield encoder.encode(text);
      text = '';
    }
  }
  yield encoder.encode(text + tail);
}

/** Counts the rows and links of a parse and the highest heap use seen, without keeping the rows. */
export async function countRows(
  rows: AsyncIterable<ParsedRow>,
): Promise<{ rows: number; links: number; last: number }> {
  let count = 0;
  let links = 0;
  let last = 0;
  for await (const row of rows) {
    count += 1;
    if ('link' in row) links += 1;
    last = row.row;
  }
  return { rows: count, links, last };
}
