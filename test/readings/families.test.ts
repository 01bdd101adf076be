// The readings families are declared once: the live text and the backfill's samples write the same families with
// the same labels for the same reading, so a past row lands in the very series a scrape showed.
import { describe, expect, it } from 'vitest';
import { forEachSample, type Series, stationSeries } from '../../src/backfill/samples.js';
import type { RoundStats } from '../../src/readings/data.js';
import { READING_FAMILIES } from '../../src/readings/families.js';
import type { StationReading } from '../../src/readings/schema.js';
import { renderReadingsText } from '../../src/readings/text.js';
import { STATION_METRICS } from '../../src/stations/metrics.js';
import { renderStationText } from '../../src/stations/text.js';
import { stationListOf } from '../support/station-list.js';

const reading: StationReading = {
  id: 7,
  atMs: Date.UTC(2026, 10, 1, 12),
  concentrations: new Map([
    ['pm2.5', 12.5],
    ['no2', 40],
  ]),
  temperatureCelsius: -3,
  humidityRatio: 0.8,
  pressurePascals: 99_000,
  aqi: new Map([['cityair', 2]]),
};
const station = {
  id: 7,
  name: 'Пост "7"',
  description: 'у школы',
  online: true,
  tz: 'Asia/Novosibirsk',
  utcOffsetSeconds: 25_200,
  latitude: 55,
  longitude: 83,
};

/** The series of a text as `name{labels}`, without values and headers. */
const seriesOf = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.slice(0, l.lastIndexOf(' ')));

describe('the readings families, declared once', () => {
  it('are written by the live text and the backfill as the same series', () => {
    const round = { stations: {}, skippedFields: {} } as unknown as RoundStats;
    const live = renderReadingsText({ shown: [reading], byId: new Map([[7, reading]]), round })
      .toString()
      .split('\n')
      .filter((l) => READING_FAMILIES.some((f) => l.startsWith(`${f.spec.name}{`)))
      .join('\n');
    const seriesText = (s: Series): string =>
      `${s.family.name}{${s.labels.map(([n, v]) => `${n}="${v.replace(/"/g, '\\"')}"`).join(',')}}`;
    const past: string[] = [];
    forEachSample(reading, stationSeries(station, [], seriesText), (series) => past.push(series));
    const readingSeries = past.filter((s) => READING_FAMILIES.some((f) => s.startsWith(`${f.spec.name}{`)));
    expect(readingSeries.sort()).toEqual(seriesOf(live).sort());
    expect(readingSeries.length).toBe(7);

    const info = past.find((s) => s.startsWith(`${STATION_METRICS.info.name}{`));
    const liveInfo = seriesOf(renderStationText(stationListOf([7], station)).toString())[0];
    expect(info).toBe(liveInfo);
  });
});
