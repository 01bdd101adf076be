// The exporter's own series, kept in prom-client: a handful of families whose values come from the refresh
// state at collection time, plus request counters and Node's process metrics. cityair_up is not here: its value
// depends on the scrape (see exposition.ts).
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RefreshState } from '../refresh/policy.js';
import type { FetchOutcome } from '../upstream/client.js';
import { FAILURE_REASONS } from '../upstream/failure.js';
import { EXPORTER_METRICS as M, REQUEST_DURATION_BUCKETS } from './catalog.js';

export interface BuildInfo {
  readonly version: string;
  readonly revision: string;
}

export interface ExporterMetrics {
  readonly registry: Registry;
  readonly recordAttempt: (outcome: FetchOutcome, seconds: number) => void;
}

// Left out of prom-client's defaults. The three `_total` gauges fail `promtool check metrics` (the same values are
// exported without the suffix). nodejs_eventloop_lag_seconds waits for an event-loop turn on every collection,
// about 1 ms of every scrape; the nodejs_eventloop_lag_{min,max,mean,p50,p90,p99}_seconds family says more for free.
const LEFT_OUT_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
  'nodejs_eventloop_lag_seconds',
];

export function createExporterMetrics(build: BuildInfo, state: () => RefreshState): ExporterMetrics {
  const registry = new Registry();
  const registers = [registry];
  const gauge = (
    spec: typeof M.lastSuccess | typeof M.lastDuration | typeof M.backoffUntil,
    value: (s: RefreshState) => number,
  ) =>
    new Gauge({
      name: spec.name,
      help: spec.help,
      registers,
      collect() {
        this.set(value(state()));
      },
    });

  gauge(M.lastSuccess, (s) => (s.snapshot ? s.snapshot.fetchedAtMs / 1000 : 0));
  gauge(M.lastDuration, (s) => (s.lastAttempt ? s.lastAttempt.durationMs / 1000 : 0));
  gauge(M.backoffUntil, (s) => s.notBeforeMs / 1000);

  const requests = new Counter({ name: M.requests.name, help: M.requests.help, registers });
  const failures = new Counter({
    name: M.failures.name,
    help: M.failures.help,
    labelNames: M.failures.labels,
    registers,
  });
  // Every reason exists from the start, so rate() and alerts see 0 rather than nothing.
  for (const reason of FAILURE_REASONS) failures.inc({ reason }, 0);
  const duration = new Histogram({
    name: M.requestDuration.name,
    help: M.requestDuration.help,
    buckets: REQUEST_DURATION_BUCKETS,
    registers,
  });
  new Gauge({
    name: M.buildInfo.name,
    help: M.buildInfo.help,
    labelNames: M.buildInfo.labels,
    registers,
  }).set({ version: build.version, revision: build.revision, nodejs_version: process.version }, 1);

  collectDefaultMetrics({ register: registry });
  for (const name of LEFT_OUT_DEFAULTS) registry.removeSingleMetric(name);

  return {
    registry,
    recordAttempt: (outcome, seconds) => {
      requests.inc();
      duration.observe(seconds);
      if (!outcome.ok) failures.inc({ reason: outcome.reason });
    },
  };
}
