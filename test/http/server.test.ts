// The HTTP server in process, through fastify's inject(), with a fake station collector: negotiation, gzip,
// headers, the scrape deadline handed to the collector, the status page, readiness and 404s.
import { queryObjects } from 'node:v8';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { demoStations, syntheticStations } from '../../src/demo/stations.js';
import { createRequestMetrics } from '../../src/exposition/request-metrics.js';
import { afterSuccess, initialState } from '../../src/refresh/policy.js';
import type { RefreshWait } from '../../src/refresh/refresher.js';
import {
  type StationRefresher,
  type StationState,
  stationsCollectorOf,
} from '../../src/stations/collector.js';
import { STATION_LIST_HEALTH } from '../../src/stations/metrics.js';
import { parseStationList, type StationList } from '../../src/stations/schema.js';
import { lines, sample } from '../support/http.js';
import { inProcessServer } from '../support/in-process.js';
import { PROMETHEUS_2_ACCEPT, PROMETHEUS_3_ACCEPT } from '../support/prometheus-headers.js';

const list = (posts: readonly unknown[]): StationList => {
  const parsed = parseStationList(posts);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};

interface Fake {
  state: StationState;
  wait: RefreshWait;
  readonly waits: number[];
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

function serve(fake: Partial<Fake> = {}, argv: string[] = []) {
  const f: Fake = { state: initialState<StationList>(), wait: 'settled', waits: [], ...fake };
  const refresher: StationRefresher = {
    state: () => f.state,
    refreshIfDue: async (waitMs) => {
      f.waits.push(waitMs);
      return f.wait;
    },
    inFlight: () => f.wait === 'still-running',
    start: () => undefined,
    stop: async () => undefined,
    firstData: Promise.resolve(),
  };
  const { app } = inProcessServer({
    argv,
    collectors: (config, registry) => {
      // What createStationsCollector registers around a real read.
      createRequestMetrics(registry, STATION_LIST_HEALTH);
      return { stations: stationsCollectorOf(refresher, config.upstream.maxAgeMs) };
    },
  });
  apps.push(app);
  return { app, f };
}

const withData = (posts: readonly unknown[] = demoStations(), atMs = Date.now()) =>
  afterSuccess({ data: list(posts), fetchedAtMs: atMs }, 100);

describe('/metrics', () => {
  it.each([
    ['Prometheus 2.42', PROMETHEUS_2_ACCEPT],
    ['Prometheus 3', PROMETHEUS_3_ACCEPT],
  ])('answers %s with gzipped OpenMetrics ending in one # EOF', async (_, accept) => {
    const { app } = serve({ state: withData() });
    const res = await app.inject({ url: '/metrics', headers: { accept, 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    const text = gunzipSync(res.rawPayload).toString('utf8');
    expect(text.endsWith('\n# EOF\n')).toBe(true);
    expect(text.match(/# EOF/g)).toHaveLength(1);
    expect(text).not.toMatch(/\n\n/);
    expect(text).toContain('# TYPE cityair_upstream_requests counter\n');
    expect(lines(text, 'cityair_station_online')).toHaveLength(40);
  });

  it.each([
    ['no Accept', {}],
    ['a browser', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }],
    ['an unknown type', { accept: 'application/x-nonsense' }],
  ])('answers %s with plain text 0.0.4', async (_, headers: Record<string, string>) => {
    const { app } = serve({ state: withData() });
    const res = await app.inject({ url: '/metrics', headers });
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).not.toContain('# EOF');
    expect(sample(res.body, 'cityair_up')).toBe(1);
  });

  it('streams a large body with its exact Content-Length, the same bytes as gzip decodes to', async () => {
    const { app } = serve({ state: withData(syntheticStations(3000)) });
    const plain = await app.inject({ url: '/metrics' });
    expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length);
    expect(plain.rawPayload.length).toBeGreaterThan(256 * 1024);
    const zipped = await app.inject({ url: '/metrics', headers: { 'accept-encoding': 'gzip' } });
    // Process metrics move between two scrapes: compare everything before them.
    const stationPart = (b: Buffer) => b.toString('utf8').split('# HELP cityair_up ')[0];
    expect(stationPart(gunzipSync(zipped.rawPayload))).toBe(stationPart(plain.rawPayload));
  });

  it.each([
    ['10', [], 8000],
    ['3', [], 2500],
    ['3', ['--web.timeout-offset=1s'], 2000],
    ['0.2', [], 0],
    ['soon', [], 8000],
    ['-5', [], 8000],
  ])('hands the collector the deadline of a scrape timeout of %s s (%j)', async (timeout, argv, expected) => {
    const { app, f } = serve({ state: withData() }, argv);
    await app.inject({ url: '/metrics', headers: { 'x-prometheus-scrape-timeout-seconds': timeout } });
    expect(f.waits).toEqual([expected]);
  });

  it('keeps cityair_up at the last completed refresh when the scrape stops waiting, and says a refresh runs', async () => {
    const { app } = serve({ state: withData(), wait: 'still-running' });
    const res = await app.inject({ url: '/metrics' });
    expect(sample(res.body, 'cityair_up')).toBe(1);
    expect(sample(res.body, 'cityair_refresh_in_progress')).toBe(1);
    expect(lines(res.body, 'cityair_station_online')).toHaveLength(40);
  });

  // An exporter answers scrapes for months: whatever a scrape leaves behind while the server stays open adds up.
  // Each scrape once hung three promises on the server's never-settled "closing" promise, about 0.9 MiB of heap
  // per 1,000 scrapes (docs/benchmarks.md). queryObjects counts after a full collection.
  it('keeps nothing of a scrape once it has answered, however many scrapes the server has served', async () => {
    const { app } = serve({ state: withData() });
    // Over a real socket: inject() itself keeps each of its answers alive (light-my-request), which hides the count.
    const url = `${await app.listen({ host: '127.0.0.1', port: 0 })}/metrics`;
    const scrapes = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const res = await request(url);
        await res.body.dump();
        expect(res.statusCode).toBe(200);
      }
    };
    await scrapes(50);
    const before = queryObjects(Promise, { format: 'count' });
    await scrapes(500);
    expect(queryObjects(Promise, { format: 'count' }) - before).toBeLessThan(100);
  });

  it('serves the telemetry path it is configured with, and 404 on the old one', async () => {
    const { app } = serve({ state: withData() }, ['--web.telemetry-path=/probe/cityair']);
    expect((await app.inject({ url: '/probe/cityair' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });
});

describe('other routes', () => {
  it('serves a status page that links to the metrics and prints station names as text', async () => {
    const hostile = [{ id: 1, name: '<script>alert(1)</script>', isOnline: false }];
    const { app } = serve({ state: withData(hostile) });
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('href="/metrics"');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script>alert');
  });

  it('is healthy always, and ready only while data may be served', async () => {
    const { app, f } = serve();
    expect((await app.inject({ url: '/healthz' })).body).toBe('ok\n');
    const none = await app.inject({ url: '/readyz' });
    expect([none.statusCode, none.body]).toEqual([
      503,
      'not ready: no successful refresh of the station list yet\n',
    ]);
    f.state = withData();
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    f.state = withData(demoStations(), Date.now() - 11 * 60_000);
    const old = await app.inject({ url: '/readyz' });
    expect([old.statusCode, old.body]).toEqual([
      503,
      'not ready: the station list is older than its max-age\n',
    ]);
  });

  it.each([
    ['GET', '/nope'],
    ['POST', '/metrics'],
    ['GET', '/metrics/'],
  ] as const)('answers %s %s with a plain 404', async (method, url) => {
    const { app } = serve({ state: withData() });
    const res = await app.inject({ method, url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('not found\n');
  });
});
