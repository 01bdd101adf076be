// The readings read against the simulator over real HTTP on loopback: the request it sends, and how each kind of
// answer becomes an outcome, with the same failure classes as the station list.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import { DEMO_UNKNOWN_UNIT, demoHasNoGases, demoHasNoReadings } from '../../src/demo/readings.js';
import { demoStations } from '../../src/demo/stations.js';
import { readingsPath, readReadingRows } from '../../src/readings/read.js';
import type { FailureReason, Result } from '../../src/upstream/failure.js';
import { type Simulator, startSimulator } from '../support/simulator.js';
import { type TestClient, upstreamClient } from '../support/upstream-client.js';

const KEY = 'sk-test-readings-4e1d';
const IDS = demoStations().map((p) => p.id);
const QUERY = { interval: '5m', dateGtMs: Date.now() - 30 * 60_000 } as const;
let sim: Simulator;
let client: TestClient;

const clientFor = (baseUrl: string, over: { timeoutMs?: number; key?: string } = {}) =>
  upstreamClient({
    baseUrl,
    apiKey: new Secret(over.key ?? KEY),
    timeoutMs: over.timeoutMs ?? 1500,
    maxBodyBytes: 1024 * 1024,
    userAgent: 'cityair-exporter/test',
  });

function expectFailure(outcome: Result<unknown>, reason: FailureReason): string {
  if (outcome.ok) throw new Error(`expected ${reason}, got success`);
  expect(outcome.reason).toBe(reason);
  expect(outcome.message).not.toContain(KEY);
  return outcome.message;
}

/** A station with every sensor and the field in an unknown unit. */
const FULL = IDS.find((i) => !demoHasNoReadings(i) && !demoHasNoGases(i) && i % 4 === 0) as number;

beforeAll(async () => {
  sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
  client = clientFor(sim.baseUrl);
});
afterAll(async () => {
  await client.close();
  await sim.close();
});
beforeEach(() => {
  for (const id of IDS) {
    sim.setReadingsFault(id, undefined);
    sim.setReadings(id, undefined);
  }
  sim.resetReadingsLog();
});

