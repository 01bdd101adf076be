// The rows of an answer the walk has not read yet, in increasing time, whatever order the answer lists them in.
import type { RowReading } from '../readings/schema.js';

/** Rows after the cursor and before --to, by time; of rows sharing a time the later one in the answer wins. */
export function newRows(rows: readonly RowReading[], cursor: number, toMs: number): RowReading[] {
  const at = (k: number): number => (rows[k] as RowReading).reading.atMs;
  if (rows.every((_, k) => k === 0 || at(k) > at(k - 1))) {
    let i = 0;
    let j = rows.length;
    while (i < j && at(i) <= cursor) i++;
    while (j > i && at(j - 1) >= toMs) j--;
    return rows.slice(i, j);
  }
  const kept = rows.filter((r) => r.reading.atMs > cursor && r.reading.atMs < toMs);
  // Stable: rows of equal time keep the answer's order, so the last of them is the one kept below.
  kept.sort((a, b) => a.reading.atMs - b.reading.atMs);
  return kept.filter((r, i) => kept[i + 1]?.reading.atMs !== r.reading.atMs);
}
