import { describe, expect, it } from 'vitest';
import { BACKFILL_FAMILIES, forEachSample, type Series, stationSeries } from '../../src/backfill/samples.js';
import { READING_METRICS } from '../../src/readings/metrics.js';
import type { StationReading } from '../../src/readings/schema.js';
import { STATION_METRICS } from '../../src/stations/metrics.js';
import { plainStation } from '../support/station-list.js';

const AT = Date.UTC(2026, 9, 1, 12);
const READING: StationReading = {
  id: 7,
  atMs: AT,
  concentrations: new Map([
    ['pm2.5', 12.5],
    ['no2', 40],
  ]),
  temperatureCelsius: -3,
  humidityRatio: undefined,
  pressurePascals: 99_000,
  aqi: new Map([['cityair', 4]]),
};
const STATION = plainStation(7, {
  name: 'Ленина 1',
  description: 'школа',
  tz: 'Asia/Novosibirsk',
  latitude: 55,
});

/** Each sample as `name{labels} value @ms`, in the order visited, and the number of series made. */
function samplesOf(reading: StationReading, extra: readonly (readonly [string, string])[] = []) {
  let made = 0;
  const series = stationSeries(STATION, extra, (s: Series) => {
    made++;
    return s;
  });
  const out: string[] = [];
  const visit = (s: Series, value: number, at: number): void => {
    out.push(`${s.family.name}{${s.labels.map(([n, v]) => `${n}=${v}`).join(',')}} ${value} @${at - AT}`);
  };
  forEachSample(reading, series, visit);
  forEachSample({ ...reading, atMs: AT + 1 }, series, () => {});
  return { out, made: () => made };
}

describe('forEachSample', () => {
  it('visits the row’s readings and the station’s descriptive families, at the row’s time', () => {
    expect(samplesOf(READING, [['job', 'backfill']]).out).toEqual([
      'cityair_concentration_micrograms_per_cubic_meter{id=7,substance=pm2.5,job=backfill} 12.5 @0',
      'cityair_concentration_micrograms_per_cubic_meter{id=7,substance=no2,job=backfill} 40 @0',
      'cityair_temperature_celsius{id=7,job=backfill} -3 @0',
      'cityair_pressure_pascals{id=7,job=backfill} 99000 @0',
      'cityair_aqi{id=7,index=cityair,job=backfill} 4 @0',
      `cityair_measurement_timestamp_seconds{id=7,job=backfill} ${AT / 1000} @0`,
      'cityair_station_info{id=7,name=Ленина 1,description=школа,tz=Asia/Novosibirsk,job=backfill} 1 @0',
      'cityair_station_latitude_degrees{id=7,job=backfill} 55 @0',
    ]);
  });

  it('makes each series once for all the rows of a station', () => {
    const { out, made } = samplesOf(READING);
    expect(made()).toBe(out.length);
  });
});

describe('BACKFILL_FAMILIES', () => {
  it('are the readings families of the live exposition and the station families a dashboard joins on', () => {
    expect(BACKFILL_FAMILIES).toContain(READING_METRICS.concentration);
    expect(BACKFILL_FAMILIES).toContain(STATION_METRICS.info);
    expect(BACKFILL_FAMILIES.filter((f) => f.type !== 'gauge')).toEqual([]);
  });
});
