// The readings collector as users run it (node dist/main.js --collector.measurements) against the simulator: what
// it asks the API for, what it serves, and that it stays silent when off.
import { describe, expect, it } from 'vitest';
import { demoHasNoReadings, demoRow } from '../src/demo/readings.js';
import { demoStations } from '../src/demo/stations.js';
import type { ExporterProcess } from './support/exporter-process.js';
import { eventually, get, lines, sample } from './support/http.js';
import { expectOnlyKnownLint } from './support/promtool.js';
import { useUpstreamFixture } from './support/upstream-fixture.js';

const KEY = 'e2e-readings-key-3f9a71';
const fixture = useUpstreamFixture(KEY);
const posts = demoStations();
const listed = posts.map((p) => p.id);
const TIMESTAMP = 'cityair_measurement_timestamp_seconds';

const scrape = async (p: ExporterProcess): Promise<string> => (await get(`${p.url}/metrics`)).text;

/** The scrape once it holds a reading of each of `ids` (the first round follows the first station list). */
const withReadingsOf = (p: ExporterProcess, ids: readonly number[]): Promise<string> =>
  eventually(async () => {
    const text = await scrape(p);
    return ids.every((id) => sample(text, `${TIMESTAMP}{id="${id}"}`) !== undefined) ? text : undefined;
  });

const readingIds = (text: string): number[] =>
  lines(text, TIMESTAMP).map((l) => Number(/id="(\d+)"/.exec(l)?.[1]));

describe('readings', () => {
  it('serves the readings of every listed station in µg/m³, asking only for listed ids', async () => {
    const p = await fixture.exporter('--collector.measurements');
    const withRows = listed.filter((id) => !demoHasNoReadings(id));
    const text = await withReadingsOf(p, withRows);
    expect(readingIds(text).sort()).toEqual([...withRows].sort());
    for (const id of withRows) {
      // The simulator sends mg/m³; the value must be that of the demo row at the reading's own time, × 1000.
      const atMs = (sample(text, `${TIMESTAMP}{id="${id}"}`) ?? Number.NaN) * 1000;
      const pm2 = demoRow(id, atMs).pm2;
      expect(typeof pm2).toBe('number');
      const served = sample(
        text,
        `cityair_concentration_micrograms_per_cubic_meter{id="${id}",substance="pm2.5"}`,
      );
      expect(served, `station ${id}`).toBeCloseTo(Number(pm2) * 1000, 6);
    }
    const asked = fixture.sim().readingsLog();
    expect(new Set(asked)).toEqual(new Set(listed));
    expectOnlyKnownLint(text);
  });

  it('asks only for the stations of --measurements.stations that are listed', async () => {
    const [a, b] = listed.filter((id) => !demoHasNoReadings(id));
    if (a === undefined || b === undefined) throw new Error('the demo lists stations');
    const p = await fixture.exporter('--collector.measurements', `--measurements.stations=${a},${b},999999`);
    const text = await withReadingsOf(p, [a, b]);
    expect(readingIds(text).sort()).toEqual([a, b].sort());
    expect([...new Set(fixture.sim().readingsLog())].sort()).toEqual([a, b].sort());
  });

  it('sends no readings request and serves no readings series when the collector is off', async () => {
    const p = await fixture.exporter('--upstream.min-interval=0s');
    const first = await eventually(async () => {
      const text = await scrape(p);
      return sample(text, 'cityair_up') === 1 ? text : undefined;
    });
    // A round would start as soon as the first list arrived; a second list fetched since leaves it time to ask.
    const second = await scrape(p);
    expect(fixture.sim().requestCount()).toBeGreaterThanOrEqual(2);
    expect(fixture.sim().readingsLog()).toEqual([]);
    for (const text of [first, second])
      expect(text).not.toMatch(/^(# (HELP|TYPE) )?cityair_(measurement|concentration)/m);
  });
});
