// One scrape's body: the station part pre-rendered for the servable snapshot, then the per-scrape part (cityair_up
// and prom-client's exporter series), in the negotiated format, gzipped when the client accepts it.
import type { Registry } from 'prom-client';
import type { Snapshot } from '../refresh/policy.js';
import { EXPORTER_METRICS } from './catalog.js';
import { gzipSplice } from './gzip-splice.js';
import type { Format } from './negotiation.js';
import { textToOpenMetrics } from './openmetrics.js';

export interface ScrapeInput {
  readonly snapshot: Snapshot | undefined;
  readonly registry: Registry;
  readonly format: Format;
  readonly gzip: boolean;
  /** cityair_up of this scrape: the latest refresh succeeded and none this scrape waited for is still running. */
  readonly up: boolean;
}

const UP = EXPORTER_METRICS.up;

export async function renderScrape(input: ScrapeInput): Promise<Buffer[]> {
  const up = `# HELP ${UP.name} ${UP.help}\n# TYPE ${UP.name} gauge\n${UP.name} ${input.up ? 1 : 0}\n`;
  const own = `${up}${await input.registry.metrics()}`;
  const tail = Buffer.from(input.format === 'openmetrics' ? `${textToOpenMetrics(own)}# EOF\n` : own, 'utf8');
  const snapshot = input.snapshot;
  if (!input.gzip) return snapshot ? [snapshot.text, tail] : [tail];
  return gzipSplice(snapshot ? await snapshot.deflated() : undefined, tail);
}
