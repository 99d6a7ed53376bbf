import { parseBitlyCsv } from './bitly-csv';
import type { ImportParser } from './types';
import { parseYourlsCsv } from './yourls-csv';

/** Every export another shortener makes that Sniplink reads, by the id the API and the CLI name it with. */
export const IMPORT_FORMAT_IDS = [
  'bitly',
  'yourls-csv',
  'yourls-sql',
  'kutt',
  'shlink-csv',
  'shlink-json',
  'dub',
] as const;
export type ImportFormatId = (typeof IMPORT_FORMAT_IDS)[number];

export interface ImportFormat {
  /** What the dashboard's source picker shows. */
  label: string;
  parse: ImportParser;
}

/** The formats this build reads; an id missing here is refused with the list of those it has. */
export const importFormats: Partial<Record<ImportFormatId, ImportFormat>> = {
  bitly: { label: 'Bitly (CSV export)', parse: parseBitlyCsv },
  'yourls-csv': { label: 'YOURLS (CSV export)', parse: parseYourlsCsv },
};

export function importFormat(id: string): ImportFormat | undefined {
  return Object.hasOwn(importFormats, id) ? importFormats[id as ImportFormatId] : undefined;
}
