// The exporter as users run it (node dist/main.js) against the simulator over loopback.
import { afterEach, describe, expect, it } from 'vitest';
import { demoStations, syntheticStations } from '../src/demo/stations.js';
import { type ExporterProcess, startExporterProcess } from './support/exporter-process.js';
import { eventually, get, lines, sample } from './support/http.js';
import { checkMetrics } from './support/promtool.js';
import { useUpstreamFixture } from './support/upstream-fixture.js';

const KEY = 'e2e-secret-key-5d1c8b';
const fixture = useUpstreamFixture(KEY);
const sim = () => fixture.sim();
const exporter = fixture.exporter;
const running: ExporterProcess[] = [];

const scrape = async (p: ExporterProcess) => (await get(`${p.url}/metrics`)).text;

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});

describe('metrics', () => {
  it('serves every documented family, and promtool finds nothing to lint', async () => {
    const p = await exporter('--upstream.min-interval=0s');
    const res = await get(`${p.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = res.text;
    for (const family of [
      'cityair_station_online',
      'cityair_station_info',
      'cityair_station_latitude_degrees',
      'cityair_station_longitude_degrees',
      'cityair_station_utc_offset_seconds',
      'cityair_stations',
      'cityair_stations_rejected',
      'cityair_up',
      'cityair_last_refresh_success_timestamp_seconds',
      'cityair_last_refresh_duration_seconds',
      'cityair_upstream_requests_total',
      'cityair_upstream_request_failures_total',
      'cityair_upstream_request_duration_seconds',
      'cityair_exporter_build_info',
      'process_resident_memory_bytes',
    ]) {
      expect(text, family).toContain(`# TYPE ${family} `);
    }
    expect(lines(text, 'cityair_station_online')).toHaveLength(40);
    expect(sample(text, 'cityair_up')).toBe(1);
    expect(sample(text, 'cityair_stations{state="online"}')).toBe(35);
    expect(sample(text, 'cityair_stations{state="offline"}')).toBe(5);
    expect(text).toMatch(
      /^cityair_station_info\{id="1000",name="Москва, ул\. Ленина, 12",description="Пост №1; школа \\\\ двор",tz="Europe\/Moscow"\} 1$/m,
    );
    expect(text).toContain('cityair_station_utc_offset_seconds{id="1136"} -12600');
    expect(text).toMatch(
      /cityair_exporter_build_info\{version="0\.1\.0",revision="[^"]+",nodejs_version="v\d+/,
    );
    // Every reason exists from the start.
    for (const reason of [
      'auth',
      'rate_limited',
      'http_4xx',
      'http_5xx',
      'timeout',
      'network',
      'invalid_json',
      'invalid_payload',
    ]) {
      expect(sample(text, `cityair_upstream_request_failures_total{reason="${reason}"}`)).toBe(0);
    }
    // No sample carries a timestamp: every sample line is exactly `series value`.
    for (const l of text.split('\n').filter((x) => x && !x.startsWith('#'))) {
      expect(l, l).toMatch(
        /^[a-z_:][a-z0-9_:]*(\{.*\})? [-+0-9.eE]+$|^[a-z_:][a-z0-9_:]*(\{.*\})? (NaN|[+-]Inf)$/i,
      );
    }
    // Left out of prom-client's defaults: lint failures and a collector that costs each scrape a loop turn.
    for (const dropped of ['nodejs_active_handles_total', 'nodejs_eventloop_lag_seconds']) {
      expect(text).not.toContain(`# TYPE ${dropped} `);
    }
    expect(text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    const lint = checkMetrics(text);
    if (lint) expect(lint).toEqual({ code: 0, findings: '' });
  });

  it('escapes label values of any Unicode, turns control characters into spaces, and prints big ids in full', async () => {
    sim().setPosts([
      {
        id: 1000000,
        name: 'ЖК "Северный" \\ корп. 2\nвход',
        description: 'emoji 🌫️ and\ttab',
        isOnline: true,
        geo: null,
      },
      { id: 9007199254740991, name: 'max id', isOnline: false },
    ]);
    const p = await exporter('--upstream.min-interval=0s');
    const text = await scrape(p);
    expect(text).toContain(
      'cityair_station_online{id="1000000",name="ЖК \\"Северный\\" \\\\ корп. 2 вход",tz=""} 1',
    );
    expect(text).toContain('description="emoji 🌫️ and tab"');
    expect(text).toContain('id="9007199254740991"');
    expect(text).not.toContain('1e+');
    // Stations without geo have no geo series.
    expect(lines(text, 'cityair_station_latitude_degrees')).toHaveLength(0);
    const lint = checkMetrics(text);
    if (lint) expect(lint).toEqual({ code: 0, findings: '' });
  });

  it('drops a station that leaves the list and leaves nothing behind a rename', async () => {
    const p = await exporter('--upstream.min-interval=0s');
    expect(await scrape(p)).toContain('id="1017"');
    const posts = demoStations().filter((s) => s.id !== 1017);
    const renamed = posts.map((s) => (s.id === 1000 ? { ...s, name: 'Renamed station' } : s));
    sim().setPosts(renamed);
    const text = await scrape(p);
    expect(text).not.toContain('id="1017"');
    expect(lines(text, 'cityair_station_online').filter((l) => l.includes('id="1000"'))).toEqual([
      'cityair_station_online{id="1000",name="Renamed station",tz="Europe/Moscow"} 1',
    ]);
    expect(lines(text, 'cityair_station_info').filter((l) => l.includes('id="1000"'))).toHaveLength(1);
  });

  it('exports the valid stations of a list with invalid and duplicate elements, and counts the rest', async () => {
    const [a, b] = demoStations();
    sim().setPosts([a, { ...a, name: 'dup' }, { id: 'x' }, b, { id: 5, name: 'no state' }]);
    const p = await exporter('--upstream.min-interval=0s');
    const text = await scrape(p);
    expect(lines(text, 'cityair_station_online')).toHaveLength(2);
    expect(sample(text, 'cityair_stations_rejected{reason="invalid"}')).toBe(2);
    expect(sample(text, 'cityair_stations_rejected{reason="duplicate"}')).toBe(1);
    const warn = await p.waitForLog((l) => l.msg === 'upstream sent stations that were dropped');
    expect(warn.rejected_invalid).toBe(2);
  });

  it('treats [] as zero stations with both counts present', async () => {
    sim().setPosts([]);
    const p = await exporter('--upstream.min-interval=0s');
    const text = await scrape(p);
    expect(sample(text, 'cityair_up')).toBe(1);
    expect(sample(text, 'cityair_stations{state="online"}')).toBe(0);
    expect(sample(text, 'cityair_stations{state="offline"}')).toBe(0);
  });
});

describe('when the upstream fails', () => {
  it('keeps serving the last good data with cityair_up 0, and counts the failure by reason', async () => {
    const p = await exporter('--upstream.min-interval=0s');
    expect(sample(await scrape(p), 'cityair_up')).toBe(1);
    sim().setFault({ kind: 'status', status: 502 });
    const text = await scrape(p);
    expect(sample(text, 'cityair_up')).toBe(0);
    expect(lines(text, 'cityair_station_online')).toHaveLength(40);
    expect(sample(text, 'cityair_upstream_request_failures_total{reason="http_5xx"}')).toBe(1);
    const log = await p.waitForLog((l) => l.msg.startsWith('refresh of the station list failed'));
    expect(log.reason).toBe('http_5xx');
    expect(log.level).toBe('warn');
  });

  it('serves no station series once the data is older than max-age, but still answers 200', async () => {
    const p = await exporter('--upstream.min-interval=0s', '--upstream.max-age=1s');
    await p.waitForLog((l) => l.msg === 'first refresh succeeded');
    expect((await get(`${p.url}/readyz`)).status).toBe(200);
    sim().setFault({ kind: 'status', status: 500 });
    const text = await eventually(async () => {
      const t = await scrape(p);
      return lines(t, 'cityair_station_online').length === 0 ? t : undefined;
    }, 8000);
    for (const family of ['cityair_station_info', 'cityair_stations', 'cityair_stations_rejected']) {
      expect(text).not.toContain(`# TYPE ${family} `);
    }
    expect(sample(text, 'cityair_up')).toBe(0);
    expect(sample(text, 'cityair_last_refresh_success_timestamp_seconds')).toBeGreaterThan(0);
    expect((await get(`${p.url}/readyz`)).status).toBe(503);
  });

  it('sends no request before Retry-After is over', async () => {
    const p = await exporter('--upstream.min-interval=0s');
    await scrape(p);
    sim().setFault({ kind: 'status', status: 429, retryAfter: '3600' });
    await scrape(p);
    sim().setFault({ kind: 'none' });
    sim().resetCount();
    for (let i = 0; i < 5; i++) {
      const text = await scrape(p);
      expect(sample(text, 'cityair_up')).toBe(0);
      expect(lines(text, 'cityair_station_online')).toHaveLength(40);
    }
    expect(sim().requestCount()).toBe(0);
    const until = sample(await scrape(p), 'cityair_upstream_backoff_until_timestamp_seconds') ?? 0;
    expect(until - Date.now() / 1000).toBeGreaterThan(3500);
  });

  it('answers a scrape within the upstream timeout when the API hangs', async () => {
    const p = await exporter('--upstream.min-interval=0s', '--upstream.timeout=500ms');
    await scrape(p);
    sim().setFault({ kind: 'hang' });
    const t0 = Date.now();
    const text = await scrape(p);
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(lines(text, 'cityair_station_online')).toHaveLength(40);
  });

  it('reports an upstream that is down from the first scrape on', async () => {
    const p = await startExporterProcess({
      args: ['--upstream.url=http://127.0.0.1:1', '--upstream.min-interval=0s'],
      env: { CITYAIR_API_KEY: KEY },
    });
    running.push(p);
    const text = await eventually(async () => {
      const t = await scrape(p);
      return (sample(t, 'cityair_upstream_request_failures_total{reason="network"}') ?? 0) >= 1
        ? t
        : undefined;
    });
    expect(sample(text, 'cityair_up')).toBe(0);
    expect(sample(text, 'cityair_last_refresh_success_timestamp_seconds')).toBe(0);
    expect(text).not.toContain('cityair_stations{');
    expect((await get(`${p.url}/readyz`)).status).toBe(503);
  });
});

describe('when data is fetched', () => {
  it('shares one upstream request among concurrent scrapes and reuses it within min-interval', async () => {
    sim().setFault({ kind: 'slow', delayMs: 300 });
    const p = await exporter('--upstream.min-interval=1m');
    await p.waitForLog((l) => l.msg === 'first refresh succeeded');
    expect(sim().requestCount()).toBe(1);
    sim().resetCount();
    const texts = await Promise.all(Array.from({ length: 20 }, () => scrape(p)));
    expect(texts.every((t) => lines(t, 'cityair_station_online').length === 40)).toBe(true);
    expect(sim().requestCount()).toBe(0);
  });

  it('refreshes on demand when the data is older than min-interval, once for many concurrent scrapes', async () => {
    const p = await exporter('--upstream.min-interval=0s');
    await p.waitForLog((l) => l.msg === 'first refresh succeeded');
    sim().setFault({ kind: 'slow', delayMs: 300 });
    sim().resetCount();
    const texts = await Promise.all(Array.from({ length: 100 }, () => scrape(p)));
    expect(sim().requestCount()).toBe(1);
    expect(texts.filter((t) => lines(t, 'cityair_station_online').length === 40)).toHaveLength(100);
  });

  it('refreshes in the background and answers scrapes from memory', async () => {
    const p = await exporter('--upstream.refresh-interval=300ms', '--upstream.min-interval=0s');
    await eventually(async () => (sim().requestCount() >= 3 ? true : undefined), 5000);
    sim().setFault({ kind: 'hang' });
    const t0 = Date.now();
    const text = await scrape(p);
    expect(Date.now() - t0).toBeLessThan(300);
    expect(lines(text, 'cityair_station_online')).toHaveLength(40);
    const listening = p.logs().find((l) => l.msg === 'cityair-exporter listening');
    expect(listening?.mode).toBe('background');
  });

  it('handles a list of 20,000 stations', async () => {
    sim().setPosts(syntheticStations(20_000));
    const p = await exporter('--upstream.min-interval=0s');
    const text = await scrape(p);
    expect(lines(text, 'cityair_station_online')).toHaveLength(20_000);
    expect(text).toContain('id="1019999"');
  });
});
