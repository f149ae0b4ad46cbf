/**
 * CSV for every export in the app. Cells are neutralised against formula
 * (CSV) injection: a cell beginning with =, +, -, @, a tab or a carriage
 * return is prefixed with ' so that a spreadsheet shows it as text instead of
 * running it.
 *
 * One exception, decided by content rather than by column: a cell that is
 * entirely a plain decimal number (-12.5, 0.004) is left as it is. A
 * spreadsheet reads it as a number, never as a formula, and prefixing it would
 * turn a negative P&L or fee into text that no longer sums. Anything else with
 * a leading minus (e.g. -2+3+cmd|'/C calc'!A0) is not a plain number and is
 * neutralised, whichever column it is in.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Prefixes ' to a cell a spreadsheet would read as a formula. */
export function neutralise(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** One CSV cell: neutralised, then quoted when it holds a quote, comma or line break. */
export function csvCell(value: string): string {
  const v = neutralise(value);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** A whole CSV document: the header row, then one line per row, each ending in CRLF (RFC 4180). */
export function toCSV(header: string[], rows: string[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
