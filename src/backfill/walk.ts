// Walks one station's history forward: ask for the rows after a cursor, within a window that suits the interval,
// move the cursor to the newest row received, and go on until --to. Nothing here relies on the API honouring
// date__lt or capping answers at any size: an answer that stops short is followed from its newest row, one that
// goes past the window only moves the cursor further. Each request is retried with backoff; a 429, or a 503 with
// Retry-After, pauses every station's requests until then.
import type { MeasurementsInterval, RowReading } from '../boundaries/measurements.js';
import { type Failure, failure } from '../upstream/failure.js';

export interface HistoryQuery {
  readonly interval: MeasurementsInterval;
  /** Rows strictly after this time (sent in whole seconds). */
  readonly dateGtMs: number;
  /** Sent as date__lt, a hint the API may ignore. */
  readonly dateLtMs: number;
}

export type HistoryOutcome =
  | { readonly ok: true; readonly rows: readonly RowReading[]; readonly rejectedRows: number; readonly bytes: number }
  | Failure;

export type FetchHistory = (id: number, query: HistoryQuery) => Promise<HistoryOutcome>;

/** Rows per request the window is sized for: a day of 5-minute rows. */
export const ROWS_PER_WINDOW = 288;
/** A Retry-After is honoured up to this, as in the exporter. */
const MAX_RETRY_AFTER_MS = 3_600_000;

/** The pause every station's requests share: set by an answer that asks to wait. */
export interface PauseGate {
  untilMs: number;
}

/** What the API has shown about date__lt during this run, shared by all stations. */
export interface ApiHints {
  ignoresDateLt: boolean;
}

export interface WalkOptions {
  readonly fetch: FetchHistory;
  readonly interval: MeasurementsInterval;
  readonly intervalMs: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly retries: number;
  readonly maxBackoffMs: number;
  readonly gate: PauseGate;
  readonly hints: ApiHints;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  /** Called once per request sent. */
  readonly onRequest: (outcome: HistoryOutcome) => void;
  /** New rows of the station, in increasing time, never one at or before an earlier one; awaited (backpressure). */
  readonly onRows: (rows: readonly RowReading[], answer: { readonly rejectedRows: number }) => Promise<void>;
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
  const windowMs = options.intervalMs * ROWS_PER_WINDOW;
  // Rows strictly after the cursor are still wanted; --from itself is included.
  let cursor = options.fromMs - 1;
  let rows = 0;
  while (cursor < options.toMs - 1) {
    const windowEnd = Math.min(cursor + windowMs, options.toMs);
    const query: HistoryQuery = { interval: options.interval, dateGtMs: cursor, dateLtMs: windowEnd };
    const outcome = await fetchWithRetries(id, query, options);
    if (!outcome.ok) {
      const missingFromMs = Math.max(options.fromMs, Math.floor(cursor / 1000) * 1000 + 1000);
      return { ok: false, rows, failure: outcome, missingFromMs };
    }
    const fresh = newRows(outcome.rows, cursor, options.toMs);
    if (fresh.length > 0 || outcome.rejectedRows > 0) await options.onRows(fresh, outcome);
    rows += fresh.length;
    const newest = newestOf(outcome.rows);
    if (newest !== undefined && newest >= windowEnd) options.hints.ignoresDateLt = true;
    if (newest !== undefined && newest > cursor) cursor = newest;
    // Nothing newer: if the API is known to ignore date__lt, nothing newer exists at all; otherwise this window
    // may be a gap (a station switched off for a day), and the walk goes on after it.
    else if (options.hints.ignoresDateLt) break;
    else cursor = windowEnd - 1;
    options.onCursor?.(cursor);
  }
  return { ok: true, rows };
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

/** Reasons worth asking again: the API or the path was busy or broken for a moment. */
const RETRYABLE = new Set(['rate_limited', 'http_5xx', 'timeout', 'network', 'invalid_json']);

async function fetchWithRetries(id: number, query: HistoryQuery, options: WalkOptions): Promise<HistoryOutcome> {
  for (let attempt = 0; ; attempt++) {
    await waitForGate(options);
    let outcome: HistoryOutcome;
    try {
      outcome = await options.fetch(id, query);
    } catch (error) {
      // The client answers failures as values; a throw is a bug, and still must not end the run.
      outcome = failure('network', `history request threw: ${String(error).slice(0, 200)}`);
    }
    options.onRequest(outcome);
    if (outcome.ok || !RETRYABLE.has(outcome.reason) || attempt >= options.retries) return outcome;
    const asked = outcome.retryAfterMs === undefined ? undefined : Math.min(outcome.retryAfterMs, MAX_RETRY_AFTER_MS);
    if (asked !== undefined || outcome.reason === 'rate_limited') {
      const waitMs = asked ?? backoffMs(attempt, options);
      options.gate.untilMs = Math.max(options.gate.untilMs, options.now() + waitMs);
    } else {
      await options.sleep(backoffMs(attempt, options));
    }
  }
}

/** 1 s, 2 s, 4 s ... up to --upstream.max-backoff, jittered down by up to half so stations do not retry in step. */
export function backoffMs(attempt: number, options: Pick<WalkOptions, 'maxBackoffMs' | 'random'>): number {
  const full = Math.min(options.maxBackoffMs, 1000 * 2 ** attempt);
  return Math.round(full * (0.5 + options.random() / 2));
}

async function waitForGate(options: WalkOptions): Promise<void> {
  for (let left = options.gate.untilMs - options.now(); left > 0; left = options.gate.untilMs - options.now())
    await options.sleep(left);
}
