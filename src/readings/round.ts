// One round of readings: one request per station, a few in flight at a time, each station's answer standing
// alone. Everything comes in as arguments (no timer, no clock but the duration's), so the collector owns when
// rounds run and what happens between them, and a round can be tested without a network.

import type { RecordRequest } from '../exposition/request-metrics.js';
import {
  FAILURE_REASONS,
  type Failure,
  type FailureReason,
  failure,
  type Result,
} from '../upstream/failure.js';
import {
  READING_STATES,
  type ReadingState,
  type ReadingsData,
  type RoundStats,
  readingExpiresAtMs,
  type UnknownUnit,
} from './data.js';
import type { FetchReadings } from './read.js';
import {
  type ParsedReadings,
  type ReadingsInterval,
  SKIP_REASONS,
  type SkippedField,
  type SkipReason,
  type StationReading,
} from './schema.js';

/** The two levels a round logs at; a pino Logger fits. */
export interface RoundLog {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface ReadingsRoundOptions {
  /** The only stations asked for: ids of the last good station list (and of --measurements.stations). */
  readonly ids: readonly number[];
  readonly fetch: FetchReadings;
  /** Requests in flight at most (below 1 counts as 1). */
  readonly concurrency: number;
  /** The last round's data: a station whose request fails, or that is not asked, keeps its reading. */
  readonly previous: ReadingsData | undefined;
  readonly nowMs: number;
  /** Rows after nowMs − maxAgeMs are asked for; a newer row is fresh, an older one stale. */
  readonly maxAgeMs: number;
  readonly interval: ReadingsInterval;
  readonly log?: RoundLog;
  /** Called once per request sent, for the request counters. */
  readonly onRequest?: RecordRequest;
}

export type ReadingsRoundResult =
  /** At least one request succeeded (or none was needed); retryAfterMs when the API asked to wait. */
  | { readonly ok: true; readonly value: ReadingsData; readonly retryAfterMs?: number }
  /** Every request failed: the collector keeps its data and backs off. */
  | (Failure & { readonly stats: RoundStats });

const MAX_UNKNOWN_UNITS = 20;

/**
 * The ids a round may ask for: those of the last good station list, narrowed to --measurements.stations when it
 * is set (ids there that the list lacks are never asked). No id comes from anywhere else.
 */
export function idsToRead(
  listed: readonly { readonly id: number }[],
  only: readonly number[] | undefined,
): number[] {
  const wanted = only === undefined ? undefined : new Set(only);
  const ids: number[] = [];
  for (const { id } of listed) if (wanted === undefined || wanted.has(id)) ids.push(id);
  return ids;
}

type Settled =
  | {
      readonly state: 'fresh' | 'stale';
      readonly reading: StationReading;
      readonly skipped: readonly SkippedField[];
      readonly rejectedRows: number;
    }
  | { readonly state: 'empty' }
  | { readonly state: 'failed'; readonly failure: Failure };

const zeroes = <K extends string>(keys: readonly K[]): Record<K, number> =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export async function runReadingsRound(options: ReadingsRoundOptions): Promise<ReadingsRoundResult> {
  const t0 = performance.now();
  const ids = [...new Set(options.ids)];
  const settled = new Map<number, Settled>();
  let stop: Failure | undefined;
  let next = 0;

  // A fixed set of workers pulling the next id: never more than `concurrency` requests, and a request that
  // asks to wait stops every worker before its next request.
  const worker = async (): Promise<void> => {
    while (stop === undefined && next < ids.length) {
      const id = ids[next++] as number;
      const outcome = await readOne(options, id);
      const s = settle(outcome, options);
      settled.set(id, s);
      if (s.state === 'failed') {
        options.log?.debug(
          { id, reason: s.failure.reason, err: s.failure.message },
          'readings request failed',
        );
        if (asksToWait(s.failure)) stop ??= s.failure;
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(options.concurrency) || 1, ids.length));
  await Promise.all(Array.from({ length: ids.length === 0 ? 0 : workers }, worker));

  const stats = tally(ids, settled, options, performance.now() - t0, stop);
  logRound(options.log, stats, settled, stop);
  if (stats.requests > 0 && stats.stations.failed === stats.requests) return allFailed(stats, settled, stop);
  const data: ReadingsData = { readings: merge(ids, settled, options.previous), round: stats };
  return stats.retryAfterMs === undefined
    ? { ok: true, value: data }
    : { ok: true, value: data, retryAfterMs: stats.retryAfterMs };
}

/** A new row replaces the old; a failed or deferred station keeps its reading; an empty answer removes it. */
function merge(
  ids: readonly number[],
  settled: ReadonlyMap<number, Settled>,
  previous: ReadingsData | undefined,
): Map<number, StationReading> {
  const readings = new Map<number, StationReading>();
  for (const id of ids) {
    const s = settled.get(id);
    const reading =
      s === undefined || s.state === 'failed'
        ? previous?.readings.get(id)
        : s.state === 'empty'
          ? undefined
          : s.reading;
    if (reading) readings.set(id, reading);
  }
  return readings;
}

async function readOne(options: ReadingsRoundOptions, id: number): Promise<Result<ParsedReadings>> {
  const t0 = performance.now();
  let outcome: Result<ParsedReadings>;
  try {
    outcome = await options.fetch(id, {
      interval: options.interval,
      dateGtMs: options.nowMs - options.maxAgeMs,
    });
  } catch (error) {
    // The client answers failures as values; a throw is a bug, and still must not end the round.
    outcome = failure('network', `readings request threw: ${String(error).slice(0, 200)}`);
  }
  options.onRequest?.(outcome, (performance.now() - t0) / 1000);
  return outcome;
}

function settle(outcome: Result<ParsedReadings>, options: ReadingsRoundOptions): Settled {
  if (!outcome.ok) return { state: 'failed', failure: outcome };
  const { reading, skipped, rejectedRows } = outcome.value;
  if (reading === undefined) return { state: 'empty' };
  const fresh = options.nowMs <= readingExpiresAtMs(reading, options.maxAgeMs);
  return { state: fresh ? 'fresh' : 'stale', reading, skipped, rejectedRows };
}

/** 429 always (asking again at once feeds the limit), 503 only with a Retry-After. */
const asksToWait = (f: Failure): boolean => f.reason === 'rate_limited' || f.retryAfterMs !== undefined;

function tally(
  ids: readonly number[],
  settled: ReadonlyMap<number, Settled>,
  options: ReadingsRoundOptions,
  durationMs: number,
  stop: Failure | undefined,
): RoundStats {
  const stations = zeroes<ReadingState>(READING_STATES);
  const skippedFields = zeroes<SkipReason>(SKIP_REASONS);
  const failures = zeroes<FailureReason>(FAILURE_REASONS);
  const unknownUnits = new Map<string, UnknownUnit>();
  let rejectedRows = 0;
  for (const id of ids) {
    const s = settled.get(id);
    stations[s?.state ?? 'deferred']++;
    if (s?.state === 'failed') failures[s.failure.reason]++;
    if (s?.state !== 'fresh' && s?.state !== 'stale') continue;
    rejectedRows += s.rejectedRows;
    for (const skip of s.skipped) {
      skippedFields[skip.reason]++;
      if (skip.reason !== 'unknown_unit' || skip.unit === undefined) continue;
      const key = `${skip.field}\u0000${skip.unit}`;
      if (unknownUnits.size < MAX_UNKNOWN_UNITS && !unknownUnits.has(key))
        unknownUnits.set(key, { field: skip.field, unit: skip.unit });
    }
  }
  return {
    startedAtMs: options.nowMs,
    durationMs,
    stations,
    skippedFields,
    rejectedRows,
    requests: settled.size,
    failures,
    unknownUnits: [...unknownUnits.values()],
    retryAfterMs: stop?.retryAfterMs,
  };
}

/** One warning per round at most, however many stations failed: the debug level has each of them. */
function logRound(
  log: RoundLog | undefined,
  stats: RoundStats,
  settled: ReadonlyMap<number, Settled>,
  stop: Failure | undefined,
): void {
  // None failed: nothing to say. All failed: the round itself fails, and the collector says so with its backoff.
  if (!log || stats.stations.failed === 0 || stats.stations.failed === stats.requests) return;
  const reasons = Object.fromEntries(Object.entries(stats.failures).filter(([, n]) => n > 0));
  log.warn(
    {
      failed: stats.stations.failed,
      requests: stats.requests,
      reasons,
      deferred: stats.stations.deferred,
      retry_after_ms: stats.retryAfterMs,
      example: firstFailure(settled)?.message,
    },
    stop ? 'readings round stopped: the API asked to wait' : 'readings requests failed for some stations',
  );
}

function firstFailure(settled: ReadonlyMap<number, Settled>): Failure | undefined {
  for (const s of settled.values()) if (s.state === 'failed') return s.failure;
  return undefined;
}

/** The failure of a round without one good answer: the one that asked to wait, else the commonest reason. */
function allFailed(
  stats: RoundStats,
  settled: ReadonlyMap<number, Settled>,
  stop: Failure | undefined,
): Failure & { readonly stats: RoundStats } {
  const commonest = FAILURE_REASONS.reduce((best, r) =>
    stats.failures[r] > stats.failures[best] ? r : best,
  );
  const reason: FailureReason = stop?.reason ?? commonest;
  const first = stop ?? firstFailure(settled);
  const message = `all ${stats.requests} readings requests failed; ${first?.message ?? ''}`;
  return { ...failure(reason, message, stats.retryAfterMs), stats };
}
