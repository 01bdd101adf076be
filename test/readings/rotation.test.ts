// Every station gets its turn: a round stopped by the API resumes where it stopped. Rounds of the real collector
// in simulated time over a fake API that refuses every Nth request, as a rate limit does.
import pino from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/cli.js';
import { createReadingsCollector } from '../../src/readings/collector.js';
import { nextCursor, rotate } from '../../src/readings/rotation.js';
import type { StationList } from '../../src/stations/schema.js';
import type { Validate } from '../../src/upstream/exchange.js';
import { failure, type Result } from '../../src/upstream/failure.js';
import { fakeClock } from '../support/fake-clock.js';
import { stationListOf } from '../support/station-list.js';

const MINUTE = 60_000;
const INTERVAL = 5 * MINUTE;

const listOf = (ids: readonly number[]): StationList =>
  stationListOf(ids, { tz: 'UTC', utcOffsetSeconds: 0 });

/**
 * `rounds` rounds of `stations` stations against an API that answers 429 (Retry-After 1 minute) to every
 * `every`-th request; returns for each station the rounds in which it got a reading, and when rounds started.
 */
async function simulate(stations: number, every: number, rounds: number, concurrency = 2) {
  const clock = fakeClock();
  const t0 = clock.now();
  const ids = Array.from({ length: stations }, (_, i) => 1000 + i);
  const readIn = new Map<number, number[]>(ids.map((id) => [id, []]));
  let requests = 0;
  // Each request takes 50 ms of simulated time, so workers overlap as they do against a real API.
  const upstream = {
    getJson: <T>(path: string, validate: Validate<T>) =>
      new Promise<Result<T>>((resolve) => {
        const id = Number(/\/Posts\/(\d+)\/measurements/.exec(path)?.[1]);
        requests++;
        const refused = requests % every === 0;
        clock.setTimer(() => {
          if (refused) return resolve(failure('rate_limited', 'HTTP 429', MINUTE));
          readIn.get(id)?.push(Math.floor((clock.now() - t0) / INTERVAL));
          const date = new Date(clock.now() - MINUTE).toISOString();
          resolve(validate({ meta: { units: { pm2: 'mg/m³' } }, data: [{ postId: id, date, pm2: 0.01 }] }));
        }, 50);
      }),
  };
  const list = listOf(ids);
  // The collector takes the station list once per round, as the round starts.
  const roundStarts: number[] = [];
  const collector = createReadingsCollector({
    config: {
      readings: {
        enabled: true,
        interval: '5m',
        refreshIntervalMs: INTERVAL,
        maxAgeMs: 30 * MINUTE,
        stations: undefined,
        concurrency,
        maxBodyBytes: 2 * 1024 * 1024,
      },
      upstream: { maxBackoffMs: MINUTE } as Config['upstream'],
    },
    upstream,
    registry: new Registry(),
    log: pino({ level: 'silent' }),
    stations: {
      serving: () => list,
      lastGood: () => {
        roundStarts.push(clock.now() - t0);
        return list;
      },
      firstData: Promise.resolve(),
    },
    clock,
    random: () => 1,
  });
  collector.start();
  await clock.advance((rounds - 1) * INTERVAL + MINUTE);
  const stopped = collector.stop();
  await clock.advance(INTERVAL);
  await stopped;
  return { readIn, roundStarts };
}

/** The most rounds a station went without a reading, the rounds before its first one included. */
function longestWait(readIn: ReadonlyMap<number, number[]>, rounds: number): number {
  let worst = 0;
  for (const seen of readIn.values()) {
    let last = -1;
    for (const round of [...seen, rounds]) {
      worst = Math.max(worst, round - last - 1);
      last = round;
    }
  }
  return worst;
}

describe('a stopped round', () => {
  it('resumes where it stopped: 1,000 stations behind a limit of 97 requests get read in turn', async () => {
    const rounds = 40;
    const { readIn } = await simulate(1000, 97, rounds);
    const perStation = [...readIn.values()].map((r) => r.length);
    // About 95 new stations a round: a pass over the list takes 11 rounds, so each station is read 3 or 4 times.
    expect(Math.min(...perStation)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...perStation)).toBeLessThanOrEqual(5);
    expect(longestWait(readIn, rounds)).toBeLessThanOrEqual(Math.ceil(1000 / (97 - 2)) + 1);
  });

  it('starves no station when the limit lines up with the list', async () => {
    // 1,000 is a multiple of 100: resuming after the refused station would skip the same ones on every pass.
    for (const concurrency of [1, 2, 4]) {
      const rounds = 40;
      const { readIn } = await simulate(1000, 100, rounds, concurrency);
      const never = [...readIn].filter(([, r]) => r.length === 0).map(([id]) => id);
      expect(never, `concurrency ${concurrency}`).toEqual([]);
      const bound = Math.ceil(1000 / (100 - concurrency)) + 1;
      expect(longestWait(readIn, rounds), `concurrency ${concurrency}`).toBeLessThanOrEqual(bound);
    }
  });

  it('reads every station every round when nothing stops it, rounds starting every interval', async () => {
    // 1,000 requests two at a time take 25 s: counted from a round's end, the rounds would drift by as much.
    const { readIn, roundStarts } = await simulate(1000, Number.POSITIVE_INFINITY, 6);
    expect(roundStarts).toEqual([0, 1, 2, 3, 4, 5].map((k) => k * INTERVAL));
    for (const [id, rounds] of readIn) expect(rounds, String(id)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('where a round starts', () => {
  const ids = [10, 20, 30, 40, 50];

  it('is the station of the cursor, or its place when that station has left the list', () => {
    expect(rotate(ids, undefined).order).toEqual(ids);
    expect(rotate(ids, { id: 40, index: 0 })).toEqual({ order: [40, 50, 10, 20, 30], start: 3 });
    expect(rotate([10, 20, 50], { id: 40, index: 2 }).order).toEqual([50, 10, 20]);
    expect(rotate([10, 20], { id: 40, index: 3 }).order).toEqual([10, 20]);
    expect(rotate([], { id: 40, index: 3 }).order).toEqual([]);
  });

  it('is the first refused station, the first not asked, or the same start after a whole round', () => {
    const order = [30, 40, 50, 10, 20];
    const none = () => false;
    expect(nextCursor(order, 2, 5, none)).toEqual({ id: 30, index: 2 });
    expect(nextCursor(order, 2, 3, none)).toEqual({ id: 10, index: 0 });
    expect(nextCursor(order, 2, 3, (p) => p === 1)).toEqual({ id: 40, index: 3 });
    // A round refused at its very first station moves on by one, so no round is wasted on it twice.
    expect(nextCursor(order, 2, 1, (p) => p === 0)).toEqual({ id: 40, index: 3 });
    expect(nextCursor([], 0, 0, none)).toBeUndefined();
  });
});
