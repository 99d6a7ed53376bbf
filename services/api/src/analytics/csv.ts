import { stringify } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, or a tab or carriage return
 * that some spreadsheets skip) gets a leading apostrophe: shown as text, never executed (OWASP's advice).
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

type Cell = string | number;

/** RFC 4180 CSV (commas, quotes and line breaks quoted by csv-stringify), every cell neutralised. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return csvRecords([header, ...rows]);
}

/** Records without a header, as `toCsv` writes them: a streamed file's batches (the header first, alone). */
export function csvRecords(rows: readonly (readonly Cell[])[]): string {
  const cells = rows.map((row) =>
    row.map((cell) => (typeof cell === 'number' ? String(cell) : neutraliseFormula(cell))),
  );
  return stringify(cells, { record_delimiter: '\r\n', quoted_match: /[",\r\n]/ });
}
