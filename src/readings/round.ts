// One round of readings: one request per station, a few in flight at a time, each station's answer standing
// alone. Everything comes in as arguments (no timer, no clock but the duration's), so the collector owns when
// rounds run and what happens between them, and a round can be tested without a network.

import type { RecordRequest } from '../exposition/request-metrics.js';
import { forEachAtMost } from '../runtime/pool.js';
import { type Failure, failure, type Result } from '../upstream/failure.js';
import { type ReadingsData, type RoundStats, readingExpiresAtMs } from './data.js';
import type { FetchReadings } from './read.js';
import { nextCursor, type RoundCursor, rotate } from './rotation.js';
import { allFailed, logRound, type RoundLog, type Settled, tally } from './round-stats.js';
import type { ParsedReadings, ReadingsInterval, StationReading } from './schema.js';

export type { RoundLog } from './round-stats.js';

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
  /** The station to start with: where the last round stopped (its stats' resumeAt). The top when unset. */
  readonly startAt?: RoundCursor | undefined;
  readonly log?: RoundLog;
  /** Called once per request sent, for the request counters. */
  readonly onRequest?: RecordRequest;
}

export type ReadingsRoundResult =
  /** At least one request succeeded (or none was needed); retryAfterMs when the API asked to wait. */
  | { readonly ok: true; readonly value: ReadingsData; readonly retryAfterMs?: number }
  /** Every request failed: the collector keeps its data and backs off. */
  | (Failure & { readonly stats: RoundStats });

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

export async function runReadingsRound(options: ReadingsRoundOptions): Promise<ReadingsRoundResult> {
  const t0 = performance.now();
  const { order, start } = rotate([...new Set(options.ids)], options.startAt);
  const settled = new Map<number, Settled>();
  let stop: Failure | undefined;
  // A request that asks to wait stops every worker before its next request.
  const next = await forEachAtMost(
    order,
    options.concurrency,
    async (id) => {
      const s = settle(await readOne(options, id), options);
      settled.set(id, s);
      if (s.state === 'failed') {
        options.log?.debug(
          { id, reason: s.failure.reason, err: s.failure.message },
          'readings request failed',
        );
        if (asksToWait(s.failure)) stop ??= s.failure;
      }
    },
    () => stop !== undefined,
  );

  const refused = (position: number): boolean => {
    const s = settled.get(order[position] as number);
    return s?.state === 'failed' && asksToWait(s.failure);
  };
  const stats = tally({
    ids: order,
    settled,
    startedAtMs: options.nowMs,
    durationMs: performance.now() - t0,
    stop,
    resumeAt: nextCursor(order, start, next, refused),
  });
  logRound(options.log, stats, settled, stop);
  if (stats.requests > 0 && stats.stations.failed === stats.requests) return allFailed(stats, settled, stop);
  const data: ReadingsData = { readings: merge(order, settled, options.previous), round: stats };
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
    const reading = s === undefined || s.state === 'failed' ? previous?.readings.get(id) : s.parsed.reading;
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
  const parsed = outcome.value;
  if (parsed.reading === undefined) return { state: 'empty', parsed };
  const fresh = options.nowMs <= readingExpiresAtMs(parsed.reading, options.maxAgeMs);
  return { state: fresh ? 'fresh' : 'stale', parsed };
}

/** 429 always (asking again at once feeds the limit), 503 only with a Retry-After. */
const asksToWait = (f: Failure): boolean => f.reason === 'rate_limited' || f.retryAfterMs !== undefined;
