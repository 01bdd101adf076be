// The API key must not leave the process except in the Authorization header to the API: not in a log line, a
// response body or header, or a metric, whatever the upstream does.
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStations } from '../src/demo/stations.js';
import { type ExporterProcess, startExporterProcess } from './support/exporter-process.js';
import { eventually, sample } from './support/http.js';
import { PROMETHEUS_2_ACCEPT } from './support/prometheus-headers.js';
import type { Fault } from './support/simulator.js';
import { type Simulator, startSimulator } from './support/simulator.js';

const KEY = 'sk-LEAKCANARY-8f2e61d0c4b9a7';
const seen: string[] = [];

interface Pair {
  readonly sim: Simulator;
  readonly exporter: ExporterProcess;
}

async function fetchAll(pair: Pair, path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await request(`${pair.exporter.url}${path}`, { headers });
  const body = Buffer.from(await res.body.arrayBuffer()).toString('latin1');
  const text = `${res.statusCode} ${JSON.stringify(res.headers)}\n${body}`;
  seen.push(text);
  return text;
}

async function visitEverything(pair: Pair): Promise<string> {
  const metrics = await fetchAll(pair, '/metrics');
  await fetchAll(pair, '/metrics', { accept: PROMETHEUS_2_ACCEPT });
  await fetchAll(pair, '/');
  await fetchAll(pair, '/readyz');
  await fetchAll(pair, '/healthz');
  await fetchAll(pair, '/nope?x=1');
  return metrics;
}

async function startPair(): Promise<Pair> {
  const sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
  const exporter = await startExporterProcess({
    args: [
      `--upstream.url=${sim.baseUrl}`,
      '--upstream.min-interval=0s',
      '--upstream.timeout=400ms',
      '--upstream.max-body-size=1MiB',
      '--log.level=debug',
    ],
    env: { CITYAIR_API_KEY: KEY },
  });
  await exporter.waitForLog((l) => l.msg === 'first refresh succeeded');
  return { sim, exporter };
}

/** Each fault once, recovering in between so the next is tried at once rather than after a growing backoff. */
async function runFaults(pair: Pair, faults: ReadonlyArray<readonly [string, Fault]>): Promise<void> {
  for (const [name, fault] of faults) {
    pair.sim.setFault(fault);
    const before = sample(await fetchAll(pair, '/metrics'), 'cityair_upstream_requests_total') ?? 0;
    const metrics = await eventually(async () => {
      const t = await visitEverything(pair);
      return (sample(t, 'cityair_upstream_requests_total') ?? 0) > before ? t : undefined;
    });
    expect(sample(metrics, 'cityair_up'), name).toBe(0);
    pair.sim.setFault({ kind: 'none' });
    await eventually(async () =>
      sample(await fetchAll(pair, '/metrics'), 'cityair_up') === 1 ? true : undefined,
    );
  }
}

const FAULTS: ReadonlyArray<readonly [string, Fault]> = [
  ['401 echoing the key', { kind: 'status', status: 401, body: `{"error":"invalid token ${KEY}"}` }],
  ['403', { kind: 'status', status: 403 }],
  ['429 with Retry-After', { kind: 'status', status: 429, retryAfter: '1', body: `slow down ${KEY}` }],
  ['400 echoing the header', { kind: 'status', status: 400, body: `Authorization: Bearer ${KEY}` }],
  ['500', { kind: 'status', status: 500, body: `<pre>Traceback: token=${KEY}</pre>` }],
  ['503 with Retry-After', { kind: 'status', status: 503, retryAfter: '1' }],
  ['redirect', { kind: 'status', status: 302, body: `moved ${KEY}` }],
  ['slow beyond the timeout', { kind: 'slow', delayMs: 2000 }],
  ['stalled body', { kind: 'stall-body' }],
  ['hang', { kind: 'hang' }],
  ['connection reset', { kind: 'reset' }],
  ['invalid JSON echoing the key', { kind: 'body', body: `{"token":"${KEY}", oops` }],
  ['HTML page', { kind: 'body', body: `<html>${KEY}</html>`, contentType: 'text/html' }],
  ['wrong shape', { kind: 'body', body: JSON.stringify({ key: KEY }) }],
  ['array of invalid elements', { kind: 'body', body: JSON.stringify([{ id: KEY }, { name: KEY }]) }],
  ['huge body', { kind: 'huge', bytes: 3 * 1024 * 1024 }],
  [
    'gzip bomb',
    { kind: 'body', body: gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)), contentEncoding: 'gzip' },
  ],
  ['bad gzip', { kind: 'body', body: Buffer.from(`not gzip ${KEY}`), contentEncoding: 'gzip' }],
];

