/**
 * The bench's output: one table per section on stdout, and the same figures (unformatted, with
 * the notes) as JSON. Targets are shown beside figures as PASS/MISS; nothing is asserted.
 */

export type Verdict = 'PASS' | 'MISS' | '';

export interface Target {
  /** How the target reads, e.g. `≤ 12`. */
  text: string;
  check: (value: number) => boolean;
}

export const atMost = (limit: number, unit = ''): Target => ({ text: `≤ ${limit}${unit}`, check: (v) => v <= limit });
export const below = (limit: number, unit = ''): Target => ({ text: `< ${limit}${unit}`, check: (v) => v < limit });
export const atLeast = (limit: number, unit = ''): Target => ({ text: `≥ ${limit.toLocaleString('en-US')}${unit}`, check: (v) => v >= limit });

/** PASS or MISS for a value against a target; '' without a target or a number. */
export function judge(value: number | null | undefined, target: Target | undefined): Verdict {
  if (!target || value === null || value === undefined || !Number.isFinite(value)) return '';
  return target.check(value) ? 'PASS' : 'MISS';
}

export type Cell = string | number | null | undefined;

export interface Section {
  key: string;
  title: string;
  columns: string[];
  rows: Cell[][];
  notes: string[];
  /** Structured figures for the JSON file. */
  data: unknown;
  /** Set when the section did not run; printed instead of the table. */
  skipped?: string;
}

/** Formats a number for the table: thousands separators, decimals by magnitude. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 10 ? 2 : abs >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function formatCell(cell: Cell): string {
  if (cell === null || cell === undefined) return '–';
  return typeof cell === 'number' ? formatNumber(cell) : cell;
}

/** The section as text: a title, an aligned table, then numbered notes. */
export function renderSection(section: Section): string {
  const lines = [`## ${section.title}`];
  if (section.skipped) {
    lines.push(`skipped: ${section.skipped}`);
  } else {
    const cells = section.rows.map((row) => row.map(formatCell));
    const widths = section.columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length)));
    const numeric = section.columns.map((_, i) => cells.every((r) => /^[-+<>≤≥~]?[\d,.%]+( ?[a-zA-Z%/]*)?$|^–$|^$/.test(r[i] ?? '')));
    const pad = (text: string, i: number) => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
    lines.push(section.columns.map((c, i) => pad(c, i)).join(' | '));
    lines.push(widths.map((w) => '-'.repeat(w)).join('-|-'));
    for (const row of cells) lines.push(row.map((c, i) => pad(c, i)).join(' | '));
  }
  section.notes.forEach((note, i) => lines.push(`${i === 0 ? 'Notes:' : '      '} ${i + 1}. ${note}`));
  return lines.join('\n');
}
