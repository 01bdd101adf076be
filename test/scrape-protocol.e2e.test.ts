// What Prometheus sees on the wire: format, compression and the scrape deadline, against the real exporter.
import { spawnSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { demoStations, syntheticStations } from '../src/demo/stations.js';
import type { ExporterProcess } from './support/exporter-process.js';
import { lines, sample } from './support/http.js';
import { PROMETHEUS_2_ACCEPT, PROMETHEUS_3_ACCEPT } from './support/prometheus-headers.js';
import { checkMetrics } from './support/promtool.js';
import { useUpstreamFixture } from './support/upstream-fixture.js';

const fixture = useUpstreamFixture('protocol-test-key-42');
const sim = () => fixture.sim();

async function exporter(...args: string[]): Promise<ExporterProcess> {
  const p = await fixture.exporter(...args);
  await p.waitForLog(
    (l) => l.msg === 'first refresh succeeded' || l.msg.startsWith('refresh of the station list failed'),
  );
  return p;
}

/** A raw scrape: headers as Prometheus sends them, body undecoded. */
async function rawScrape(url: string, headers: Record<string, string>) {
  const res = await request(`${url}/metrics`, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

const prometheusHeaders = (accept: string, timeout = '10') => ({
  accept,
  'accept-encoding': 'gzip',
  'x-prometheus-scrape-timeout-seconds': timeout,
  'user-agent': 'Prometheus/2.42.0',
});

describe('exposition format', () => {
  for (const [prometheus, accept] of [
    ['2.42', PROMETHEUS_2_ACCEPT],
    ['3.x', PROMETHEUS_3_ACCEPT],
  ] as const) {
    it(`answers Prometheus ${prometheus} with gzipped OpenMetrics 1.0.0 ending in # EOF`, async () => {
      const p = await exporter();
      const res = await rawScrape(p.url, prometheusHeaders(accept));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
      expect(res.headers['content-encoding']).toBe('gzip');
      const text = gunzipSync(res.body).toString('utf8');
      expect(text.endsWith('\n# EOF\n')).toBe(true);
      expect(text.match(/# EOF/g)).toHaveLength(1);
      expect(text).not.toMatch(/\n\n/);
      expect(text).toContain('# TYPE cityair_upstream_requests counter\n');
      expect(text).toContain('cityair_upstream_requests_total 1\n');
      expect(lines(text, 'cityair_station_online')).toHaveLength(40);
      expect(sample(text, 'cityair_up')).toBe(1);
    });
  }

  it('answers curl and browsers with text 0.0.4, plain unless gzip is accepted', async () => {
    const p = await exporter();
    const plain = await rawScrape(p.url, { accept: '*/*' });
    expect(plain.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept, Accept-Encoding');
    const text = plain.body.toString('utf8');
    expect(text).toContain('# TYPE cityair_upstream_requests_total counter');
    expect(text).not.toContain('# EOF');
    const gz = await rawScrape(p.url, { accept: '*/*', 'accept-encoding': 'gzip' });
    // One gzip stream holding both the cached station part and the per-scrape part, byte for byte.
    const unzipped = gunzipSync(gz.body).toString('utf8');
    expect(unzipped.replace(/^process_.*$|^nodejs_.*$|^cityair_upstream_request_duration.*$/gm, '')).toBe(
      text.replace(/^process_.*$|^nodejs_.*$|^cityair_upstream_request_duration.*$/gm, ''),
    );
  });

  it('serves a gzip body that curl --compressed reads to the end', async () => {
    if (spawnSync('sh', ['-c', 'command -v curl']).status !== 0) return;
    const p = await exporter();
    const curl = spawnSync('curl', ['-sf', '--compressed', `${p.url}/metrics`], { encoding: 'utf8' });
    expect(curl.status).toBe(0);
    expect(lines(curl.stdout, 'cityair_station_online')).toHaveLength(40);
    expect(curl.stdout).toContain('process_resident_memory_bytes');
    expect(curl.stdout).toContain('cityair_up 1');
  });

  it('passes promtool in both formats with 20,000 stations', async () => {
    sim().setPosts(syntheticStations(20_000));
    const p = await exporter();
    const text = await rawScrape(p.url, { accept: '*/*' });
    const om = await rawScrape(p.url, { accept: PROMETHEUS_2_ACCEPT });
    const textLint = checkMetrics(text.body.toString('utf8'));
    const omLint = checkMetrics(om.body.toString('utf8'));
    if (!textLint || !omLint) return;
    expect(textLint).toEqual({ code: 0, findings: '' });
    // promtool 2.42 reads OpenMetrics but reports every family as lacking HELP (a known false finding); it must
    // parse, and report nothing else.
    expect(omLint.code).not.toBe(1);
    const otherFindings = omLint.findings.split('\n').filter((l) => l && !/no help text/.test(l));
    expect(otherFindings).toEqual([]);
  });
});

describe('scrape deadline', () => {
  it('answers before Prometheus gives up, cityair_up unchanged by the refresh in flight, and keeps the late refresh for the next scrape', async () => {
    const p = await exporter('--upstream.min-interval=0s', '--upstream.timeout=5s', '--log.level=debug');
    sim().setFault({ kind: 'slow', delayMs: 2000 });
    sim().setPosts(demoStations().slice(0, 10));
    sim().resetCount();
    const t0 = Date.now();
    const first = await rawScrape(p.url, { 'x-prometheus-scrape-timeout-seconds': '1' });
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(400);
    expect(elapsed).toBeLessThan(1000);
    const text = first.body.toString('utf8');
    // The previous refresh succeeded; the slow one still running is not a failure of the API.
    expect(sample(text, 'cityair_up')).toBe(1);
    expect(sample(text, 'cityair_refresh_in_progress')).toBe(1);
    expect(lines(text, 'cityair_station_online')).toHaveLength(40);
    // A second scrape during the same refresh joins it instead of starting another.
    await rawScrape(p.url, { 'x-prometheus-scrape-timeout-seconds': '1' });
    await p.waitForLog((l) => l.msg === 'refreshed the station list', 5000);
    expect(sim().requestCount()).toBe(1);
    sim().setFault({ kind: 'none' });
    const later = (await rawScrape(p.url, { 'x-prometheus-scrape-timeout-seconds': '0.6' })).body.toString(
      'utf8',
    );
    expect(lines(later, 'cityair_station_online')).toHaveLength(10);
  });

  it('ignores a malformed timeout header and waits at most the upstream timeout', async () => {
    const p = await exporter('--upstream.min-interval=0s', '--upstream.timeout=700ms');
    sim().setFault({ kind: 'hang' });
    const t0 = Date.now();
    const res = await rawScrape(p.url, { 'x-prometheus-scrape-timeout-seconds': 'soon' });
    expect(res.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(600);
    expect(Date.now() - t0).toBeLessThan(1500);
  });
});
