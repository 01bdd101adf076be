// When the record's rounds run: the next one a full --record.interval after the last one ended, so that a round
// longer than the interval is never followed at once by another that the store has not caught up with.
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecord, type RecordRounds } from '../../src/record/record.js';
import type { Store } from '../../src/report/store.js';
import { configFrom } from '../support/in-process.js';
import { recordConfigOf } from '../support/record-config.js';
import { stationListOf } from '../support/station-list.js';

const INTERVAL_MS = 200;
const ROUND_MS = 350;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let running: RecordRounds | undefined;
afterEach(async () => {
  await running?.stop();
});

describe('the record rounds', () => {
  it('start the next round an interval after the last one ended, not after it started', async () => {
    const record = recordConfigOf([
      '--record.remote-write.url=http://127.0.0.1:9/api/v1/write',
      '--record.query.url=http://127.0.0.1:9',
      '--record.label=job=cityair',
      '--record.label=instance=x',
    ]);
    if (record === undefined) throw new Error('the record is off');
    const rounds: { startMs: number; endMs: number }[] = [];
    // A store slower than the interval: each round's one query takes ROUND_MS, then fails.
    const store: Store = {
      series: async () => [],
      samples: async () => [],
      range: async () => {
        const startMs = Date.now();
        await sleep(ROUND_MS);
        rounds.push({ startMs, endMs: Date.now() });
        throw new Error('HTTP 503 from store');
      },
      queries: () => rounds.length,
      close: async () => undefined,
    };
    running = createRecord({
      record: { ...record, intervalMs: INTERVAL_MS },
      config: configFrom(['--collector.measurements']),
      upstream: { getJson: () => Promise.reject(new Error('CityAir is not asked here')) },
      gate: { untilMs: 0 },
      stations: { lastGood: () => stationListOf([1]), firstData: Promise.resolve() },
      readings: {
        health: () => ({
          name: 'readings',
          lastSuccessMs: Date.now(),
          lastAttempt: { atMs: Date.now(), durationMs: 1, reason: undefined, message: undefined },
          consecutiveFailures: 0,
          backoffUntilMs: 0,
          serving: true,
          inFlight: false,
        }),
      },
      registry: new Registry(),
      log: pino({ level: 'silent' }),
      userAgent: 'test',
      apiKey: undefined,
      store,
    });
    running.start();
    await expect.poll(() => rounds.length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < rounds.length; i++) {
      const pause = (rounds[i]?.startMs ?? 0) - (rounds[i - 1]?.endMs ?? 0);
      expect(pause).toBeGreaterThanOrEqual(INTERVAL_MS - 5);
    }
  });
});
