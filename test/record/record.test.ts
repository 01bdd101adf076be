// The record's rounds on their timer, in process on fake timers: the first round once the station list is in, then
// one every --record.interval; each waits its turn behind the readings; a failing store is a failed round, said
// once in the log with what to do and once when it works again; stop ends the timer and closes the store.
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CollectorHealth } from '../../src/collector/contract.js';
import { createRecord, type RecordDeps } from '../../src/record/record.js';
import type { Labels, Store } from '../../src/report/store.js';
import { failure } from '../../src/upstream/failure.js';
import { configFrom } from '../support/in-process.js';
import { memoryStore } from '../support/memory-store.js';
import { recordConfigOf } from '../support/record-config.js';
import { stationListOf } from '../support/station-list.js';

const T0 = Date.UTC(2026, 10, 27, 12);
const MINUTE = 60_000;
const M5 = 5 * MINUTE;
const HOUR = 60 * MINUTE;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

/** A store holding every 5-minute row of station 1 from before the lookback to a day ahead, as the record reads it. */
function fullStore() {
  const samples: { atMs: number; value: number }[] = [];
  for (let t = T0 - 50 * HOUR; t < T0 + 24 * HOUR; t += M5) samples.push({ atMs: t, value: t / 1000 });
  const labels = {
    __name__: 'cityair_measurement_timestamp_seconds',
    id: '1',
    job: 'cityair',
    instance: 'exporter:9610',
  } as Labels;
  const inner = memoryStore([{ labels, samples }]);
  const seen = { ranges: [] as number[], broken: false, closed: false };
  const store: Store = {
    ...inner,
    range: async (...a) => {
      seen.ranges.push(Date.now());
      if (seen.broken) throw new Error('HTTP 503 from store');
      return inner.range(...a);
    },
    close: async () => {
      seen.closed = true;
    },
  };
  return { store, seen };
}

function setup(
  options: { readings?: (nowMs: number) => Partial<CollectorHealth>; stations?: readonly number[] } = {},
) {
  const { store, seen } = fullStore();
  const record = recordConfigOf([
    '--record.remote-write.url=http://127.0.0.1:9/api/v1/write',
    '--record.query.url=http://store.example:9090',
    '--record.label=job=cityair',
    '--record.label=instance=exporter:9610',
    '--record.interval=15m',
  ]);
  if (!record) throw new Error('the record should be on');
  let listed!: () => void;
  const firstData = new Promise<void>((resolve) => {
    listed = resolve;
  });
  const lines: { level: number; msg: string; reason?: string }[] = [];
  const upstreamPaths: string[] = [];
  const upstreamTimes: number[] = [];
  const registry = new Registry();
  const config = configFrom(['--collector.measurements=true']);
  const deps: RecordDeps = {
    record,
    config,
    upstream: {
      getJson: async (path) => {
        upstreamPaths.push(path);
        upstreamTimes.push(Date.now());
        return failure('timeout', 'no CityAir in this test');
      },
    },
    gate: { untilMs: 0 },
    stations: { lastGood: () => stationListOf(options.stations ?? [1]), firstData },
    readings: {
      health: (nowMs) =>
        ({
          name: 'readings',
          lastSuccessMs: nowMs - MINUTE,
          consecutiveFailures: 0,
          serving: true,
          inFlight: false,
          backoffUntilMs: 0,
          // The last readings round a minute ago: the next is minutes off.
          lastAttempt: { atMs: nowMs - MINUTE, durationMs: 2_000, reason: undefined, message: undefined },
          ...options.readings?.(nowMs),
        }) as CollectorHealth,
    },
    registry,
    log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
    userAgent: 'cityair-exporter/test',
    apiKey: undefined,
    store,
  };
  return { rounds: createRecord(deps), seen, listed, lines, registry, upstreamPaths, upstreamTimes };
}

