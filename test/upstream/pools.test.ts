// --measurements.concurrency as the API counts it: requests open at the server at once, from arrival until the
// response is finished or the socket closes, through timeouts, trickling bodies, resets and Retry-After. The
// station list is read through the same pools first, as the exporter does, so an idle socket of its own is there.
import { afterEach, describe, expect, it } from 'vitest';
import { runBackfill } from '../../src/backfill/run.js';
import { newStats } from '../../src/backfill/stats.js';
import { readReadingRows, readReadings } from '../../src/readings/read.js';
import { runReadingsRound } from '../../src/readings/round.js';
import { readStations } from '../../src/stations/read.js';
import { STATION_SOCKETS } from '../../src/stations/slice.js';
import { openPools, type UpstreamPools } from '../../src/upstream/pools.js';

/** The exporter's two pools: the station list's and the readings'. */
type Pools = UpstreamPools<'stations' | 'readings'>;

import {
  type CountingUpstream,
  cycleFaults,
  startCountingUpstream,
  stationListBody,
} from '../support/counting-upstream.js';

const CONCURRENCY = 4;
const STATIONS = 120;
let up: CountingUpstream | undefined;
let pools: Pools | undefined;
afterEach(async () => {
  await pools?.close();
  await up?.close();
});

async function open(): Promise<{ up: CountingUpstream; pools: Pools }> {
  up = await startCountingUpstream(cycleFaults(40), stationListBody(STATIONS));
  const options = { baseUrl: up.baseUrl, apiKey: undefined, timeoutMs: 100, maxBodyBytes: 64 * 1024 };
  pools = openPools(
    { ...options, userAgent: 'cityair-exporter/test' },
    { stations: STATION_SOCKETS, readings: CONCURRENCY },
  );
  return { up, pools };
}

/**
 * The station list, read again until it comes: it is answered at once, but on a loaded machine the test's own
 * event loop can hold it past the pools' 100 ms timeout, which the readings' faults need. What is counted here
 * is the readings requests, not the list's.
 */
async function listOnce(pools: Pools) {
  for (let attempt = 1; ; attempt++) {
    const list = await readStations(pools.stations, 1000)();
    if (list.ok || attempt === 50) return list;
  }
}

describe('readings requests open at the API at once', () => {
  it('are never more than --measurements.concurrency in rounds of the live readings', async () => {
    const { up, pools } = await open();
    const list = await listOnce(pools);
    if (!list.ok) throw new Error(list.message);
    const fetch = readReadings(pools.readings);
    const ids = list.value.stations.map((s) => s.id);
    for (let round = 0; round < 3; round++) {
      await runReadingsRound({
        ids,
        fetch,
        concurrency: CONCURRENCY,
        previous: undefined,
        nowMs: Date.now(),
        maxAgeMs: 600_000,
        interval: '5m',
      });
      await listOnce(pools);
    }
    expect(up.requests()).toBeGreaterThan(100);
    expect(up.maxOpen()).toBeLessThanOrEqual(CONCURRENCY);
  }, 30_000);

  it('are never more than --measurements.concurrency in a backfill, its retries and pauses included', async () => {
    const { up, pools } = await open();
    const now = Date.now();
    await runBackfill({
      fetchStations: () => listOnce(pools),
      fetchRows: readReadingRows(pools.readings),
      sink: {
        station: () => ({ write: async (rows) => rows.length }),
        finish: async () => undefined,
        abort: async () => undefined,
      },
      stats: newStats(0),
      fromMs: now - 3_600_000,
      toMs: now,
      interval: '5m',
      intervalMs: 300_000,
      only: undefined,
      concurrency: CONCURRENCY,
      labels: [],
      retries: 1,
      maxBackoffMs: 10,
      now: Date.now,
      sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 10))),
      random: () => 0,
      log: { info: () => undefined, warn: () => undefined },
    });
    expect(up.requests()).toBeGreaterThan(100);
    expect(up.maxOpen()).toBeLessThanOrEqual(CONCURRENCY);
  }, 30_000);
});
