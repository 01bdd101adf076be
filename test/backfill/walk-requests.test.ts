// Requests per station against well-behaved and newest-first APIs: the figures of docs/benchmarks.md
// ("Requests per station"), counted, not timed. A walk that asks more than main's (31 for 30 days at 5m, 4 at
// 1h, 3 for a year at 1d) fails here.
import { describe, expect, it } from 'vitest';
import { walkStation } from '../../src/backfill/walk.js';
import type { ReadingsInterval } from '../../src/readings/schema.js';
import {
  type ApiBehaviour,
  answerTimes,
  DEMO_LIKE,
  ORDERS,
  stationTimes,
  WELL_BEHAVED,
} from '../support/api-behaviour.js';

const DAY = 86_400_000;
const STEP: Record<'5m' | '1h' | '1d', number> = { '5m': 300_000, '1h': 3_600_000, '1d': DAY };
const NEWEST_100: ApiBehaviour = {
  ...ORDERS['newest first'],
  cap: 100,
  dateGt: 'exclusive',
  dateLt: 'exclusive',
};

/** Requests and rows of one station's walk over `days` from 1.234 s past midnight, rows two days either side. */
async function walked(
  api: ApiBehaviour,
  interval: keyof typeof STEP,
  days: number,
  offline: readonly (readonly [number, number])[] = [],
): Promise<[number, number, boolean]> {
  const stepMs = STEP[interval];
  const midnight = Date.UTC(2026, 0, 1);
  const fromMs = midnight + 1234;
  const toMs = fromMs + days * DAY;
  const gaps = offline.map(([a, b]): [number, number] => [fromMs + a * DAY, fromMs + b * DAY]);
  const times = stationTimes(midnight - 2 * DAY, toMs + 2 * DAY, stepMs, gaps);
  let requests = 0;
  let rows = 0;
  const outcome = await walkStation(1, {
    fetch: async (_id, q) => {
      requests++;
      const gt = Math.floor(q.dateGtMs / 1000) * 1000;
      const lt = Math.ceil((q.dateLtMs ?? 0) / 1000) * 1000;
      const answer = answerTimes(times, gt, lt, api, requests).map((atMs) => ({
        reading: {
          id: 1,
          atMs,
          concentrations: new Map(),
          temperatureCelsius: undefined,
          humidityRatio: undefined,
          pressurePascals: undefined,
          aqi: new Map(),
        },
        skipped: [],
      }));
      return { ok: true, value: { rows: answer, rejectedRows: 0 } };
    },
    interval: interval as ReadingsInterval,
    intervalMs: stepMs,
    fromMs,
    toMs,
    retries: 0,
    maxBackoffMs: 1,
    gate: { untilMs: 0 },
    now: () => 0,
    sleep: async () => undefined,
    random: () => 1,
    onRequest: () => undefined,
    onRows: async (r) => {
      rows += r.length;
    },
  });
  return [requests, rows, outcome.ok];
}

describe('requests per station (docs/benchmarks.md)', () => {
  it.each([
    ['both dates honoured', WELL_BEHAVED, '5m', 30, [], 31, 8640],
    ['both dates honoured', WELL_BEHAVED, '1h', 30, [], 3, 720],
    ['both dates honoured', WELL_BEHAVED, '1h', 365, [], 31, 8760],
    ['both dates honoured', WELL_BEHAVED, '1d', 365, [], 2, 365],
    ['both dates honoured', WELL_BEHAVED, '1d', 3650, [], 13, 3650],
    ['the demo', DEMO_LIKE, '5m', 30, [], 18, 8640],
    ['the demo', DEMO_LIKE, '1h', 365, [], 18, 8760],
    ['the demo', DEMO_LIKE, '1d', 3650, [], 8, 3650],
    ['500 rows', { ...WELL_BEHAVED, cap: 500 }, '5m', 30, [], 31, 8640],
    ['a day offline', WELL_BEHAVED, '5m', 30, [[10, 11]], 31, 8352],
    ['three days offline', WELL_BEHAVED, '5m', 30, [[10, 13]], 30, 7776],
    ['a day offline', WELL_BEHAVED, '1h', 365, [[10, 11]], 31, 8736],
    ['no readings at all', WELL_BEHAVED, '5m', 30, [[-3, 33]], 17, 0],
    ['no readings at all', WELL_BEHAVED, '1h', 365, [[-3, 368]], 17, 0],
    ['no readings at all', WELL_BEHAVED, '1d', 3650, [[-3, 3653]], 8, 0],
    ['the demo, no readings at all', DEMO_LIKE, '5m', 30, [[-3, 33]], 17, 0],
    ['newest first, 100 rows', NEWEST_100, '5m', 30, [], 91, 8640],
    ['newest first, 100 rows', NEWEST_100, '1h', 365, [], 92, 8760],
    ['newest first, 100 rows', NEWEST_100, '1d', 3650, [], 38, 3650],
    ['newest first, 100 rows, a day offline', NEWEST_100, '5m', 30, [[10, 11]], 90, 8352],
  ] as const)('%s, %s over %i days', async (_name, api, interval, days, offline, requests, rows) => {
    expect(await walked(api, interval, days, offline)).toEqual([requests, rows, true]);
  });
});
