/**
 * A run's learning curve as files a spreadsheet or a notebook reads: one row per iteration, nested
 * metrics flattened to dotted columns (`eval.successRate`, `curriculum.pool`). CSV (RFC 4180: a
 * header row, fields with a comma, quote or line break quoted) and JSONL (one iteration per line).
 * The CLI's `--history FILE.csv|FILE.jsonl` and the Runs view's downloads both write these.
 */
import type { IterationMetrics } from './metrics.ts';

type Cell = number | string | boolean | null;

function flatten(value: Record<string, unknown>, prefix: string, out: Record<string, Cell>): void {
  for (const [key, v] of Object.entries(value)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, name, out);
    else if (v === undefined) continue;
    else out[name] = Array.isArray(v) ? JSON.stringify(v) : (v as Cell);
  }
}

/** One flat row per iteration, and every column any row has, in the order first met. */
export function historyTable(history: readonly IterationMetrics[]): { columns: string[]; rows: Record<string, Cell>[] } {
  const rows = history.map((m) => {
    const row: Record<string, Cell> = {};
    flatten(m as unknown as Record<string, unknown>, '', row);
    return row;
  });
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (seen.has(key)) continue;
      seen.add(key);
      columns.push(key);
    }
  }
  return { columns, rows };
}

function csvField(value: Cell | undefined): string {
  if (value === undefined || value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The curve as CSV: a header row, then one row per iteration (an iteration without a column leaves it empty). */
export function historyCsv(history: readonly IterationMetrics[]): string {
  const { columns, rows } = historyTable(history);
  return [columns.map(csvField).join(','), ...rows.map((row) => columns.map((c) => csvField(row[c])).join(','))].join('\r\n') + '\r\n';
}

/** The curve as JSONL: one iteration's metrics (nested, as recorded) per line. */
export function historyJsonl(history: readonly IterationMetrics[]): string {
  return history.map((m) => JSON.stringify(m)).join('\n') + (history.length > 0 ? '\n' : '');
}
