import { describe, expect, it } from 'vitest';
import { READING_STATES, type ReadingsData, type RoundStats } from '../../src/readings/data.js';
import { SKIP_REASONS } from '../../src/readings/schema.js';
import { type ServedReadings, servedReadings } from '../../src/readings/served.js';
import { readingsSource } from '../../src/readings/source.js';
import { renderReadingsText } from '../../src/readings/text.js';
import { FAILURE_REASONS } from '../../src/upstream/failure.js';
import { stationListOf } from '../support/station-list.js';

const NOW = Date.UTC(2026, 10, 23, 12);
const zero = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
const round: RoundStats = {
  startedAtMs: NOW,
  durationMs: 1000,
  stations: { ...zero(READING_STATES), fresh: 1 },
  skippedFields: zero(SKIP_REASONS),
  rejectedRows: 0,
  futureRows: 0,
  futureDated: [],
  requests: 1,
  failures: zero(FAILURE_REASONS),
  unknownUnits: [],
  retryAfterMs: undefined,
};
const data: ReadingsData = {
  readings: new Map([
    [
      1,
      {
        id: 1,
        atMs: NOW,
        concentrations: new Map([['pm2.5', 12]]),
        temperatureCelsius: -3,
        humidityRatio: undefined,
        pressurePascals: undefined,
        aqi: new Map(),
      },
    ],
  ]),
  round,
};
const served = servedReadings(30 * 60_000)(NOW, data, stationListOf([1]));

describe('readingsSource', () => {
  it('adds nothing to a scrape while there is nothing to serve', () => {
    const source = readingsSource(() => undefined);
    expect(source.collect(NOW, 'settled')).toEqual({ cached: undefined, live: '' });
    expect(source.beforeScrape).toBeUndefined();
  });

  it('serves the rendered readings text, rendered once per served set', () => {
    let now: ServedReadings = served;
    const source = readingsSource(() => now);
    const first = source.collect(NOW, 'settled').cached;
    expect(first?.text.toString()).toBe(renderReadingsText(served).toString());
    expect(first?.text.toString()).toContain('cityair_temperature_celsius{id="1"} -3');
    expect(source.collect(NOW + 1000, 'settled').cached).toBe(first);
    now = servedReadings(30 * 60_000)(NOW, data, stationListOf([1]));
    expect(source.collect(NOW + 2000, 'settled').cached).not.toBe(first);
  });
});
