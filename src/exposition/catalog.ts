// The shape of a metric's entry in a slice's table (name, type, labels, help), and the exporter's own families.
// Each slice declares its metrics in one table of its own (stations/metrics.ts, readings/metrics.ts).

export interface MetricSpec {
  readonly name: string;
  readonly type: 'gauge' | 'counter' | 'histogram';
  readonly labels: readonly string[];
  readonly help: string;
}

export const EXPORTER_METRICS = {
  buildInfo: {
    name: 'cityair_exporter_build_info',
    type: 'gauge',
    labels: ['version', 'revision', 'nodejs_version'],
    help: 'Build of the running cityair-exporter, always 1.',
  },
} as const satisfies Record<string, MetricSpec>;

export const REQUEST_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
