// The readings collector in simulated time with a fake read: rounds on their own timer, ids only from the
// station list, a Retry-After pausing the collector, unknown units logged once, and a scrape that never waits.
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Config } from '../src/boundaries/config.js';
import { parseMeasurements } from '../src/boundaries/measurements.js';
import type { StationList } from '../src/boundaries/stations.js';
import { createReadingsCollector } from '../src/collectors/readings.js';
import { afterSuccess } from '../src/collectors/refresh-policy.js';
import { createExporterMetrics } from '../src/metrics/exporter-registry.js';
import { readingsSource } from '../src/metrics/readings-source.js';
import { composeScrape } from '../src/metrics/scrape.js';
import { stationSource } from '../src/metrics/station-source.js';
import type { MeasurementsOutcome, MeasurementsQuery } from '../src/upstream/client.js';
import { type FakeClock, fakeClock } from './support/fake-clock.js';
import { lines } from './support/http.js';

const MINUTE = 60_000;
const SETTINGS: Config['measurements'] = {
  enabled: true,
  interval: '5m',
  refreshIntervalMs: 5 * MINUTE,
  maxAgeMs: 30 * MINUTE,
  stations: undefined,
  concurrency: 2,
};

const list = (ids: number[]): StationList => ({
  stations: ids.map((id) => ({
    id,
    name: `station ${id}`,
    description: '',
    online: true,
    tz: 'UTC',
    utcOffsetSeconds: 0,
    latitude: undefined,
    longitude: undefined,
  })),
  rejected: { invalid: 0, duplicate: 0 },
  problems: [],
});

/** A readings answer with one row at `atMs`: PM2.5 in mg/m³ and a field in a unit nobody converts. */
function answer(id: number, atMs: number): MeasurementsOutcome {
  const result = parseMeasurements(id, {
    meta: { units: { pm2: 'mg/m³', ch2o: 'ppb' } },
    data: [{ postId: id, date: new Date(atMs).toISOString().replace('.000Z', 'Z'), pm2: 0.012, ch2o: 3 }],
  });
  if (!result.ok) throw new Error(result.message);
  return { ok: true, result, bytes: 100 };
}

function setup(clock: FakeClock, ids: number[], settings: Partial<Config['measurements']> = {}) {
  const asked: number[][] = [];
  const logLines: { msg: string; field?: string; unit?: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  let reply = (id: number, _q: MeasurementsQuery): Promise<MeasurementsOutcome> =>
    Promise.resolve(answer(id, clock.now() - MINUTE));
  const collector = createReadingsCollector({
    fetchMeasurements: (id, q) => {
      (asked.at(-1) as number[]).push(id);
      return reply(id, q);
    },
    stationList: () => list(ids),
    settings: { ...SETTINGS, ...settings },
    maxBackoffMs: MINUTE,
    log: pino({ level: 'debug' }, sink),
    clock,
    random: () => 1,
  });
  const newRound = () => asked.push([]);
  return {
    collector,
    asked,
    logLines,
    newRound,
    setReply: (r: typeof reply) => {
      reply = r;
    },
  };
}

describe('the readings collector', () => {
  it('runs a round at start and then every refresh-interval, asking only for listed stations', async () => {
    const clock = fakeClock();
    const t = setup(clock, [1, 2, 3], { stations: [2, 3, 99] });
    t.newRound();
    t.collector.start();
    await clock.advance(1000);
    t.newRound();
    await clock.advance(5 * MINUTE);
    await t.collector.stop();
    expect(t.asked).toEqual([
      [2, 3],
      [2, 3],
    ]);
    const data = t.collector.state().current?.data;
    expect(data?.readings.get(2)?.concentrations.get('pm2.5')).toBe(12);
  });

  it('pauses every request until a Retry-After is over, even after a round that brought data', async () => {
    const clock = fakeClock();
    const t = setup(clock, [1, 2]);
    t.setReply(async (id) =>
      id === 2
        ? { ok: false, reason: 'rate_limited', message: 'HTTP 429', retryAfterMs: 20 * MINUTE }
        : answer(id, clock.now()),
    );
    t.newRound();
    t.collector.start();
    await clock.advance(1000);
    expect(t.collector.state().current?.data.readings.has(1)).toBe(true);
    t.newRound();
    await clock.advance(19 * MINUTE);
    expect(t.asked.at(-1)).toEqual([]);
    await clock.advance(2 * MINUTE);
    await t.collector.stop();
    expect(t.asked.at(-1)).toEqual([1, 2]);
  });

  it('logs a unit it does not convert once per field and unit, however many rounds send it', async () => {
    const clock = fakeClock();
    const t = setup(clock, [1, 2]);
    t.newRound();
    t.collector.start();
    await clock.advance(16 * MINUTE);
    await t.collector.stop();
    const unknown = t.logLines.filter((l) => l.msg.includes('unit is not one the exporter converts'));
    expect(unknown).toEqual([expect.objectContaining({ field: 'ch2o', unit: 'ppb' })]);
  });
});

describe('a scrape with readings on', () => {
  it('never waits for a round: a hung readings request leaves the scrape to answer with the stations', async () => {
    const clock = fakeClock(Date.now());
    const t = setup(clock, [1, 2]);
    t.setReply(() => new Promise(() => undefined));
    t.newRound();
    t.collector.start();
    await clock.flush();
    const stationState = afterSuccess({ data: list([1, 2]), fetchedAtMs: clock.now() }, 5);
    const stations = { state: () => stationState, refreshIfDue: async () => 'settled' as const };
    const metrics = createExporterMetrics(
      { version: 't', revision: 't', nodeVersion: 'v0' },
      { processMetrics: false },
    );
    const sources = [
      stationSource(stations, 10 * MINUTE),
      readingsSource(t.collector, stations, { readingsMs: 30 * MINUTE, stationsMs: 10 * MINUTE }),
    ];
    const body = Buffer.concat(
      await composeScrape(
        sources,
        metrics.registry,
        { waitMs: 1000, format: 'text', gzip: false },
        clock.now,
      ),
    ).toString('utf8');
    expect(lines(body, 'cityair_station_online')).toHaveLength(2);
    expect(body).not.toContain('cityair_concentration_');
    expect(t.asked).toEqual([[1, 2]]);
  });

  it('drops the readings of a station once it leaves the station list, at the next scrape', async () => {
    const clock = fakeClock(Date.now());
    const t = setup(clock, [1, 2]);
    t.newRound();
    t.collector.start();
    await clock.advance(1000);
    let stationState = afterSuccess({ data: list([1, 2]), fetchedAtMs: clock.now() }, 5);
    const stations = { state: () => stationState, refreshIfDue: async () => 'settled' as const };
    const source = readingsSource(t.collector, stations, {
      readingsMs: 30 * MINUTE,
      stationsMs: 10 * MINUTE,
    });
    const ids = () =>
      lines(
        source.collect(clock.now(), 'settled').cached?.text.toString('utf8') ?? '',
        'cityair_measurement_timestamp_seconds',
      ).map((l) => l.slice(l.indexOf('"') + 1, l.lastIndexOf('"')));
    expect(ids()).toEqual(['1', '2']);
    stationState = afterSuccess({ data: list([2]), fetchedAtMs: clock.now() }, 5);
    expect(ids()).toEqual(['2']);
    await t.collector.stop();
  });
});
