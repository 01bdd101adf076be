// Walks one station's history forward: ask for the rows after a cursor, within a window that suits the interval,
// move the cursor to the newest row received, and go on until --to. Nothing here relies on the API honouring
// date__lt or capping answers at any size: an answer that stops short is followed from its newest row, one that
// goes past the window only moves the cursor further. Each request is retried as retry.ts says.
import { type FetchReadingRows, type ReadingsQuery, sentDateLtMs } from '../readings/read.js';
import type { ParsedRows, ReadingsInterval, RowReading } from '../readings/schema.js';
import type { Failure, Result } from '../upstream/failure.js';
import { type RetryOptions, withRetries } from './retry.js';

/** Rows per request the window is sized for: a day of 5-minute rows. */
export const ROWS_PER_WINDOW = 288;

export interface WalkOptions extends RetryOptions {
  readonly fetch: FetchReadingRows;
  readonly interval: ReadingsInterval;
  readonly intervalMs: number;
  readonly fromMs: number;
  readonly toMs: number;
  /** Called once per request sent. */
  readonly onRequest: (outcome: Result<ParsedRows>) => void;
  /** New rows of the station, in increasing time, never one at or before an earlier one; awaited (backpressure). */
  readonly onRows: (
    rows: readonly RowReading[],
    answer: { readonly rejectedRows: number; readonly futureRows?: number },
  ) => Promise<void>;
  /** Where the station's walk stands: every row up to this time has been asked for. */
  readonly onCursor?: (cursorMs: number) => void;
}

export type StationOutcome =
  | { readonly ok: true; readonly rows: number }
  | {
      readonly ok: false;
      readonly rows: number;
      readonly failure: Failure;
      /** The part of [from, to) not read: from here to --to. */
      readonly missingFromMs: number;
    };

export async function walkStation(id: number, options: WalkOptions): Promise<StationOutcome> {
  // Rows strictly after the cursor are still wanted; --from itself is included.
  let at: Where = { cursor: options.fromMs - 1, ignoresDateLt: false };
  let rows = 0;
  while (at.cursor < options.toMs - 1) {
    const step = await walkStep(id, at, options);
    if (!step.ok) {
      const missingFromMs = Math.max(options.fromMs, Math.floor(at.cursor / 1000) * 1000 + 1000);
      return { ok: false, rows, failure: step.failure, missingFromMs };
    }
    rows += step.rows;
    if (step.next === undefined) break;
    at = step.next;
    options.onCursor?.(at.cursor);
  }
  return { ok: true, rows };
}

/** Where a station's walk stands. */
interface Where {
  readonly cursor: number;
  /**
   * Learnt from this station's own answers only: another station's overshooting answer says nothing about this
   * one's gaps, and ending a walk on its evidence would drop every row after a gap.
   */
  readonly ignoresDateLt: boolean;
}

type Step =
  | { readonly ok: true; readonly rows: number; readonly next: Where | undefined }
  | { readonly ok: false; readonly failure: Failure };

/**
 * One request of the walk, its new rows handed on, and where the walk goes next (undefined: the station is done).
 * A function of its own so that the answer, rows and all, is garbage once it returns: the walk itself then awaits
 * the next request for as long as the API takes, and what its frame held would live through collections.
 */
async function walkStep(id: number, at: Where, options: WalkOptions): Promise<Step> {
  const { cursor } = at;
  const windowEnd = Math.min(cursor + 1 + options.intervalMs * ROWS_PER_WINDOW, options.toMs);
  const query: ReadingsQuery = { interval: options.interval, dateGtMs: cursor, dateLtMs: windowEnd };
  const outcome = await withRetries(() => options.fetch(id, query), options, options.onRequest);
  if (!outcome.ok) return { ok: false, failure: outcome };
  const answer = outcome.value;
  const fresh = newRows(answer.rows, cursor, options.toMs);
  if (fresh.length > 0 || answer.rejectedRows > 0 || answer.futureRows) await options.onRows(fresh, answer);
  const newest = newestOf(answer.rows);
  // A row at the date__lt sent, or within an interval of it, is no sign: an API may read it as "at or before", or
  // round it up to its own step.
  const beyond = sentDateLtMs(windowEnd) + options.intervalMs;
  const ignoresDateLt = at.ignoresDateLt || (newest !== undefined && newest > beyond);
  // Nothing newer: if this station's answers have gone past date__lt, the empty answer covered everything after
  // the cursor and nothing newer exists; otherwise this window may be a gap (a station switched off for a day),
  // and the walk goes on after it.
  const next =
    newest !== undefined && newest > cursor
      ? { cursor: newest, ignoresDateLt }
      : ignoresDateLt
        ? undefined
        : { cursor: windowEnd - 1, ignoresDateLt };
  return { ok: true, rows: fresh.length, next };
}

/** Rows after the cursor and before --to, by time; of rows sharing a time the later one in the answer wins. */
export function newRows(rows: readonly RowReading[], cursor: number, toMs: number): RowReading[] {
  const kept = rows.filter((r) => r.reading.atMs > cursor && r.reading.atMs < toMs);
  // Stable: rows of equal time keep the answer's order, so the last of them is the one kept below.
  kept.sort((a, b) => a.reading.atMs - b.reading.atMs);
  return kept.filter((r, i) => kept[i + 1]?.reading.atMs !== r.reading.atMs);
}

function newestOf(rows: readonly RowReading[]): number | undefined {
  let newest: number | undefined;
  for (const r of rows) if (newest === undefined || r.reading.atMs > newest) newest = r.reading.atMs;
  return newest;
}
