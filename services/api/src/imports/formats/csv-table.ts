import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { textChunks } from './link-fields';

/** One data row of a CSV file keyed by its header names (lower case), or why the line could not be read. */
export type CsvRow = { row: number; cells: Map<string, string> } | { row: number; error: string };

/**
 * Streams a CSV file with a header line as rows keyed by header. A broken line (say an unclosed quote) becomes an
 * error row instead of ending the file, which is what someone importing thousands of links wants.
 */
export async function* csvTable(
  input: AsyncIterable<Uint8Array | string>,
  expect: { format: string; urlColumns: string[] },
): AsyncIterable<CsvRow> {
  // csv-parse reports skipped lines through a callback; they are queued and handed out in file order.
  const skipped: string[] = [];
  const parser = Readable.from(textChunks(input)).pipe(
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        skipped.push(error ? `unreadable CSV line: ${error.message}` : 'unreadable CSV line');
        return undefined;
      },
    }),
  );
  let header: string[] | null = null;
  let row = 0;
  const flushSkipped = function* (): Iterable<CsvRow> {
    while (skipped.length > 0) {
      row += 1;
      yield { row, error: skipped.shift() as string };
    }
  };
  for await (const record of parser as AsyncIterable<string[]>) {
    if (header === null) {
      // A broken line before the header still is a broken line of the file, but not a data row.
      skipped.length = 0;
      header = record.map((name) => name.trim().toLowerCase());
      if (!expect.urlColumns.some((name) => header?.includes(name))) {
        throw new Error(
          `This is not a ${expect.format} file: its first line has no ${expect.urlColumns.map((n) => `"${n}"`).join(' or ')} column`,
        );
      }
      continue;
    }
    yield* flushSkipped();
    row += 1;
    const cells = new Map<string, string>();
    header.forEach((name, index) => {
      const value = record[index];
      if (value !== undefined && !cells.has(name)) cells.set(name, value);
    });
    yield { row, cells };
  }
  if (header === null) {
    throw new Error(
      `This is not a ${expect.format} file: ${skipped.length > 0 ? 'its first line cannot be read as CSV' : 'it is empty'}`,
    );
  }
  yield* flushSkipped();
}

/** The first of the given header names present in a row: exports name the same column differently by version. */
export function cell(cells: Map<string, string>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = cells.get(name);
    if (value !== undefined) return value;
  }
  return undefined;
}
