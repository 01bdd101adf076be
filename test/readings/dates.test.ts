// A station clock running ahead, as an operator meets it: a row dated 2099 next to a genuine one, through the
// real server. The genuine reading is served, the future row is counted and never shown, and no age goes negative.
import { afterEach, describe, expect, it } from 'vitest';
import { createReadingsCollector } from '../../src/readings/collector.js';
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
