import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { renderedPart } from '../../src/exposition/rendered-part.js';
import type { ScrapeSource } from '../../src/exposition/scrape.js';
import { metricsHandler } from '../../src/http/metrics-route.js';

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

/** A source with `cached` bytes, recording the wait each scrape allowed it. */
function source(cached: string) {
  const waits: number[] = [];
  const s: ScrapeSource = {
    beforeScrape: async (waitMs) => {
      waits.push(waitMs);
      return 'settled';
    },
    collect: () => ({ cached: renderedPart(Buffer.from(cached)), live: 'cityair_up 1\n' }),
  };
  return { source: s, waits };
}

function app(sources: readonly ScrapeSource[]) {
  const server = Fastify();
  apps.push(server);
  server.get(
    '/metrics',
    metricsHandler({ sources, registry: new Registry(), upstreamTimeoutMs: 8000, timeoutOffsetMs: 500 }),
  );
  return server;
}

const FAMILY = '# HELP cityair_stations Stations.\n# TYPE cityair_stations gauge\ncityair_stations 3\n';

describe('metricsHandler', () => {
  it('answers the text format by default, its parts in order', async () => {
    const { source: s } = source(FAMILY);
    const res = await app([s]).inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    expect(res.body.trimEnd()).toBe(`${FAMILY}cityair_up 1`);
  });

  it('answers OpenMetrics when asked, ending in # EOF', async () => {
    const { source: s } = source(FAMILY);
    const res = await app([s]).inject({
      url: '/metrics',
      headers: { accept: 'application/openmetrics-text; version=1.0.0' },
    });
    expect(res.headers['content-type']).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    expect(res.body.endsWith('# EOF\n')).toBe(true);
  });

  it('gzips for a client that accepts it', async () => {
    const { source: s } = source(FAMILY);
    const res = await app([s]).inject({ url: '/metrics', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString().trimEnd()).toBe(`${FAMILY}cityair_up 1`);
  });

  it('lets a refresh wait for Prometheus’ scrape timeout less the offset', async () => {
    const { source: s, waits } = source(FAMILY);
    await app([s]).inject({ url: '/metrics', headers: { 'x-prometheus-scrape-timeout-seconds': '3' } });
    await app([s]).inject({ url: '/metrics' });
    expect(waits).toEqual([2500, 8000]);
  });

  it('streams a large body with its length', async () => {
    const big = `${'cityair_x{id="1"} 1\n'.repeat(20_000)}`;
    const { source: s } = source(big);
    const res = await app([s]).inject({ url: '/metrics' });
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeGreaterThan(256 * 1024);
    expect(res.body.startsWith(big)).toBe(true);
  });
});
