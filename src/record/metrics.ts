// Every metric of the record in one table, kept in prom-client on the exporter's registry: what the rounds found,
// filled and could not, how they ended, and the store's and CityAir's share of the work.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { MetricSpec } from '../exposition/catalog.js';
import { FAILURE_KINDS, type RecordRoundResult, UNFILLED_REASONS } from './round.js';

export const RECORD_METRICS = {
  rounds: {
    name: 'cityair_record_rounds_total',
    type: 'counter',
    labels: ['outcome'],
    help: 'Rounds of the record by outcome: complete, partial (some gaps could not be read from CityAir), failed (the store could not be queried or written).',
  },
  failures: {
    name: 'cityair_record_failures_total',
    type: 'counter',
    labels: ['reason'],
    help: 'Rounds of the record that met a failure, by where: query (the store’s query API), write (remote write), upstream (CityAir).',
  },
  gaps: {
    name: 'cityair_record_gaps',
    type: 'gauge',
    labels: [],
    help: 'Spans of the lookback where the store lacked rows, in the last round (before CityAir was asked).',
  },
  unfilled: {
    name: 'cityair_record_unfilled_gaps',
    type: 'gauge',
    labels: ['reason'],
    help: 'Gaps of the last round that CityAir did not fill: no_rows (it holds none there: a station offline), not_served (it would not give the span), failed (the requests failed).',
  },
  rowsMissing: {
    name: 'cityair_record_missing_rows_total',
    type: 'counter',
    labels: [],
    help: 'Rows CityAir holds that the store lacked, found by the record.',
  },
  rowsWritten: {
    name: 'cityair_record_written_rows_total',
    type: 'counter',
    labels: [],
    help: 'Rows the record wrote to the store and the store accepted.',
  },
  upstreamRequests: {
    name: 'cityair_record_upstream_requests_total',
    type: 'counter',
    labels: [],
    help: 'Readings requests the record sent to CityAir (the readings’ own are counted apart).',
  },
  storeQueries: {
    name: 'cityair_record_store_queries_total',
    type: 'counter',
    labels: [],
    help: 'Queries the record sent to the store’s query API.',
  },
  lastSuccess: {
    name: 'cityair_record_last_success_timestamp_seconds',
    type: 'gauge',
    labels: [],
    help: 'Unix time at which the last round of the record that queried and wrote the store without failure started.',
  },
  duration: {
    name: 'cityair_record_last_round_duration_seconds',
    type: 'gauge',
    labels: [],
    help: 'How long the last round of the record took.',
  },
} as const satisfies Record<string, MetricSpec>;

export interface RecordMetrics {
  readonly count: (round: RecordRoundResult, startedAtMs: number, seconds: number) => void;
  readonly storeQueries: (n: number) => void;
}

export function createRecordMetrics(registry: Registry): RecordMetrics {
  const M = RECORD_METRICS;
  const registers = [registry];
  const counter = (spec: MetricSpec): Counter =>
    new Counter({ name: spec.name, help: spec.help, labelNames: spec.labels, registers });
  const gauge = (spec: MetricSpec): Gauge =>
    new Gauge({ name: spec.name, help: spec.help, labelNames: spec.labels, registers });
  const rounds = counter(M.rounds);
  const failures = counter(M.failures);
  const gaps = gauge(M.gaps);
  const unfilled = gauge(M.unfilled);
  const rowsMissing = counter(M.rowsMissing);
  const rowsWritten = counter(M.rowsWritten);
  const requests = counter(M.upstreamRequests);
  const queries = counter(M.storeQueries);
  const lastSuccess = gauge(M.lastSuccess);
  const duration = gauge(M.duration);
  // Every label value from the start, so that rate() and alerts see 0 rather than nothing.
  for (const outcome of ['complete', 'partial', 'failed']) rounds.inc({ outcome }, 0);
  for (const reason of FAILURE_KINDS) failures.inc({ reason }, 0);
  for (const reason of UNFILLED_REASONS) unfilled.set({ reason }, 0);
  return {
    count: (round, startedAtMs, seconds) => {
      rounds.inc({ outcome: round.outcome });
      for (const reason of FAILURE_KINDS) if (round.failures[reason] !== undefined) failures.inc({ reason });
      gaps.set(round.gapsFound);
      for (const reason of UNFILLED_REASONS) unfilled.set({ reason }, round.unfilled[reason]);
      rowsMissing.inc(round.rowsMissing);
      rowsWritten.inc(round.rowsWritten);
      requests.inc(round.upstreamRequests);
      if (round.outcome !== 'failed') lastSuccess.set(startedAtMs / 1000);
      duration.set(seconds);
    },
    storeQueries: (n) => queries.inc(n),
  };
}
