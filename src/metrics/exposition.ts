// One scrape's body: the pre-rendered station part of the servable snapshot, then the exporter's own series.
import type { Registry } from 'prom-client';
import type { Snapshot } from '../refresh/policy.js';

export const TEXT_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export async function renderScrape(snapshot: Snapshot | undefined, registry: Registry): Promise<Buffer[]> {
  const own = Buffer.from(await registry.metrics(), 'utf8');
  return snapshot ? [snapshot.text, own] : [own];
}
