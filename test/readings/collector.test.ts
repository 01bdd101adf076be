// The readings collector in simulated time with a fake read: rounds on their own timer, ids only from the
// station list, a Retry-After pausing the collector, unknown units logged once, and a scrape that never waits.
import { Writable } from 'node:stream';
import pino from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/cli.js';
import { createExporterRegistry } from '../../src/exposition/exporter-registry.js';
import { composeScrape } from '../../src/exposition/scrape.js';
import { createReadingsCollector } from '../../src/readings/collector.js';
import { afterSuccess, type CollectorState } from '../../src/refresh/policy.js';
import { stationsCollectorOf } from '../../src/stations/collector.js';
import type { StationList } from '../../src/stations/schema.js';
import type { Validate } from '../../src/upstream/exchange.js';
import type { Result } from '../../src/upstream/failure.js';
import { type FakeClock, fakeClock } from '../support/fake-clock.js';
import { lines } from '../support/http.js';
import { stationListOf } from '../support/station-list.js';

const MINUTE = 60_000;
const SETTINGS: Config['readings'] = {
  enabled: true,
  interval: '5m',
  refreshIntervalMs: 5 * MINUTE,
  maxAgeMs: 30 * MINUTE,
  stations: undefined,
  concurrency: 2,
  maxBodyBytes: 2 * 1024 * 1024,
};

const list = (ids: number[]): StationList => stationListOf(ids, { tz: 'UTC', utcOffsetSeconds: 0 });

/** A readings answer with one row at `atMs`: PM2.5 in mg/m³ and a field in a unit nobody converts. */
function answer(id: number, atMs: number): Result<unknown> {
  return {
    ok: true,
    value: {
      meta: { units: { pm2: 'mg/m³', ch2o: 'ppb' } },
      data: [{ postId: id, date: new Date(atMs).toISOString().replace('.000Z', 'Z'), pm2: 0.012, ch2o: 3 }],
    },
  };
}

/** The station list as the readings see it, always serving `state`'s list. */
function stationsOf(state: () => CollectorState<StationList>, maxAgeMs = 10 * MINUTE) {
  return stationsCollectorOf(
    {
      state,
      refreshIfDue: async () => 'settled' as const,
      inFlight: () => false,
      start: () => undefined,
      stop: async () => undefined,
      firstData: Promise.resolve(),
    },
    maxAgeMs,
  );
}

function setup(clock: FakeClock, ids: number[], settings: Partial<Config['readings']> = {}) {
  const asked: number[][] = [];
  const logLines: {
    level: number;
    msg: string;
    field?: string;
    unit?: string;
    id?: number;
    ids?: number[];
    collector?: string;
  }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  let reply = (id: number): Promise<Result<unknown>> => Promise.resolve(answer(id, clock.now() - MINUTE));
  // The API as the slice sees it: raw JSON per path, validated by the slice's own schema.
  const upstream = {
    getJson: async <T>(path: string, validate: Validate<T>): Promise<Result<T>> => {
      const id = Number(/\/Posts\/(\d+)\/measurements/.exec(path)?.[1]);
      (asked.at(-1) as number[]).push(id);
      const raw = await reply(id);
      return raw.ok ? validate(raw.value) : raw;
    },
  };
  let listed = () => ids;
  // One list object per id set, as a refresh makes: the slice caches what it shows per list.
  let current = { ids: listed(), state: afterSuccess({ data: list(listed()), fetchedAtMs: clock.now() }, 5) };
  const stations = stationsOf(() => {
    if (current.ids !== listed())
      current = { ids: listed(), state: afterSuccess({ data: list(listed()), fetchedAtMs: clock.now() }, 5) };
    return current.state;
  });
  const collector = createReadingsCollector({
    config: {
      readings: { ...SETTINGS, ...settings },
      upstream: { maxBackoffMs: MINUTE } as Config['upstream'],
    },
    upstream,
    registry: new Registry(),
    stations,
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
    setListed: (f: () => number[]) => {
      listed = f;
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
    // The round resumes with the station the API refused.
    expect(t.asked.at(-1)).toEqual([2, 1]);
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
    // The collector's lines are bound to its name in the code and on the status page: readings.
    expect(unknown[0]).toMatchObject({ collector: 'readings' });
  });
});

describe('the readings log', () => {
  const INFO = 30;
  const WARN = 40;

  it('names a station whose rows are dated ahead of the clock once, however many rounds send them', async () => {
    const clock = fakeClock();
    const t = setup(clock, [1, 2, 3]);
    t.setReply(async (id) =>
      id === 3 ? answer(id, clock.now() - MINUTE) : answer(id, Date.UTC(2099, 0, 1)),
    );
    t.newRound();
    t.collector.start();
    await clock.advance(16 * MINUTE);
    await t.collector.stop();
    const ahead = t.logLines.filter((l) => l.msg.includes("dated ahead of the exporter's clock"));
    expect(ahead.map((l) => [l.level, l.id])).toEqual([
      [WARN, 1],
      [WARN, 2],
    ]);
    expect(t.collector.state().current?.data.round.futureRows).toBe(2);
  });

  it('warns once about --measurements.stations ids the list lacks, and again when that set changes', async () => {
    const clock = fakeClock();
    const t = setup(clock, [1, 2, 3], { stations: [2, 3, 99, 98] });
    const missing = () =>
      t.logLines
        .filter((l) => l.msg.includes('--measurements.stations names stations'))
        .map((l) => [l.level, l.ids]);
    t.newRound();
    t.collector.start();
    await clock.advance(11 * MINUTE);
    expect(missing()).toEqual([[WARN, [98, 99]]]);
    t.setListed(() => [1, 2]);
    await clock.advance(10 * MINUTE);
    expect(missing()).toEqual([
      [WARN, [98, 99]],
      [WARN, [3, 98, 99]],
    ]);
    t.setListed(() => [2, 3, 98, 99]);
    await clock.advance(10 * MINUTE);
    await t.collector.stop();
    expect(missing()).toHaveLength(2);
  });

  it('says at info when readings first work, and at each change between working and failing', async () => {
    const clock = fakeClock();
    const t = setup(clock, [1, 2]);
    let up = true;
    t.setReply(async (id) =>
      up ? answer(id, clock.now() - MINUTE) : { ok: false, reason: 'http_5xx', message: 'HTTP 502' },
    );
    t.newRound();
    t.collector.start();
    await clock.advance(11 * MINUTE);
    up = false;
    await clock.advance(15 * MINUTE);
    up = true;
    await clock.advance(15 * MINUTE);
    await t.collector.stop();
    expect(t.logLines.filter((l) => l.level === INFO).map((l) => l.msg)).toEqual([
      'readings work: first successful round',
      'readings stopped working: every request of the round failed',
      'readings work again',
    ]);
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
    const registry = createExporterRegistry(
      { version: 't', revision: 't', nodeVersion: 'v0' },
      { processMetrics: false },
    );
    const sources = [stationsOf(() => stationState).source, t.collector.source];
    const body = Buffer.concat(
      await composeScrape(sources, registry, { waitMs: 1000, format: 'text', gzip: false }, clock.now),
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
    let ids = [1, 2];
    t.setListed(() => ids);
    const source = t.collector.source;
    const shown = () =>
      lines(
        source.collect(clock.now(), 'settled').cached?.text.toString('utf8') ?? '',
        'cityair_measurement_timestamp_seconds',
      ).map((l) => l.slice(l.indexOf('"') + 1, l.lastIndexOf('"')));
    expect(shown()).toEqual(['1', '2']);
    ids = [2];
    expect(shown()).toEqual(['2']);
    await t.collector.stop();
  });
});
