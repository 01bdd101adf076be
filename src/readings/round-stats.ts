// What a round of readings tells afterwards: its counts by state, reason and row, the one warning it logs, and
// the failure of a round without one good answer.
import { FAILURE_REASONS, type Failure, type FailureReason, failure } from '../upstream/failure.js';
import {
  type FutureDated,
  READING_STATES,
  type ReadingState,
  type RoundStats,
  type UnknownUnit,
} from './data.js';
import type { RoundCursor } from './rotation.js';
import { type ParsedReadings, SKIP_REASONS, type SkipReason } from './schema.js';

/** One station's outcome in a round. */
export type Settled =
  | { readonly state: 'fresh' | 'stale' | 'empty'; readonly parsed: ParsedReadings }
  | { readonly state: 'failed'; readonly failure: Failure };

/** The two levels a round logs at; a pino Logger fits. */
export interface RoundLog {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface RoundFacts {
  readonly ids: readonly number[];
  readonly settled: ReadonlyMap<number, Settled>;
  readonly startedAtMs: number;
  readonly durationMs: number;
  readonly stop: Failure | undefined;
  readonly resumeAt: RoundCursor | undefined;
}

const MAX_LISTED = 20;

const zeroes = <K extends string>(keys: readonly K[]): Record<K, number> =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export function tally(facts: RoundFacts): RoundStats {
  const { ids, settled, stop } = facts;
  const stations = zeroes<ReadingState>(READING_STATES);
  const skippedFields = zeroes<SkipReason>(SKIP_REASONS);
  const failures = zeroes<FailureReason>(FAILURE_REASONS);
  const unknownUnits = new Map<string, UnknownUnit>();
  const futureDated: FutureDated[] = [];
  let rejectedRows = 0;
  let futureRows = 0;
  for (const id of ids) {
    const s = settled.get(id);
    stations[s?.state ?? 'deferred']++;
    if (s === undefined) continue;
    if (s.state === 'failed') {
      failures[s.failure.reason]++;
      continue;
    }
    const { parsed } = s;
    rejectedRows += parsed.rejectedRows;
    futureRows += parsed.futureRows ?? 0;
    if (parsed.newestFutureMs !== undefined && futureDated.length < MAX_LISTED)
      futureDated.push({ id, atMs: parsed.newestFutureMs });
    for (const skip of parsed.skipped) {
      skippedFields[skip.reason]++;
      if (skip.reason !== 'unknown_unit' || skip.unit === undefined) continue;
      const key = `${skip.field}\u0000${skip.unit}`;
      if (unknownUnits.size < MAX_LISTED && !unknownUnits.has(key))
        unknownUnits.set(key, { field: skip.field, unit: skip.unit });
    }
  }
  return {
    startedAtMs: facts.startedAtMs,
    durationMs: facts.durationMs,
    stations,
    skippedFields,
    rejectedRows,
    futureRows,
    futureDated,
    requests: settled.size,
    failures,
    unknownUnits: [...unknownUnits.values()],
    retryAfterMs: stop?.retryAfterMs,
    resumeAt: facts.resumeAt,
  };
}

/** One warning per round at most, however many stations failed: the debug level has each of them. */
export function logRound(
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
export function allFailed(
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