describe('the record’s rounds', () => {
  it('run once the station list is in, then every --record.interval from the start of the last', async () => {
    const { rounds, seen, listed, registry, upstreamPaths } = setup();
    rounds.start();
    rounds.start();
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(rounds.state().rounds).toBe(0);
    expect(seen.ranges).toEqual([]);

    listed();
    await vi.advanceTimersByTimeAsync(0);
    const t1 = T0 + HOUR;
    expect(rounds.state()).toMatchObject({ rounds: 1, lastSuccessMs: t1, nextRoundAtMs: t1 + 15 * MINUTE });
    expect(rounds.state().lastRound?.result).toMatchObject({ outcome: 'complete', gapsFound: 0 });
    await vi.advanceTimersByTimeAsync(15 * MINUTE - 1);
    expect(rounds.state().rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(rounds.state()).toMatchObject({ rounds: 2, lastSuccessMs: t1 + 15 * MINUTE });
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(rounds.state().rounds).toBe(4);
    // One round per interval although start was called twice; the store held everything, so CityAir was not asked.
    expect(new Set(seen.ranges).size).toBe(4);
    expect(upstreamPaths).toEqual([]);
    const text = await registry.metrics();
    expect(text).toContain('cityair_record_rounds_total{outcome="complete"} 4');
    expect(text).toContain(`cityair_record_last_success_timestamp_seconds ${(t1 + 45 * MINUTE) / 1000}`);
    await rounds.stop();
  });

  it('waits for a readings round under way before asking the store, and starts the next an interval after it ended', async () => {
    const busyUntil = T0 + 5_000;
    const { rounds, seen, listed } = setup({ readings: (nowMs) => ({ inFlight: nowMs < busyUntil }) });
    rounds.start();
    listed();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(seen.ranges).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(seen.ranges.length).toBe(1);
    expect(seen.ranges[0]).toBeGreaterThanOrEqual(busyUntil);
    expect(seen.ranges[0]).toBeLessThan(busyUntil + 1_000);
    // The next round is a full interval after this one ended, wait included, as the status says: the store has
    // that long to show what the round wrote.
    const ended = (rounds.state().nextRoundAtMs ?? 0) - 15 * MINUTE;
    expect(ended).toBeGreaterThanOrEqual(seen.ranges[0] as number);
    expect(ended).toBeLessThan(busyUntil + 1_000);
    await vi.advanceTimersByTimeAsync(ended + 15 * MINUTE - Date.now() - 1);
    expect(seen.ranges).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen.ranges).toEqual([seen.ranges[0], ended + 15 * MINUTE]);
    await rounds.stop();
  });

  it('sends a CityAir request of a round only once a readings round begun meanwhile has ended', async () => {
    let busyFrom: number | undefined;
    const { rounds, seen, listed, upstreamPaths, upstreamTimes } = setup({
      // A readings round starts as soon as the record has asked the store, and lasts 3 s.
      readings: (nowMs) => {
        if (busyFrom === undefined && seen.ranges.length > 0) busyFrom = nowMs;
        return { inFlight: busyFrom !== undefined && nowMs < busyFrom + 3_000 };
      },
      stations: [1, 2],
    });
    rounds.start();
    listed();
    await vi.advanceTimersByTimeAsync(10_000);
    // Station 2 has nothing in the store: the round asks CityAir for it, after the readings round.
    expect(upstreamPaths.length).toBeGreaterThan(0);
    expect(Math.min(...upstreamTimes)).toBeGreaterThanOrEqual(T0 + 3_000);
    await rounds.stop();
  });

  it('counts a store it cannot query as failed rounds, says so once with what to check, and once when it works', async () => {
    const { rounds, seen, listed, lines, registry } = setup();
    const said = (level: number) => lines.filter((l) => l.reason === 'query' && l.level === level);
    seen.broken = true;
    rounds.start();
    listed();
    await vi.advanceTimersByTimeAsync(15 * MINUTE);
    expect(rounds.state()).toMatchObject({ rounds: 2, lastSuccessMs: undefined });
    expect(rounds.state().lastRound?.result.outcome).toBe('failed');
    expect(said(40)).toHaveLength(1);
    expect(said(40)[0]?.msg).toMatch(
      /cannot query the store \(store\.example:9090\): check --record\.query\.url/,
    );
    expect(await registry.metrics()).toContain('cityair_record_failures_total{reason="query"} 2');

    seen.broken = false;
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(rounds.state()).toMatchObject({ rounds: 4, lastSuccessMs: T0 + 45 * MINUTE });
    expect(said(30).map((l) => l.msg)).toEqual(["the record's query works again"]);

    // Failing again is said again.
    seen.broken = true;
    await vi.advanceTimersByTimeAsync(15 * MINUTE);
    expect(said(40)).toHaveLength(2);
    expect(rounds.state().lastSuccessMs).toBe(T0 + 45 * MINUTE);
    await rounds.stop();
  });

  it('runs no round after stop and leaves no timer behind, and closes the store', async () => {
    const { rounds, seen, listed } = setup();
    rounds.start();
    listed();
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds.state().rounds).toBe(1);
    await rounds.stop();
    expect(seen.closed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    expect(rounds.state().rounds).toBe(1);
  });

  it('stopped during a round, lets it end and arms no further round', async () => {
    const { rounds, seen, listed } = setup({ readings: (nowMs) => ({ inFlight: nowMs < T0 + 5_000 }) });
    rounds.start();
    listed();
    await vi.advanceTimersByTimeAsync(1_000);
    const stopped = rounds.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    await stopped;
    expect(seen.closed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(rounds.state().rounds).toBeLessThanOrEqual(1);
  });
});
