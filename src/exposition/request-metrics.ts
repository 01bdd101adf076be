// The request metrics every collector owns for its own endpoint, kept in prom-client: every request, every failure
// by reason, and a histogram of durations. Each slice names its three in its metric table.
import { Counter, Histogram, type Registry } from 'prom-client';
import { FAILURE_REASONS, type FailureReason } from '../upstream/failure.js';
import { type MetricSpec, REQUEST_DURATION_BUCKETS } from './catalog.js';

export type RequestOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: FailureReason };

/** Once per request sent, with its outcome and how long it took (body and validation included). */
export type RecordRequest = (outcome: RequestOutcome, seconds: number) => void;

export function createRequestMetrics(
  registry: Registry,
  specs: {
    readonly requests: MetricSpec;
    readonly failures: MetricSpec;
    readonly requestDuration: MetricSpec;
  },
): RecordRequest {
  const registers = [registry];
  const requests = new Counter({ name: specs.requests.name, help: specs.requests.help, registers });
  const failures = new Counter({
    name: specs.failures.name,
    help: specs.failures.help,
    labelNames: specs.failures.labels,
    registers,
  });
  const duration = new Histogram({
    name: specs.requestDuration.name,
    help: specs.requestDuration.help,
    buckets: REQUEST_DURATION_BUCKETS,
    registers,
  });
  // Every reason exists from the start, so rate() and alerts see 0 rather than nothing.
  for (const reason of FAILURE_REASONS) failures.inc({ reason }, 0);
  return (outcome, seconds) => {
    requests.inc();
    if (!outcome.ok) failures.inc({ reason: outcome.reason });
    duration.observe(seconds);
  };
}
