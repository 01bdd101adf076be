// Small families written by hand in the text format from a catalog entry: per-scrape values read from collector
// state, which prom-client would otherwise have to pull through collect() callbacks.
import type { MetricSpec } from './catalog.js';
import { escapeHelp } from './escape.js';

export function familyHeader(spec: MetricSpec): string {
  return `# HELP ${spec.name} ${escapeHelp(spec.help)}\n# TYPE ${spec.name} ${spec.type}\n`;
}

/** A family of one unlabelled sample, printed as prom-client prints numbers. */
export function singleSample(spec: MetricSpec & { readonly labels: readonly [] }, value: number): string {
  return `${familyHeader(spec)}${spec.name} ${value}\n`;
}