const PAIRS = 3;
let pairs: Pair[] = [];
let pair: Pair;

beforeAll(async () => {
  pairs = await Promise.all(Array.from({ length: PAIRS }, startPair));
  pair = pairs[0] as Pair;
});
afterAll(async () => {
  await Promise.all(
    pairs.map(async (p) => {
      await p.exporter.stop();
      await p.sim.close();
    }),
  );
});

describe('the API key never leaks', () => {
  it('through any failure kind of the upstream, in logs, responses or metrics', async () => {
    await Promise.all(
      pairs.map((p, i) =>
        runFaults(
          p,
          FAULTS.filter((_, j) => j % PAIRS === i),
        ),
      ),
    );
    const output = pairs.map((p) => p.exporter.output()).join('');
    const failureLogs = pairs
      .flatMap((p) => p.exporter.logs())
      .filter((l) => l.msg.startsWith('refresh of the station list failed'));
    expect(failureLogs.length).toBeGreaterThanOrEqual(FAULTS.length);
    // Where the upstream echoed it, the log line says so without the key.
    expect(output).toContain('[REDACTED]');
    expect(output).not.toContain(KEY);
    for (const s of seen) expect(s).not.toContain(KEY);
    expect(seen.length).toBeGreaterThan(FAULTS.length * 6);
  }, 60_000);
});

describe('hostile requests', () => {
  it('refuses huge headers and URLs cleanly and keeps serving', async () => {
    const bigHeader = await request(`${pair.exporter.url}/metrics`, {
      headers: { 'x-junk': 'a'.repeat(64 * 1024) },
    });
    expect(bigHeader.statusCode).toBe(431);
    await bigHeader.body.dump();
    const bigUrl = await request(`${pair.exporter.url}/metrics?${'q'.repeat(64 * 1024)}`);
    expect([414, 431]).toContain(bigUrl.statusCode);
    await bigUrl.body.dump();
    const after = await request(`${pair.exporter.url}/healthz`);
    expect(after.statusCode).toBe(200);
    await after.body.dump();
  });

  it('answers malformed requests without a stack trace', async () => {
    for (const [method, path] of [
      ['GET', '/%E0%A4%A'],
      ['POST', '/metrics'],
      ['DELETE', '/'],
      ['GET', '/metrics/../../etc/passwd'],
    ] as const) {
      const res = await request(`${pair.exporter.url}${path}`, {
        method,
        body: method === 'POST' ? 'x'.repeat(4096) : null,
      });
      const body = await res.body.text();
      expect(res.statusCode, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(body).not.toMatch(/\bat .+:\d+:\d+/);
      expect(body).not.toMatch(/node_modules|dist\//);
    }
  });

  it('escapes upstream names and descriptions on the status page', async () => {
    pair.sim.setPosts([
      {
        id: 1,
        name: '<script>alert(1)</script>',
        description: '"><img src=x onerror=alert(2)>',
        isOnline: true,
        geo: { timeZoneIana: '</small><b>tz' },
      },
    ]);
    const page = await eventually(async () => {
      await fetchAll(pair, '/metrics');
      const t = await fetchAll(pair, '/');
      return t.includes('alert(1)') ? t : undefined;
    });
    // The page's own script is the one script element; the upstream's is text.
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toContain('<script>alert(1)');
    expect(page).not.toContain('<b>tz');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    pair.sim.setPosts(demoStations());
  });
});
