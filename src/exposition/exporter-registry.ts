// The registry of everything prom-client keeps: the build info and Node's process metrics here, and the request
// counters and histograms each collector registers on it. Values that come from collector state (cityair_up, the
// refresh timestamps) are not here: the scrape reads the state once and writes them itself.
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { TIMER_LIMIT_MS } from '../runtime/timers.js';
import { EXPORTER_METRICS as M } from './catalog.js';
import { type DelaySummary, watchEventLoopDelay } from './event-loop-delay.js';

export interface BuildInfo {
  readonly version: string;
  readonly revision: string;
  readonly nodeVersion: string;
}

// Left out of prom-client's defaults. The three `_total` gauges fail `promtool check metrics` (the same values are
// exported without the suffix). nodejs_eventloop_lag_seconds is one event-loop turn at the moment of the scrape;
// the other seven are replaced by the same names from event-loop-delay.ts, which prom-client only sets in that
// metric's collect(), and at a cost to every scrape.
const LEFT_OUT_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
  'nodejs_eventloop_lag_seconds',
];

const EVENT_LOOP_DELAY: ReadonlyArray<readonly [keyof DelaySummary, string]> = [
  ['min', 'The minimum event loop delay since the previous scrape.'],
  ['max', 'The maximum event loop delay since the previous scrape.'],
  ['mean', 'The mean of the event loop delays since the previous scrape.'],
  ['stddev', 'The standard deviation of the event loop delays since the previous scrape.'],
  ['p50', 'The 50th percentile of the event loop delays since the previous scrape.'],
  ['p90', 'The 90th percentile of the event loop delays since the previous scrape.'],
  ['p99', 'The 99th percentile of the event loop delays since the previous scrape.'],
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
    // prom-client's own event-loop sampler is not read (see above): at this resolution it never wakes.
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: TIMER_LIMIT_MS });
    for (const name of LEFT_OUT_DEFAULTS) registry.removeSingleMetric(name);
    registerEventLoopDelay(registry);
  }
  return registry;
}

/** The seven gauges in prom-client's names; the first one's collect() sets all of them, as prom-client does. */
function registerEventLoopDelay(registry: Registry): void {
  const take = watchEventLoopDelay();
  const gauges: { readonly stat: keyof DelaySummary; readonly gauge: Gauge }[] = [];
  const setAll = (): void => {
    const summary = take();
    for (const { stat, gauge } of gauges) gauge.set(summary[stat]);
  };
  for (const [i, [stat, help]] of EVENT_LOOP_DELAY.entries()) {
    const name = `nodejs_eventloop_lag_${stat}_seconds`;
    registry.removeSingleMetric(name);
    const collect = i === 0 ? { collect: setAll } : {};
    gauges.push({ stat, gauge: new Gauge({ name, help, registers: [registry], ...collect }) });
  }
}
