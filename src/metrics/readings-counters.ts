// The readings requests as two prom-client counters, in the exporter's registry: every request, and every
// failure by reason. The readings families themselves are rendered as bytes (readings-text.ts).
import { Counter, type Registry } from 'prom-client';
import { FAILURE_REASONS, type Failure } from '../upstream/failure.js';
import { READING_METRICS as M } from './catalog.js';

export interface ReadingsCounters {
  /** Once per readings request sent, with its outcome. */
  readonly record: (outcome: { readonly ok: true } | Failure) => void;
}

/** Call only when the collector is on: with it off, no readings series exist at all. */
export function createReadingsCounters(registry: Registry): ReadingsCounters {
  const registers = [registry];
  const requests = new Counter({ name: M.requests.name, help: M.requests.help, registers });
  const failures = new Counter({
    name: M.failures.name,
    help: M.failures.help,
    labelNames: M.failures.labels,
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
