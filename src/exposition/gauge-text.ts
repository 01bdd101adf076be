// Small families written by hand in the text format from a catalog entry: per-scrape values read from collector
// state, which prom-client would otherwise have to pull through collect() callbacks.
import type { MetricSpec } from './catalog.js';
import { type ExpositionFormat, escapeHelp } from './escape.js';

/** A family's HELP and TYPE lines, the one place they are written: the live text and the backfill's file alike. */
export function familyHeader(spec: MetricSpec, format: ExpositionFormat = 'text'): string {
  return `# HELP ${spec.name} ${escapeHelp(spec.help, format)}\n# TYPE ${spec.name} ${spec.type}\n`;
}

/** A family of one unlabelled sample, printed as prom-client prints numbers. */
export function singleSample(spec: MetricSpec & { readonly labels: readonly [] }, value: number): string {
  return `${familyHeader(spec)}${spec.name} ${value}\n`;
}
