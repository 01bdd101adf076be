// The rows of an answer the walk has not read yet, in increasing time, whatever order the answer lists them in,
// and the rows it holds ahead of its cursor until the cursor passes them.
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

/** The newest row read (written, the newest being `lastMs`, or held ahead) at or before `ms`. */
export function newestReadBy(
  ahead: ReadonlyMap<number, RowReading>,
  lastMs: number | undefined,
  ms: number,
): number | undefined {
  let newest = lastMs;
  for (const at of ahead.keys()) if (at <= ms && (newest === undefined || at > newest)) newest = at;
  return newest;
}

/** The first row held at or after `ms`. */
export function firstHeld(ahead: ReadonlyMap<number, RowReading>, ms: number): number | undefined {
  let first: number | undefined;
  for (const at of ahead.keys()) if (at >= ms && (first === undefined || at < first)) first = at;
  return first;
}

/** The rows held at or before the cursor, in increasing time, taken out of `ahead`. */
export function release(ahead: Map<number, RowReading>, cursorMs: number): RowReading[] {
  const out: RowReading[] = [];
  for (const [at, r] of ahead) {
    if (at <= cursorMs) {
      out.push(r);
      ahead.delete(at);
    }
  }
  return out.sort((a, b) => a.reading.atMs - b.reading.atMs);
}
