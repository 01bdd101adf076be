// The record: a round at start (once the station list is in) and every --record.interval after, each over the
// stations the readings collector reads. Its state is what the status page shows; its figures go to the metrics.
// A round never blocks a scrape, the readings or the station list: it runs on its own timer, and its CityAir
// requests wait their turn (turn.ts).
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { remoteWriteSink } from '../backfill/remote-write-sink.js';
import type { CollectorHealth } from '../collector/contract.js';
import type { UpstreamConfig } from '../config/config.js';
import type { Secret } from '../config/secret.js';
import { READINGS_INTERVAL_MS } from '../config/setting-values.js';
import { type FetchReadingRows, readReadingRows } from '../readings/read.js';
import { idsToRead } from '../readings/round.js';
import type { ReadingsConfig } from '../readings/settings.js';
import { openStore, type Store } from '../report/store.js';
import { withBackgroundHeapGrowth } from '../runtime/heap-growth.js';
import { armTimer } from '../runtime/timers.js';
import type { StationsCollector } from '../stations/collector.js';
import type { Upstream } from '../upstream/exchange.js';
import type { PauseGate } from '../upstream/shared-pause.js';
import type { RecordConfig } from './config.js';
import type { FilledSpan } from './filled.js';
import type { Quiet } from './gaps.js';
import { createRecordMetrics } from './metrics.js';
import { type FailureKind, type RecordRoundResult, runRecordRound } from './round.js';
import { liveFirst } from './turn.js';

export interface RecordState {
  readonly lastRound:
    | { readonly startedAtMs: number; readonly durationMs: number; readonly result: RecordRoundResult }
    | undefined;
  /** The start of the last round that was not failed. */
  readonly lastSuccessMs: number | undefined;
  readonly rowsWrittenSinceStart: number;
  readonly rounds: number;
  readonly nextRoundAtMs: number | undefined;
}

export interface RecordRounds {
  readonly state: () => RecordState;
  readonly start: () => void;
  readonly stop: () => Promise<void>;
}

export interface RecordDeps {
  readonly record: RecordConfig;
  readonly config: { readonly upstream: UpstreamConfig; readonly readings: ReadingsConfig };
  /** The readings' pool, behind the pause CityAir's answers set for readings and record alike. */
  readonly upstream: Pick<Upstream, 'getJson'>;
  readonly gate: PauseGate;
  readonly stations: Pick<StationsCollector, 'lastGood' | 'firstData'>;
  readonly readings: { readonly health: (nowMs: number) => CollectorHealth };
  readonly registry: Registry;
  readonly log: Logger;
  readonly userAgent: string;
  readonly apiKey: Secret | undefined;
  /** A store other than the one --record.query.url names (tests). */
  readonly store?: Store;
}

/** Retries of a CityAir request or remote write within a round; what still fails is asked again next round. */
const RETRIES = 2;

