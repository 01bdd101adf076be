// One round of the record: what the store holds (held.ts), the gaps in it (gaps.ts), only those read from CityAir
// with the backfill's walk, and the rows the store lacks written through the backfill's remote-write sink. Every
// outside effect comes in as an argument, so a round runs in-process against a store in memory.
import type { RetryOptions } from '../backfill/retry.js';
import type { Label } from '../backfill/samples.js';
import type { Sink, StationWriter } from '../backfill/sink.js';
import { ROWS_PER_WINDOW, walkStation } from '../backfill/walk.js';
import type { FetchReadingRows } from '../readings/read.js';
import type { ReadingsInterval, RowReading } from '../readings/schema.js';
import type { Store } from '../report/store.js';
import type { Station } from '../stations/schema.js';
import { type FilledSpan, inFilled, joinFilled, rememberFilled, withoutFilled } from './filled.js';
import { gapsIn, gapsToAsk, learn, type Quiet, rangesOf, type Span, spacingOf, windowAt } from './gaps.js';
import { eachHeld, heldExactly } from './held.js';

export const FAILURE_KINDS = ['query', 'write', 'upstream'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export const UNFILLED_REASONS = ['no_rows', 'not_served', 'failed'] as const;
export type UnfilledReason = (typeof UNFILLED_REASONS)[number];

export interface RecordRoundOptions extends Omit<RetryOptions, 'gate'> {
  readonly gate: RetryOptions['gate'];
  readonly store: Pick<Store, 'range' | 'samples'>;
  /** The stations the readings collector reads, as today's list has them. */
  readonly stations: readonly Station[];
  /** CityAir's rows, through the readings' pool and pace. */
  readonly fetchRows: FetchReadingRows;
  readonly openSink: () => Promise<Sink>;
  readonly labels: readonly Label[];
  readonly interval: ReadingsInterval;
  readonly intervalMs: number;
  readonly lookbackMs: number;
  readonly maxAgeMs: number;
  readonly concurrency: number;
  readonly nowMs: number;
  /** What earlier rounds learnt (not changed: the new one is in the result), and this round's number. */
  readonly quiet: ReadonlyMap<number, Quiet>;
  readonly round: number;
  /** What the last rounds wrote (filled.ts): never asked or written again while the store may not show it. */
  readonly filled?: ReadonlyMap<number, readonly FilledSpan[]>;
}

export interface RecordRoundResult {
  readonly outcome: 'complete' | 'partial' | 'failed';
  /** The first failure of each kind, one line each. */
  readonly failures: Partial<Record<FailureKind, string>>;
  readonly gapsFound: number;
  readonly gapsAsked: number;
  /** Rows CityAir gave in the gaps that the store lacked. */
  readonly rowsMissing: number;
  /** Rows written and accepted. */
  readonly rowsWritten: number;
  /** Gaps asked that CityAir did not fill, by reason. */
  readonly unfilled: Readonly<Record<UnfilledReason, number>>;
  readonly upstreamRequests: number;
  readonly stationsFilled: number;
  readonly quiet: ReadonlyMap<number, Quiet>;
  readonly filled: ReadonlyMap<number, readonly FilledSpan[]>;
}

export async function runRecordRound(options: RecordRoundOptions): Promise<RecordRoundResult> {
  const window = windowAt(options.nowMs, options.lookbackMs, options.maxAgeMs);
  const { intervalMs } = options;
  const failures: Partial<Record<FailureKind, string>> = {};
  const unfilled: Record<UnfilledReason, number> = { no_rows: 0, not_served: 0, failed: 0 };
  const tally = { gapsFound: 0, gapsAsked: 0, rowsMissing: 0, rowsWritten: 0, requests: 0, filled: 0 };
  const quiet = new Map(options.quiet);
  const before = options.filled ?? new Map<number, readonly FilledSpan[]>();
  // Spans this round's walks finished with rows written: kept only once the writes were accepted.
  const finished = new Map<number, Span[]>();
  const result = (outcome: RecordRoundResult['outcome']): RecordRoundResult => ({
    outcome,
    failures,
    gapsFound: tally.gapsFound,
    gapsAsked: tally.gapsAsked,
    rowsMissing: tally.rowsMissing,
    rowsWritten: tally.rowsWritten,
    unfilled,
    upstreamRequests: tally.requests,
    stationsFilled: tally.filled,
    quiet,
    filled: rememberFilled(before, outcome === 'failed' ? new Map() : finished, options.round, window.fromMs),
  });

  // Two intervals before the window, so that a held row bounds its first gap; up to now, so that a station that
  // has reported since the last ask is seen. Only the gaps are kept, one batch of answers at a time.
  // A station's entry is let go once a walk takes it: a round's gaps are its largest data.
  const work: (
    | { station: Station; asked: Span[]; ranges: Span[]; newest: number | undefined; spacingMs: number }
    | undefined
  )[] = [];
  const byId = new Map(options.stations.map((s) => [s.id, s]));
  const visit = (id: number, dates: readonly number[]): void => {
    const station = byId.get(id);
    if (station === undefined) return;
    const newest = dates[dates.length - 1];
    // A station that reports less often than it is read has nothing missing between its rows.
    const spacingMs = spacingOf(dates, intervalMs);
    const gaps = withoutFilled(gapsIn(dates, window, spacingMs), before.get(id));
    const asked = gapsToAsk(gaps, quiet.get(id), newest, options.round);
    tally.gapsAsked += asked.length;
    // Gaps not asked again are still gaps; those asked count once the raw samples confirm them (fillRange).
    tally.gapsFound += gaps.length - asked.length;
    unfilled.no_rows += gaps.length - asked.length;
    if (asked.length > 0)
      work.push({ station, asked, ranges: rangesOf(asked, intervalMs * ROWS_PER_WINDOW), newest, spacingMs });
  };
  try {
    const span = { fromMs: window.fromMs - 2 * intervalMs, toMs: options.nowMs };
    await eachHeld(options.store, [...byId.keys()], options.labels, span, intervalMs, visit);
  } catch (error) {
    failures.query = (error as Error).message;
    return result('failed');
  }
  if (work.length === 0) return result('complete');

  const sink = await options.openSink();
  let next = 0;
  let stop = false;
  const worker = async (): Promise<void> => {
    while (!stop && next < work.length) {
      const item = work[next] as NonNullable<(typeof work)[number]>;
      work[next++] = undefined;
      const writer = sink.station(item.station, options.labels);
      const emptied: Span[] = [];
      let wrote = false;
      for (const range of item.ranges) {
        if (stop) break;
        const outcome = await fillRange(
          item.station.id,
          range,
          item.spacingMs,
          writer,
          options,
          before.get(item.station.id),
          tally,
          unfilled,
          failures,
        );
        if (outcome === 'write-failed') stop = true;
        if (outcome === 'query-failed' || outcome === 'write-failed') break;
        if (outcome.rows > 0) wrote = true;
        if (outcome.filled.length > 0)
          finished.set(item.station.id, [...(finished.get(item.station.id) ?? []), ...outcome.filled]);
        for (const gap of item.asked)
          if (gap.fromMs >= range.fromMs && gap.toMs <= range.toMs && outcome.empty(gap)) emptied.push(gap);
      }
      if (wrote) tally.filled++;
      const learnt = learn(
        quiet.get(item.station.id),
        item.asked,
        emptied,
        item.newest,
        options.round,
        window,
      );
      if (learnt === undefined) quiet.delete(item.station.id);
      else quiet.set(item.station.id, learnt);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, work.length));
  await Promise.all(Array.from({ length: workers }, worker));
  try {
    await sink.finish();
  } catch (error) {
    failures.write ??= (error as Error).message;
  }
  if (failures.write !== undefined) {
    // What was accepted before the refusal is in the store: the next round sees it and asks for the rest.
    tally.rowsWritten = 0;
    return result('failed');
  }
  tally.rowsWritten = tally.rowsMissing;
  if (failures.query !== undefined) return result('failed');
  return result(failures.upstream === undefined ? 'complete' : 'partial');
}

type RangeOutcome =
  | 'query-failed'
  | 'write-failed'
  | { readonly rows: number; readonly empty: (gap: Span) => boolean; readonly filled: readonly Span[] };

/**
 * One range of a station: the rows held there exactly, then, if any gap is left, the walk over it, writing each
 * row the store lacks. A gap CityAir gave no row for, with the walk complete over it, is empty.
 */
async function fillRange(
  id: number,
  range: Span,
  spacingMs: number,
  writer: StationWriter,
  options: RecordRoundOptions,
  filled: readonly Span[] | undefined,
  tally: { gapsFound: number; rowsMissing: number; requests: number },
  unfilled: Record<UnfilledReason, number>,
  failures: Partial<Record<FailureKind, string>>,
): Promise<RangeOutcome> {
  const { intervalMs, maxAgeMs } = options;
  let exact: number[];
  try {
    // A row's live samples are taken within max-age of it: look that far past the range, and an interval more.
    exact = await heldExactly(
      options.store,
      id,
      options.labels,
      range.fromMs - 1 - intervalMs,
      range.toMs + maxAgeMs + intervalMs,
    );
  } catch (error) {
    failures.query ??= (error as Error).message;
    return 'query-failed';
  }
  const holds = new Set(exact);
  const gaps = withoutFilled(gapsIn(exact, range, spacingMs), filled);
  tally.gapsFound += gaps.length;
  const first = gaps[0];
  const last = gaps[gaps.length - 1];
  if (first === undefined || last === undefined) return { rows: 0, empty: () => false, filled: [] };
  const found: number[] = [];
  let writeError: Error | undefined;
  const walked = await walkStation(id, {
    ...options,
    fetch: options.fetchRows,
    fromMs: first.fromMs,
    toMs: last.toMs,
    onRequest: () => {
      tally.requests++;
    },
    onRows: async (rows) => {
      // A row of a span the last rounds wrote is on its way into the store, even if the store does not show it.
      const lacking: RowReading[] = rows.filter(
        (r) => !holds.has(r.reading.atMs) && !inFilled(r.reading.atMs, filled),
      );
      if (lacking.length === 0) return;
      tally.rowsMissing += lacking.length;
      for (const r of lacking) found.push(r.reading.atMs);
      try {
        await writer.write(lacking);
      } catch (error) {
        writeError ??= error as Error;
        throw error;
      }
    },
  }).catch((error: unknown) => {
    if (writeError === undefined) throw error;
    return undefined;
  });
  if (writeError !== undefined || walked === undefined) {
    failures.write ??= writeError?.message ?? 'the remote-write sink refused the rows';
    return 'write-failed';
  }
  const missed = walked.ok ? [] : walked.missing;
  for (const m of missed) {
    if (m.failure.reason === 'not_served') unfilled.not_served++;
    else {
      unfilled.failed++;
      failures.upstream ??= m.failure.message;
    }
  }
  const inGap = (gap: Span): boolean => found.some((t) => t >= gap.fromMs && t < gap.toMs);
  const touched = (gap: Span): boolean => missed.some((m) => m.fromMs < gap.toMs && m.toMs > gap.fromMs);
  const empty = (gap: Span): boolean =>
    gaps.some((g) => g.fromMs < gap.toMs && g.toMs > gap.fromMs) && !inGap(gap) && !touched(gap);
  for (const gap of gaps) if (!inGap(gap) && !touched(gap)) unfilled.no_rows++;
  return { rows: found.length, empty, filled: joinFilled(gaps, (gap) => inGap(gap) && !touched(gap)) };
}
