import { parseBitlyCsv } from './bitly-csv';
import { parseDubCsv } from './dub-csv';
import { parseKuttJson } from './kutt-json';
import { parseShlinkCsv } from './shlink-csv';
import { parseShlinkJson } from './shlink-json';
import type { ImportParser } from './types';
import { parseYourlsCsv } from './yourls-csv';
import { parseYourlsSql } from './yourls-sql';

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

/** The formats Sniplink reads. */
export const importFormats: Record<ImportFormatId, ImportFormat> = {
  bitly: { label: 'Bitly (CSV export)', parse: parseBitlyCsv },
  'yourls-csv': { label: 'YOURLS (CSV export)', parse: parseYourlsCsv },
  'yourls-sql': { label: 'YOURLS (SQL dump of its tables)', parse: parseYourlsSql },
  kutt: { label: 'Kutt (JSON list of links from its API)', parse: parseKuttJson },
  'shlink-csv': { label: 'Shlink (short-url:list CSV)', parse: parseShlinkCsv },
  'shlink-json': { label: 'Shlink (JSON list from its REST API)', parse: parseShlinkJson },
  dub: { label: 'Dub (CSV export)', parse: parseDubCsv },
};

export function importFormat(id: string): ImportFormat | undefined {
  return Object.hasOwn(importFormats, id) ? importFormats[id as ImportFormatId] : undefined;
}
