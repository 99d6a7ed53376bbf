/** One link read from another shortener's export, before Sniplink checks it. */
export interface ImportedLink {
  /** The short code in the source (without its domain), or null when the source has none. */
  code: string | null;
  url: string;
  title: string | null;
  tags: string[];
  /** ISO 8601 time, or null when the source does not say. */
  createdAt: string | null;
  /** Click total in the source, or null when it does not say. */
  clicks: number | null;
}

/** A row of the export: a link, or why it cannot be one. `row` counts from 1 (data rows, or list items). */
export type ParsedRow = { row: number; link: ImportedLink } | { row: number; error: string };

/** Reads one export format as a stream, so that 100,000 rows need no more memory than a few. */
export type ImportParser = (input: AsyncIterable<Uint8Array | string>) => AsyncIterable<ParsedRow>;
