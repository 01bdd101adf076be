// The exporter's own counters and histogram, its build info and Node's process metrics, kept in prom-client.
// Values that come from collector state (cityair_up, the refresh timestamps) are not here: the scrape reads the
// state once and writes them itself (station-source.ts).
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { EXPORTER_METRICS as M, REQUEST_DURATION_BUCKETS } from './catalog.js';
import { createRequestCounters, type RequestOutcome } from './request-counters.js';

export interface BuildInfo {
  readonly version: string;
  readonly revision: string;
  readonly nodeVersion: string;
}

export interface ExporterMetrics {
  readonly registry: Registry;
  /** One request to the station list: counted, timed, and its failure reason if any. */
  readonly recordStationRequest: (outcome: RequestOutcome, seconds: number) => void;
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

export function createExporterMetrics(
  build: BuildInfo,
  options: { readonly processMetrics: boolean } = { processMetrics: true },
): ExporterMetrics {
  const registry = new Registry();
  const registers = [registry];
  const counters = createRequestCounters(registry, M);
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
  }).set({ version: build.version, revision: build.revision, nodejs_version: build.nodeVersion }, 1);

  if (options.processMetrics) {
    collectDefaultMetrics({ register: registry });
    for (const name of LEFT_OUT_DEFAULTS) registry.removeSingleMetric(name);
  }

  return {
    registry,
    recordStationRequest: (outcome, seconds) => {
      counters.record(outcome);
      duration.observe(seconds);
    },
  };
}