export function createRecord(deps: RecordDeps): RecordRounds {
  const { record, config } = deps;
  const log = deps.log.child({ collector: 'record' });
  const store = deps.store ?? openStore(record.query, deps.userAgent);
  const metrics = createRecordMetrics(deps.registry);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => armTimer(resolve, ms));
  const turn = liveFirst({
    readings: () => deps.readings.health(Date.now()),
    readingsIntervalMs: config.readings.refreshIntervalMs,
    gate: deps.gate,
    requestMs: config.upstream.timeoutMs,
    now: Date.now,
    sleep,
  });
  const rows = readReadingRows({
    getJson: (path, validate) =>
      deps.upstream.getJson(path, validate, {
        maxBodyBytes: config.readings.maxBodyBytes,
        maxBodySetting: '--measurements.max-body-size',
      }),
  });
  const fetchRows: FetchReadingRows = async (id, query) => {
    await turn();
    return rows(id, query);
  };
  const said = new Set<FailureKind>();
  let quiet: ReadonlyMap<number, Quiet> = new Map();
  let filled: ReadonlyMap<number, readonly FilledSpan[]> = new Map();
  let state: RecordState = {
    lastRound: undefined,
    lastSuccessMs: undefined,
    rowsWrittenSinceStart: 0,
    rounds: 0,
    nextRoundAtMs: undefined,
  };
  let stopped = false;
  let started = false;
  let cancel: (() => void) | undefined;
  let running: Promise<void> | undefined;

  /** One round; the next is due a full interval after this one ends (runAndSchedule). */
  const round = async (): Promise<void> => {
    // The store is asked only between readings rounds too: its answers and the readings' never share the heap.
    await turn();
    const startedAtMs = Date.now();
    const t0 = performance.now();
    const list = deps.stations.lastGood();
    const ids = new Set(idsToRead(list?.stations ?? [], config.readings.stations));
    const queriesBefore = store.queries();
    let result: RecordRoundResult;
    try {
      // The round's answers become garbage as fast as a backfill's: the old generation is kept tight meanwhile.
      result = await withBackgroundHeapGrowth(() =>
        runRecordRound({
          store,
          stations: (list?.stations ?? []).filter((s) => ids.has(s.id)),
          fetchRows,
          openSink: () =>
            remoteWriteSink(record.write, deps.userAgent, {
              retries: RETRIES,
              maxBackoffMs: config.upstream.maxBackoffMs,
              sleep,
              ...(deps.apiKey ? { secret: deps.apiKey } : {}),
            }),
          labels: record.labels,
          interval: config.readings.interval,
          intervalMs: READINGS_INTERVAL_MS[config.readings.interval],
          lookbackMs: record.lookbackMs,
          maxAgeMs: config.readings.maxAgeMs,
          concurrency: config.readings.concurrency,
          nowMs: startedAtMs,
          quiet,
          filled,
          round: state.rounds + 1,
          retries: RETRIES,
          maxBackoffMs: config.upstream.maxBackoffMs,
          gate: deps.gate,
          now: Date.now,
          sleep,
          random: Math.random,
        }),
      );
    } catch (error) {
      // A bug, not a store or CityAir answer: said, counted as a failed round, and the next round runs.
      log.error({ err: error }, 'the record round failed unexpectedly');
      result = failedRound((error as Error).message, filled);
    }
    const durationMs = performance.now() - t0;
    quiet = result.quiet;
    filled = result.filled;
    metrics.count(result, startedAtMs, durationMs / 1000);
    metrics.storeQueries(store.queries() - queriesBefore);
    tell(log, said, result, record);
    state = {
      lastRound: { startedAtMs, durationMs, result },
      lastSuccessMs: result.outcome === 'failed' ? state.lastSuccessMs : startedAtMs,
      rowsWrittenSinceStart: state.rowsWrittenSinceStart + result.rowsWritten,
      rounds: state.rounds + 1,
      nextRoundAtMs: Date.now() + record.intervalMs,
    };
  };

  // The next round starts a full interval after the last one ended, never at once after a long one: the store
  // has that long to show what the last round wrote.
  const runAndSchedule = (): void => {
    if (stopped) return;
    running = round().finally(() => {
      running = undefined;
      if (stopped) return;
      cancel = armTimer(runAndSchedule, record.intervalMs);
    });
  };

  return {
    state: () => state,
    start: () => {
      if (started) return;
      started = true;
      void deps.stations.firstData.then(runAndSchedule);
    },
    stop: async () => {
      stopped = true;
      cancel?.();
      await running?.catch(() => undefined);
      await store.close();
    },
  };
}

function failedRound(message: string, filled: ReadonlyMap<number, readonly FilledSpan[]>): RecordRoundResult {
  return {
    outcome: 'failed',
    failures: { query: message },
    gapsFound: 0,
    gapsAsked: 0,
    rowsMissing: 0,
    rowsWritten: 0,
    unfilled: { no_rows: 0, not_served: 0, failed: 0 },
    upstreamRequests: 0,
    stationsFilled: 0,
    quiet: new Map(),
    filled,
  };
}

/** Each kind of failure is logged once, with what to do, when it starts, and once when it ends. */
function tell(log: Logger, said: Set<FailureKind>, result: RecordRoundResult, record: RecordConfig): void {
  for (const kind of ['query', 'write', 'upstream'] as const) {
    const message = result.failures[kind];
    if (message !== undefined && !said.has(kind)) {
      said.add(kind);
      log.warn({ reason: kind, err: message }, advice(kind, message, record));
    } else if (message === undefined && said.has(kind) && result.outcome !== 'failed') {
      said.delete(kind);
      log.info({ reason: kind }, `the record's ${kind} works again`);
    }
  }
  if (result.rowsWritten > 0)
    log.info(
      { rows: result.rowsWritten, stations: result.stationsFilled, requests: result.upstreamRequests },
      'the record filled gaps in the store',
    );
}

function advice(kind: FailureKind, message: string, record: RecordConfig): string {
  const lookback = `${Math.round(record.lookbackMs / 3_600_000)}h`;
  if (kind === 'query')
    return `the record cannot query the store (${new URL(record.query.url).host}): check --record.query.url and its credentials; retried next round`;
  if (kind === 'upstream')
    return 'the record could not read some gaps from CityAir; they are asked again next round';
  if (/out of bounds|too old|out of order/i.test(message))
    return `the store refuses samples this old: set Prometheus' storage.tsdb.out_of_order_time_window to at least --record.lookback (${lookback}), or shorten --record.lookback; retried next round`;
  return `the store refused the record's remote write (${new URL(record.write.url).host}): check --record.remote-write.url, its credentials, and that Prometheus runs with --web.enable-remote-write-receiver; retried next round`;
}
