// Row dates read strictly to UTC instants, and a station clock running ahead as an operator meets it: a row dated
// 2099 next to a genuine one, through the real server. The genuine reading is served, the future row is counted and
// never shown, and no age goes negative.
import { afterEach, describe, expect, it } from 'vitest';
import { createReadingsCollector } from '../../src/readings/collector.js';
import { FUTURE_TOLERANCE_MS, isFutureDated, parseUtcDate } from '../../src/readings/dates.js';
import { createStationsCollector } from '../../src/stations/collector.js';
import type { ElementsReader, Validate } from '../../src/upstream/exchange.js';
import { eventually, lines, sample } from '../support/http.js';
import { inProcessServer } from '../support/in-process.js';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

const posts = [1, 2, 3].map((id) => ({ id, name: `Station ${id}`, isOnline: true, timezone: 'UTC' }));
const FUTURE = '2099-01-01T00:00:00Z';

/** Station 1: a genuine row and a 2099 one; station 2: only 2099 rows; station 3: a genuine row. */
function readingsOf(id: number): unknown {
  const recent = new Date(Date.now() - 5 * 60_000).toISOString();
  const rows =
    id === 1
      ? [
          { postId: id, date: recent, pm2: 0.01 },
          { postId: id, date: FUTURE, pm2: 0.999 },
        ]
      : id === 2
        ? [
            { postId: id, date: FUTURE, pm2: 0.999 },
            { postId: id, date: '2098-12-31T23:55:00Z', pm2: 0.999 },
          ]
        : [{ postId: id, date: recent, pm2: 0.02 }];
  return { meta: { units: { pm2: 'mg/m³' } }, data: rows };
}

async function server() {
  const upstream = {
    getJson: async <T>(path: string, validate: Validate<T>) => {
      const id = /\/Posts\/(\d+)\/measurements/.exec(path)?.[1];
      return validate(id === undefined ? posts : readingsOf(Number(id)));
    },
    getJsonElements: async <T>(_path: string, reader: ElementsReader<T>) => reader.whole(posts),
  };
  const s = inProcessServer({
    argv: ['--collector.measurements'],
    collectors: (config, registry, log) => {
      const stations = createStationsCollector({ config, upstream, registry, log });
      return { stations, readings: createReadingsCollector({ config, upstream, registry, log, stations }) };
    },
  });
  s.stations.start();
  s.readings?.start();
  stops.push(async () => {
    await s.app.close();
    await s.readings?.stop();
    await s.stations.stop();
  });
  const metrics = async () => (await s.app.inject({ url: '/metrics' })).body;
  await eventually(async () =>
    lines(await metrics(), 'cityair_measurement_timestamp_seconds').length ? 1 : undefined,
  );
  return { app: s.app, metrics };
}

describe('rows dated ahead of the exporter clock', () => {
  it('are not served: the genuine reading wins, they are counted, and no age goes negative', async () => {
    const { app, metrics } = await server();
    const text = await metrics();
    expect(sample(text, 'cityair_concentration_micrograms_per_cubic_meter{id="1",substance="pm2.5"}')).toBe(
      10,
    );
    expect(sample(text, 'cityair_concentration_micrograms_per_cubic_meter{id="3",substance="pm2.5"}')).toBe(
      20,
    );
    expect(
      lines(text, 'cityair_concentration_micrograms_per_cubic_meter').filter((l) => l.includes('id="2"')),
    ).toEqual([]);
    const nowS = Date.now() / 1000;
    for (const line of lines(text, 'cityair_measurement_timestamp_seconds'))
      expect(Number(line.split(' ')[1]), line).toBeLessThanOrEqual(nowS);
    expect(sample(text, 'cityair_measurements_rows_future_dated')).toBe(3);
    expect(sample(text, 'cityair_measurements_stations{state="fresh"}')).toBe(2);
    expect(sample(text, 'cityair_measurements_stations{state="empty"}')).toBe(1);

    const page = (await app.inject({ url: '/' })).body;
    const ages = [...page.matchAll(/<td data-v="(-?\d+)">([^<]*)<\/td>/g)].map((m) => m[2]);
    expect(ages).toEqual(['5 min', '5 min']);
  });
});

describe('parseUtcDate', () => {
  it('reads ISO dates strictly, offset included', () => {
    const utc = Date.parse('2026-11-23T10:20:00Z');
    for (const [text, atMs] of [
      ['2026-11-23T10:20:00Z', utc],
      ['2026-11-23T10:20:00.250Z', utc + 250],
      ['2026-11-23T10:20Z', utc],
      ['2026-11-23t10:20:00z', utc],
      ['2026-11-23 10:20:00Z', utc],
      ['2026-11-23T10:20:00+00:00', utc],
      ['2026-11-23T10:20:00-00:00', utc],
      ['2026-11-23T13:20:00+03:00', utc],
      ['2026-11-23T15:50:00+0530', utc],
      ['2026-11-23T17:20:00+07', utc],
      ['2026-11-23T06:50:00-03:30', utc],
      ['2026-11-24T00:20:00+14:00', utc],
      ['2026-11-22T23:20:00-11:00', utc],
      ['2024-02-29T23:30:00-01:00', Date.parse('2024-03-01T00:30:00Z')],
    ] as const) {
      expect(parseUtcDate(text), text).toBe(atMs);
    }
    for (const bad of [
      '2026-11-23T24:00:00Z',
      '2026-11-23T10:60:00Z',
      '2026-13-01T00:00:00Z',
      '2026-02-29T00:00:00Z',
      '0099-01-01T00:00:00Z',
      '2026-11-23',
      '2026-11-23T10:20:00',
      '2026-11-23 10:40:00',
      '2026-11-23T10:20:00+24:00',
      '2026-11-23T10:20:00+03:60',
      '2026-11-23T10:20:00+3:00',
      '2026-11-23T10:20:00 +03:00',
      '2026-11-23T10:20:00Z+03:00',
    ]) {
      expect(parseUtcDate(bad), bad).toBeUndefined();
    }
  });

  it('reads the plain UTC form (read on a shorter path) exactly as the same time with an offset of +00:00', () => {
    let seed = 11;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return Math.floor((seed / 0x1_0000_0000) * n);
    };
    const pad = (n: number, width: number): string => String(n).padStart(width, '0');
    let valid = 0;
    const differ: string[] = [];
    for (let i = 0; i < 60_000; i++) {
      // Every part a little past its range at both ends, leap years, and now and then a character not a digit.
      const parts = [pad(next(10_000), 4), pad(next(14), 2), pad(next(33), 2), pad(next(26), 2)];
      const text = `${parts.join('-').replace(/-(\d\d)$/, 'T$1')}:${pad(next(62), 2)}:${pad(next(62), 2)}`;
      const odd = next(50) === 0 ? text.replace(/\d(?=\d*$)/, 'x') : text;
      const plain = parseUtcDate(`${odd}Z`);
      if (plain !== parseUtcDate(`${odd}+00:00`)) differ.push(odd);
      if (plain !== undefined) valid++;
    }
    expect(differ.slice(0, 5)).toEqual([]);
    expect(valid).toBeGreaterThan(10_000);
  });
});

describe('isFutureDated', () => {
  it('holds a row up to the tolerance ahead of the clock as present, and one past it as future', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(isFutureDated(now + FUTURE_TOLERANCE_MS, now)).toBe(false);
    expect(isFutureDated(now + FUTURE_TOLERANCE_MS + 1, now)).toBe(true);
    expect(isFutureDated(now - 86_400_000, now)).toBe(false);
  });
});
