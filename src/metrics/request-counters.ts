// A pair of prom-client counters for requests to the API: every request, and every failure by reason. The
// station list and the readings each have a pair, named in the catalog.
import { Counter, type Registry } from 'prom-client';
import { FAILURE_REASONS, type FailureReason } from '../upstream/failure.js';
import type { MetricSpec } from './catalog.js';

export type RequestOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: FailureReason };

export interface RequestCounters {
  /** Once per request sent, with its outcome. */
  readonly record: (outcome: RequestOutcome) => void;
}

export function createRequestCounters(
  registry: Registry,
  specs: { readonly requests: MetricSpec; readonly failures: MetricSpec },
): RequestCounters {
  const registers = [registry];
  const requests = new Counter({ name: specs.requests.name, help: specs.requests.help, registers });
  const failures = new Counter({
    name: specs.failures.name,
    help: specs.failures.help,
    labelNames: specs.failures.labels,
    registers,
  });
  // Every reason exists from the start, so rate() and alerts see 0 rather than nothing.
  for (const reason of FAILURE_REASONS) failures.inc({ reason }, 0);
  return {
    record: (outcome) => {
      requests.inc();
      if (!outcome.ok) failures.inc({ reason: outcome.reason });
    },
  };
}
