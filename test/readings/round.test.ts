// A round of readings against the simulator over loopback: what an operator would notice is which stations get
// a reading, which are asked at all, how hard the API is hit, and that one bad station leaves the rest alone.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import { DEMO_UNKNOWN_UNIT, demoHasNoReadings } from '../../src/demo/readings.js';
import { demoStations } from '../../src/demo/stations.js';
import type { RequestOutcome } from '../../src/exposition/request-metrics.js';
import type { ReadingsData } from '../../src/readings/data.js';
import { idsToRead, type ReadingsRoundOptions, runReadingsRound } from '../../src/readings/round.js';
import { type Simulator, startSimulator } from '../support/simulator.js';
import { type TestClient, upstreamClient } from '../support/upstream-client.js';

const KEY = 'sk-round-test-91b2';
const IDS = demoStations().map((p) => p.id);
const MAX_AGE = 30 * 60_000;
let sim: Simulator;
let client: TestClient;

beforeAll(async () => {
  sim = await startSimulator({ posts: demoStations(), apiKey: KEY });
  client = upstreamClient({
    baseUrl: sim.baseUrl,
    apiKey: new Secret(KEY),
    timeoutMs: 1000,
    maxBodyBytes: 1024 * 1024,
    userAgent: 'cityair-exporter/test',
    connections: 16,
  });
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

function round(over: Partial<ReadingsRoundOptions> = {}) {
  return runReadingsRound({
    ids: IDS,
    fetch: client.fetchReadings,
    concurrency: 2,
    previous: undefined,
    nowMs: Date.now(),
    maxAgeMs: MAX_AGE,
    interval: '5m',
    ...over,
  });
}

async function okRound(over: Partial<ReadingsRoundOptions> = {}): Promise<ReadingsData> {
  const result = await round(over);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

const rowAt = (id: number, atMs: number, fields: Record<string, unknown> = {}) => ({
  meta: { units: { pm2: 'mg/m³', temperature: '°C' } },
  data: [
    { postId: id, date: new Date(atMs).toISOString(), version: 3, pm2: 0.01, temperature: 1, ...fields },
  ],
});

describe('a readings round', () => {
  it('reads every station once, fresh or empty, with the fields left out counted by reason', async () => {
    const data = await okRound();
    expect([...sim.readingsLog()].sort()).toEqual([...IDS].sort());
    const empty = IDS.filter(demoHasNoReadings).length;
    expect(data.round.stations).toEqual({
      fresh: IDS.length - empty,
      stale: 0,
      empty,
      failed: 0,
      deferred: 0,
    });
    expect(data.readings.size).toBe(IDS.length - empty);
    expect(data.round.requests).toBe(IDS.length);
    expect(data.round.skippedFields.unknown_unit).toBe(
      IDS.filter((id) => id % 4 === 0 && !demoHasNoReadings(id)).length,
    );
    expect(data.round.skippedFields.missing).toBeGreaterThan(0);
    expect(data.round.unknownUnits).toEqual([DEMO_UNKNOWN_UNIT]);
    expect(Object.values(data.round.failures).every((n) => n === 0)).toBe(true);
  });

  it('never has more requests in flight than its concurrency', async () => {
    // Slow answers make the workers overlap, so the limit is what holds them back.
    for (const id of IDS.slice(0, 12)) sim.setReadingsFault(id, { kind: 'slow', delayMs: 150 });
    for (const concurrency of [1, 3]) {
      sim.resetReadingsLog();
      await okRound({ concurrency });
      expect(sim.maxConcurrentReadings()).toBeLessThanOrEqual(concurrency);
      expect(sim.maxConcurrentReadings()).toBeGreaterThanOrEqual(Math.min(concurrency, 2));
      expect(sim.readingsLog()).toHaveLength(IDS.length);
    }
  });

  it('asks only for the ids it is given, and drops readings of stations no longer given', async () => {
    const first = await okRound();
    const some = IDS.filter((id) => !demoHasNoReadings(id)).slice(3, 9);
    sim.resetReadingsLog();
    const data = await okRound({ ids: [...some, some[0] as number], previous: first });
    expect([...sim.readingsLog()].sort()).toEqual([...some].sort());
    expect([...data.readings.keys()].sort()).toEqual([...some].sort());
  });

  it('keeps the rest when stations fail, and the failed station keeps its previous reading', async () => {
    const first = await okRound();
    const [a, b, c, d] = IDS.filter((id) => !demoHasNoReadings(id)) as [number, number, number, number];
    sim.setReadingsFault(a, { kind: 'status', status: 500 });
    sim.setReadingsFault(b, { kind: 'body', body: 'not json' });
    sim.setReadingsFault(c, { kind: 'hang' });
    sim.setReadings(d, { data: 'wrong shape' });
    const seen: RequestOutcome[] = [];
    const data = await okRound({ previous: first, concurrency: 4, onRequest: (o) => seen.push(o) });
    expect(seen).toHaveLength(IDS.length);
    expect(data.round.stations.failed).toBe(4);
    expect(data.round.failures).toMatchObject({
      http_5xx: 1,
      invalid_json: 1,
      timeout: 1,
      invalid_payload: 1,
    });
    for (const id of [a, b, c, d]) expect(data.readings.get(id)).toBe(first.readings.get(id));
    expect(data.round.stations.fresh).toBe(first.round.stations.fresh - 4);
    const other = IDS.find((id) => ![a, b, c, d].includes(id) && !demoHasNoReadings(id)) as number;
    expect(data.readings.get(other)?.atMs).toBeDefined();
  });

  it('stops asking when the API says to wait, keeping what it had for the stations not asked', async () => {
    const first = await okRound();
    const third = IDS[2] as number;
    sim.setReadingsFault(third, { kind: 'status', status: 429, retryAfter: '120' });
    sim.resetReadingsLog();
    const result = await round({ previous: first, concurrency: 1 });
    if (!result.ok) throw new Error(result.message);
    expect(sim.readingsLog()).toEqual(IDS.slice(0, 3));
    expect(result.retryAfterMs).toBe(120_000);
    expect(result.value.round.stations.deferred).toBe(IDS.length - 3);
    for (const id of IDS.slice(3)) expect(result.value.readings.get(id)).toBe(first.readings.get(id));
  });

  it('also stops on a 503 with Retry-After', async () => {
    sim.setReadingsFault(IDS[0] as number, { kind: 'status', status: 503, retryAfter: '5' });
    const result = await round({ concurrency: 1 });
    expect(sim.readingsLog()).toEqual(IDS.slice(0, 1));
    expect(result.ok).toBe(false);
    expect(!result.ok && [result.reason, result.retryAfterMs, result.stats.stations.deferred]).toEqual([
      'http_5xx',
      5000,
      IDS.length - 1,
    ]);
  });

  it('fails as a whole when every request failed, so the collector backs off', async () => {
    const ids = IDS.slice(0, 5);
    for (const id of ids) sim.setReadingsFault(id, { kind: 'status', status: 502 });
    sim.setReadingsFault(ids[0] as number, { kind: 'reset' });
    const result = await round({ ids });
    if (result.ok) throw new Error('expected a failed round');
    expect(result.reason).toBe('http_5xx');
    expect(result.message).toMatch(/^all 5 readings requests failed/);
    expect(result.stats.failures).toMatchObject({ http_5xx: 4, network: 1 });
    expect(result.retryAfterMs).toBeUndefined();
  });

  it('tells fresh from stale rows, and an empty answer removes the old reading', async () => {
    const now = Date.now();
    const [a, b, c] = IDS.filter((id) => !demoHasNoReadings(id)) as [number, number, number];
    sim.setReadings(a, rowAt(a, now - 5 * 60_000));
    sim.setReadings(b, rowAt(b, now - MAX_AGE - 60_000));
    const first = await okRound({ ids: [a, b, c], nowMs: now });
    expect(first.round.stations).toMatchObject({ fresh: 2, stale: 1 });
    expect(first.readings.get(b)?.atMs).toBe(now - MAX_AGE - 60_000);
    sim.setReadings(c, { meta: { units: {} }, data: [] });
    const second = await okRound({ ids: [a, b, c], nowMs: now, previous: first });
    expect(second.round.stations.empty).toBe(1);
    expect(second.readings.has(c)).toBe(false);
  });

  it('sends date__gt as now minus max-age', async () => {
    const now = Date.UTC(2026, 10, 23, 12, 0, 0);
    await okRound({ ids: IDS.slice(0, 1), nowMs: now, interval: '1h' });
    expect(sim.lastReadingsQuery()?.get('date__gt')).toBe('2026-11-23T11:30:00Z');
    expect(sim.lastReadingsQuery()?.get('interval')).toBe('1h');
  });

  it('logs one warning for a round with failures, and survives a fetch that throws', async () => {
    const lines: string[] = [];
    const log = { warn: (_: object, msg: string) => lines.push(msg), debug: () => undefined };
    const result = await runReadingsRound({
      ids: [1, 2, 3],
      fetch: async (id) => {
        if (id === 2) throw new Error('boom');
        return { ok: true, value: { reading: undefined, skipped: [], rejectedRows: 0 }, bytes: 2 };
      },
      concurrency: 8,
      previous: undefined,
      nowMs: Date.now(),
      maxAgeMs: MAX_AGE,
      interval: '5m',
      log,
    });
    expect(result.ok && result.value.round.stations).toMatchObject({ empty: 2, failed: 1 });
    expect(lines).toEqual(['readings requests failed for some stations']);
  });

  it('sends nothing for an empty list', async () => {
    const data = await okRound({ ids: [] });
    expect(sim.readingsLog()).toEqual([]);
    expect(data.readings.size).toBe(0);
  });

  it('takes its ids from the station list only, narrowed by the configured stations', () => {
    const listed = [{ id: 3 }, { id: 1 }, { id: 2 }];
    expect(idsToRead(listed, undefined)).toEqual([3, 1, 2]);
    expect(idsToRead(listed, [2, 3, 99])).toEqual([3, 2]);
    expect(idsToRead(listed, [])).toEqual([]);
  });
});
