import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import { demoStations } from '../../src/demo/stations.js';
import type { FailureReason, Result } from '../../src/upstream/failure.js';
import { type Simulator, startSimulator } from '../support/simulator.js';
import { type TestClient, upstreamClient } from '../support/upstream-client.js';

const KEY = 'sk-test-7f3a9c1e5b';
let sim: Simulator;
let client: TestClient;

const clientFor = (
  baseUrl: string,
  over: { timeoutMs?: number; maxBodyBytes?: number; key?: string; maxStations?: number } = {},
) =>
  upstreamClient({
    baseUrl,
    apiKey: new Secret(over.key ?? KEY),
    timeoutMs: over.timeoutMs ?? 1500,
    maxBodyBytes: over.maxBodyBytes ?? 1024 * 1024,
    userAgent: 'cityair-exporter/test',
    ...(over.maxStations === undefined ? {} : { maxStations: over.maxStations }),
  });

function expectFailure(outcome: Result<unknown>, reason: FailureReason): string {
  if (outcome.ok) throw new Error(`expected ${reason}, got success`);
  expect(outcome.reason).toBe(reason);
  expect(outcome.message).not.toContain(KEY);
  return outcome.message;
}

beforeAll(async () => {
  sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
  client = clientFor(sim.baseUrl);
});
afterAll(async () => {
  await client.close();
  await sim.close();
});
beforeEach(() => sim.setFault({ kind: 'none' }));

describe('upstream client', () => {
  it('sends the documented request and decodes a gzip answer', async () => {
    const outcome = await client.fetchStations();
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.value.stations).toHaveLength(40);
    const h = sim.lastHeaders();
    expect(h?.authorization).toBe(`Bearer ${KEY}`);
    expect(h?.accept).toBe('application/json');
    expect(h?.['accept-encoding']).toBe('gzip');
    expect(h?.['user-agent']).toBe('cityair-exporter/test');
  });

  it('classifies a wrong key as auth', async () => {
    const wrong = clientFor(sim.baseUrl, { key: 'not-the-key' });
    expectFailure(await wrong.fetchStations(), 'auth');
    await wrong.close();
    sim.setFault({ kind: 'status', status: 403 });
    expectFailure(await client.fetchStations(), 'auth');
  });

  it('classifies 429 as rate_limited and reads Retry-After in seconds or as a date', async () => {
    sim.setFault({ kind: 'status', status: 429, retryAfter: '120' });
    const a = await client.fetchStations();
    expectFailure(a, 'rate_limited');
    expect(!a.ok && a.retryAfterMs).toBe(120_000);
    sim.setFault({ kind: 'status', status: 503, retryAfter: new Date(Date.now() + 60_000).toUTCString() });
    const b = await client.fetchStations();
    expectFailure(b, 'http_5xx');
    expect(!b.ok && b.retryAfterMs).toBeGreaterThan(50_000);
  });

  it('classifies other statuses by class and keeps a short excerpt of the body', async () => {
    sim.setFault({ kind: 'status', status: 404, body: '{"error":"no such path"}' });
    expect(expectFailure(await client.fetchStations(), 'http_4xx')).toContain('no such path');
    sim.setFault({ kind: 'status', status: 500 });
    expectFailure(await client.fetchStations(), 'http_5xx');
    sim.setFault({ kind: 'status', status: 302 });
    expectFailure(await client.fetchStations(), 'invalid_payload');
  });

  it('never echoes the key, even when the upstream reflects it in an error body', async () => {
    sim.setFault({ kind: 'status', status: 400, body: `bad token ${KEY}` });
    expect(expectFailure(await client.fetchStations(), 'http_4xx')).toContain('[REDACTED]');
  });

  it('times out slow headers, a stalled body and a request never answered', async () => {
    const quick = clientFor(sim.baseUrl, { timeoutMs: 300 });
    for (const fault of [
      { kind: 'slow', delayMs: 2000 },
      { kind: 'stall-body' },
      { kind: 'hang' },
    ] as const) {
      sim.setFault(fault);
      const t0 = Date.now();
      expectFailure(await quick.fetchStations(), 'timeout');
      expect(Date.now() - t0).toBeLessThan(1500);
    }
    await quick.close();
  });

  it('classifies refused and reset connections as network', async () => {
    sim.setFault({ kind: 'reset' });
    expectFailure(await client.fetchStations(), 'network');
    const nowhere = clientFor('http://127.0.0.1:1');
    expectFailure(await nowhere.fetchStations(), 'network');
    await nowhere.close();
  });

  it('classifies invalid JSON and an HTML page as invalid_json', async () => {
    sim.setFault({ kind: 'body', body: '[{"id": 1,' });
    expectFailure(await client.fetchStations(), 'invalid_json');
    sim.setFault({ kind: 'body', body: '<html><body>Maintenance</body></html>', contentType: 'text/html' });
    expect(expectFailure(await client.fetchStations(), 'invalid_json')).toMatch(/HTML page/);
  });

  it('classifies a wrong shape as invalid_payload', async () => {
    sim.setFault({ kind: 'body', body: '{"posts":[]}' });
    expectFailure(await client.fetchStations(), 'invalid_payload');
  });

  it('refuses bodies over the cap, declared, chunked or as a gzip bomb, without reading them whole', async () => {
    for (const chunked of [false, true]) {
      sim.setFault({ kind: 'huge', bytes: 50 * 1024 * 1024, chunked });
      expect(expectFailure(await client.fetchStations(), 'invalid_payload')).toMatch(/max-body-size/);
    }
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    sim.setFault({ kind: 'body', body: bomb, contentEncoding: 'gzip' });
    expect(expectFailure(await client.fetchStations(), 'invalid_payload')).toMatch(/max-body-size/);
  });

  it('refuses a list of more elements than --upstream.max-stations before parsing any', async () => {
    sim.setFault({ kind: 'body', body: Buffer.from(`[${'{},'.repeat(999_999)}{}]`) });
    const roomy = clientFor(sim.baseUrl, { maxBodyBytes: 64 * 1024 * 1024 });
    expect(expectFailure(await roomy.fetchStations(), 'invalid_payload')).toBe(
      'the array holds more than 20000 elements (--upstream.max-stations)',
    );
    await roomy.close();
    const small = clientFor(sim.baseUrl, { maxStations: 39 });
    sim.setFault({ kind: 'none' });
    expect(expectFailure(await small.fetchStations(), 'invalid_payload')).toMatch(/more than 39 elements/);
    await small.close();
  });

  it('skips an element too large to be a station unread, counts it, and keeps the others', async () => {
    const posts = demoStations();
    const huge = { ...posts[1], description: 'd'.repeat(300 * 1024) };
    sim.setFault({ kind: 'body', body: JSON.stringify([posts[0], huge, posts[2]]) });
    const outcome = await client.fetchStations();
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.value.stations.map((s) => s.id)).toEqual([posts[0]?.id, posts[2]?.id]);
    expect(outcome.value.rejected.invalid).toBe(1);
    expect(outcome.value.problems[0]).toMatch(/^element 1: \d+ bytes, more than a station can be/);
  });

  it('accepts an empty list and a body with a byte-order mark', async () => {
    sim.setFault({ kind: 'body', body: '\ufeff[]' });
    const outcome = await client.fetchStations();
    expect(outcome.ok && outcome.value.stations.length).toBe(0);
  });
});
