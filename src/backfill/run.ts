// One backfill run: the station list once, then every station's history, `concurrency` stations at a time, into
// one sink. Every outside effect (the reads, the sink, the clock, the log) comes in as an argument, so a run can
// be tested in-process; command.ts wires the real ones.
import type { FetchReadingRows } from '../readings/read.js';
import { idsToRead } from '../readings/round.js';
import type { ReadingsInterval } from '../readings/schema.js';
import { forEachAtMost } from '../runtime/pool.js';
import type { FetchStations } from '../stations/read.js';
import type { Station } from '../stations/schema.js';
import type { Failure } from '../upstream/failure.js';
import { type PauseGate, type RetryOptions, withRetries } from './retry.js';
import type { Label } from './samples.js';
import type { Sink, StationWriter } from './sink.js';
import { type BackfillStats, countRows } from './stats.js';
import type { FailedStation } from './summary.js';
import { walkStation } from './walk.js';

/** The two log levels a run uses; a pino Logger fits. */
export interface RunLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RunOptions {
  readonly fetchStations: FetchStations;
  readonly fetchRows: FetchReadingRows;
  readonly sink: Sink;
  readonly stats: BackfillStats;
  readonly fromMs: number;
  readonly toMs: number;
  readonly interval: ReadingsInterval;
  readonly intervalMs: number;
  readonly only: readonly number[] | undefined;
  readonly concurrency: number;
  readonly labels: readonly Label[];
  readonly retries: number;
  readonly maxBackoffMs: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly log: RunLog;
}

export type RunResult =
  /** The station list could not be read, or the sink failed: nothing (more) could be done. */
  | { readonly ok: false; readonly failure: Failure | Error }
  | {
      readonly ok: true;
      readonly failed: readonly FailedStation[];
      /** A sink that keeps what it accepted (remote write) refused more: the stations listed cover the rest. */
      readonly sinkFailure?: { readonly message: string; readonly acceptedSamples: number };
    };

/** Where each station's writing stands, for saying what is missing if the sink fails part way. */
interface Written {
  readonly writer: StationWriter;
  /** The first row of a write the sink threw on. */
  interruptedFromMs?: number | undefined;
}

export async function runBackfill(options: RunOptions): Promise<RunResult> {
  const gate: PauseGate = { untilMs: 0 };
  const retry: RetryOptions = { ...options, gate };
  const { stats } = options;
  const list = await withRetries(options.fetchStations, retry, (outcome) => {
    stats.requests++;
    if (!outcome.ok) stats.failedRequests++;
  });
  if (!list.ok) return { ok: false, failure: list };
  const stations = pickStations(list.value.stations, options);
  stats.stationsTotal = stations.length;
  options.log.info(
    { stations: stations.length, listed: list.value.stations.length },
    'station list read; reading history',
  );

  const failed: FailedStation[] = [];
  const written = new Map<number, Written>();
  let sinkError: Error | undefined;
  await forEachAtMost(
    stations,
    options.concurrency,
    async (station) => {
      const state: Written = { writer: options.sink.station(station, options.labels) };
      written.set(station.id, state);
      try {
        const outcome = await readStation(station, options, retry, state);
        if (!outcome.ok)
          for (const m of outcome.missing)
            failed.push({ id: station.id, failure: m.failure, missingFromMs: m.fromMs, missingToMs: m.toMs });
      } catch (error) {
        // Only the sink throws (a full disk, a closed pipe): nothing more can be written.
        sinkError ??= error as Error;
      }
      stats.stationsDone++;
    },
    () => sinkError !== undefined,
  );
  const acceptedSamples = options.sink.acceptedSamples?.();
  if (sinkError && acceptedSamples !== undefined) {
    const all = unwritten(stations, written, failed, options.fromMs, sinkError.message);
    stats.stationsFailed = new Set(all.map((f) => f.id)).size;
    return { ok: true, failed: all, sinkFailure: { message: sinkError.message, acceptedSamples } };
  }
  stats.stationsFailed = new Set(failed.map((f) => f.id)).size;
  return sinkError ? { ok: false, failure: sinkError } : { ok: true, failed };
}

/**
 * After the sink refused part way, every station with something not written: from its earliest sample the sink
 * did not have accepted, the write it refused, or where its own read failed; stations never started, all of it.
 */
function unwritten(
  stations: readonly Station[],
  written: ReadonlyMap<number, Written>,
  failed: readonly FailedStation[],
  fromMs: number,
  message: string,
): FailedStation[] {
  const out: FailedStation[] = [];
  const stopped = { reason: 'not_written', message: `not written: ${message}` } as const;
  for (const station of stations) {
    const state = written.get(station.id);
    const readFailure = failed.find((f) => f.id === station.id);
    const times = [state?.writer.unwrittenFromMs?.(), state?.interruptedFromMs, readFailure?.missingFromMs];
    const known = times.filter((t): t is number => t !== undefined);
    if (state === undefined) out.push({ id: station.id, failure: stopped, missingFromMs: fromMs });
    else if (known.length > 0) {
      const missingFromMs = Math.min(...known);
      const unsent = readFailure === undefined || missingFromMs < readFailure.missingFromMs;
      out.push({ id: station.id, failure: unsent ? stopped : readFailure.failure, missingFromMs });
    }
  }
  return out;
}

/** The stations of the list, narrowed to --measurements.stations; ids asked for but not listed are said once. */
function pickStations(listed: readonly Station[], options: RunOptions): Station[] {
  const ids = new Set(idsToRead(listed, options.only));
  const missing = (options.only ?? []).filter((id) => !listed.some((s) => s.id === id));
  if (missing.length > 0) {
    options.log.warn(
      { ids: missing.slice(0, 20) },
      '--measurements.stations names stations the list does not hold',
    );
  }
  return listed.filter((s) => ids.has(s.id));
}

async function readStation(
  station: Station,
  options: RunOptions,
  retry: RetryOptions,
  state: Written,
): ReturnType<typeof walkStation> {
  const { stats } = options;
  const { writer } = state;
  let covered = options.fromMs;
  const cover = (toMs: number): void => {
    const at = Math.min(Math.max(toMs, covered), options.toMs);
    stats.coveredMs += at - covered;
    covered = at;
  };
  const outcome = await walkStation(station.id, {
    ...retry,
    fetch: options.fetchRows,
    interval: options.interval,
    intervalMs: options.intervalMs,
    fromMs: options.fromMs,
    toMs: options.toMs,
    onRequest: (outcome) => {
      stats.requests++;
      if (!outcome.ok) stats.failedRequests++;
    },
    onRows: async (rows, answer) => {
      // Rows dated in the future are refused as the live readings refuse them, and counted with the rejected.
      stats.rejectedRows += answer.rejectedRows + (answer.futureRows ?? 0);
      let samples = 0;
      try {
        samples = rows.length > 0 ? await writer.write(rows) : 0;
      } catch (error) {
        state.interruptedFromMs = rows[0]?.reading.atMs;
        throw error;
      }
      countRows(stats, rows, samples);
    },
    onCursor: cover,
  });
  // A failed station's range counts as done for the estimate: nothing more will be read of it.
  cover(options.toMs);
  return outcome;
}
