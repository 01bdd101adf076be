// The registry of everything prom-client keeps: the build info and Node's process metrics here, and the request
// counters and histograms each collector registers on it. Values that come from collector state (cityair_up, the
// refresh timestamps) are not here: the scrape reads the state once and writes them itself.
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { EXPORTER_METRICS as M } from './catalog.js';

export interface BuildInfo {
  readonly version: string;
  readonly revision: string;
  readonly nodeVersion: string;
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

export function createExporterRegistry(
  build: BuildInfo,
  options: { readonly processMetrics: boolean } = { processMetrics: true },
): Registry {
  const registry = new Registry();
  new Gauge({
    name: M.buildInfo.name,
    help: M.buildInfo.help,
    labelNames: M.buildInfo.labels,
    registers: [registry],
  }).set({ version: build.version, revision: build.revision, nodejs_version: build.nodeVersion }, 1);

  if (options.processMetrics) {
    collectDefaultMetrics({ register: registry });
    for (const name of LEFT_OUT_DEFAULTS) registry.removeSingleMetric(name);
  }
  return registry;
}
