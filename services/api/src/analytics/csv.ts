import { stringify } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, or a tab or carriage return
 * that some spreadsheets skip) gets a leading apostrophe: shown as text, never executed (OWASP's advice).
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180 CSV (commas, quotes and line breaks quoted by csv-stringify), every cell neutralised. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((row) =>
    row.map((cell) => (typeof cell === 'number' ? String(cell) : neutraliseFormula(cell))),
  );
  return stringify([header as string[], ...cells], { record_delimiter: '\r\n', quoted_match: /[",\r\n]/ });
}
