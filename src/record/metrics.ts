// The record's metrics (metric-table.ts), kept in prom-client on the exporter's registry: what the rounds found,
// filled and could not, how they ended, and the store's and CityAir's share of the work.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { MetricSpec } from '../exposition/catalog.js';
import { RECORD_METRICS } from './metric-table.js';
import { FAILURE_KINDS, type RecordRoundResult, UNFILLED_REASONS } from './round.js';

export { RECORD_METRICS } from './metric-table.js';

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