describe('readings read', () => {
  it('asks for one station with the interval and a UTC date without milliseconds', async () => {
    const id = IDS[0] as number;
    const outcome = await client.fetchReadings(id, {
      interval: '1h',
      dateGtMs: Date.UTC(2026, 10, 23, 10, 15, 0, 789),
    });
    expect(outcome.ok).toBe(true);
    expect(sim.readingsLog()).toEqual([id]);
    expect(sim.lastReadingsQuery()?.get('interval')).toBe('1h');
    expect(sim.lastReadingsQuery()?.get('date__gt')).toBe('2026-11-23T10:15:00Z');
    expect(readingsPath(5, { interval: '5m', dateGtMs: 0 })).toBe(
      '/harvester/v2/Posts/5/measurements?interval=5m&date__gt=1970-01-01T00:00:00Z',
    );
    expect(readingsPath(1.5, QUERY)).toBeUndefined();
    expect(readingsPath(5, { interval: '5m', dateGtMs: 1e15 })).toBeUndefined();
    expect(readingsPath(5, { interval: '5m', dateGtMs: -1e17 })).toBeUndefined();
  });

  it('names the time, not the id, when the time cannot be sent', async () => {
    const rows = readReadingRows({
      getJson: async () => ({ ok: false, reason: 'network', message: 'unused' }),
    });
    const outcome = await rows(2, { interval: '5m', dateGtMs: -1e17 });
    expect(outcome.ok ? '' : outcome.message).toMatch(/^the time asked for \(date__gt -1000000/);
  });

  it('reads the demo answer: converted values, the unknown unit reported with its text', async () => {
    const id = FULL;
    const outcome = await client.fetchReadings(id, QUERY);
    if (!outcome.ok) throw new Error(outcome.message);
    const result = outcome.value;
    if (!result.reading) throw new Error('expected a reading');
    expect(result.reading.id).toBe(id);
    expect(result.reading.concentrations.get('pm2.5')).toBeGreaterThan(1);
    expect(result.reading.pressurePascals).toBeGreaterThan(90_000);
    expect(result.reading.aqi.get('cityair')).toBeGreaterThanOrEqual(1);
    expect(Date.now() - result.reading.atMs).toBeLessThanOrEqual(10 * 60_000);
    expect(result.skipped).toContainEqual({
      field: DEMO_UNKNOWN_UNIT.field,
      reason: 'unknown_unit',
      unit: DEMO_UNKNOWN_UNIT.unit,
    });
  });

  it('reads an empty data array as no reading', async () => {
    const id = IDS.find(demoHasNoReadings) as number;
    const outcome = await client.fetchReadings(id, QUERY);
    expect(outcome.ok && outcome.value.reading).toBeUndefined();
    expect(outcome.ok).toBe(true);
  });

  it('classifies an unknown station, a wrong key, 429 and 503 with Retry-After', async () => {
    expectFailure(await client.fetchReadings(42, QUERY), 'http_4xx');
    const wrong = clientFor(sim.baseUrl, { key: 'not-the-key' });
    expectFailure(await wrong.fetchReadings(IDS[0] as number, QUERY), 'auth');
    await wrong.close();
    const [a, b] = IDS as [number, number];
    sim.setReadingsFault(a, { kind: 'status', status: 429, retryAfter: '30' });
    sim.setReadingsFault(b, { kind: 'status', status: 503, retryAfter: '7' });
    const limited = await client.fetchReadings(a, QUERY);
    expectFailure(limited, 'rate_limited');
    expect(!limited.ok && limited.retryAfterMs).toBe(30_000);
    const unavailable = await client.fetchReadings(b, QUERY);
    expectFailure(unavailable, 'http_5xx');
    expect(!unavailable.ok && unavailable.retryAfterMs).toBe(7_000);
  });

  it('classifies invalid JSON, a wrong shape and a slow answer, one station at a time', async () => {
    const [a, b, c, d] = IDS as [number, number, number, number];
    sim.setReadingsFault(a, { kind: 'body', body: '{"data": [' });
    sim.setReadings(b, { data: 'none' });
    sim.setReadingsFault(c, { kind: 'slow', delayMs: 3000 });
    const quick = clientFor(sim.baseUrl, { timeoutMs: 300 });
    expectFailure(await quick.fetchReadings(a, QUERY), 'invalid_json');
    expect(expectFailure(await quick.fetchReadings(b, QUERY), 'invalid_payload')).toMatch(/data/);
    expectFailure(await quick.fetchReadings(c, QUERY), 'timeout');
    expect((await quick.fetchReadings(d, QUERY)).ok).toBe(true);
    await quick.close();
  });

  it('keeps the station list working on the same client', async () => {
    const outcome = await client.fetchStations();
    expect(outcome.ok && outcome.value.stations.length).toBe(40);
  });

  it('is served by the simulator oldest first, strictly after date__gt, and refuses a bad query', async () => {
    const id = FULL;
    const after = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const get = (query: string) =>
      fetch(`${sim.baseUrl}/harvester/v2/Posts/${id}/measurements?${query}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
    const res = await get(`interval=5m&date__gt=${after}`);
    const body = (await res.json()) as { meta: { units: Record<string, string> }; data: { date: string }[] };
    expect(body.meta.units).toMatchObject({
      pm2: 'mg/m³',
      temperature: '°C',
      humidity: '%',
      pressure: 'mm Hg',
    });
    const dates = body.data.map((r) => Date.parse(r.date));
    expect(dates.length).toBeGreaterThan(0);
    expect(dates.every((d) => d > Date.parse(after))).toBe(true);
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);
    expect((await get('interval=7m')).status).toBe(400);
    expect((await get('interval=5m&date__gt=yesterday')).status).toBe(400);
  });
});
