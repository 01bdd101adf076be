// Which samples one row becomes: the live readings' families, names, labels and conversions, plus the station's
// descriptive families from today's station list, so that the dashboards' joins on cityair_station_info find a
// name for every past row. Each sink (OpenMetrics text, remote write) turns these into its own encoding.
import type { MetricSpec } from '../exposition/catalog.js';
import { READING_METRICS } from '../readings/metrics.js';
import type { StationReading } from '../readings/schema.js';
import { STATION_METRICS } from '../stations/metrics.js';
import type { Station } from '../stations/schema.js';

/** The families a backfill writes, in the order their samples appear for each row. */
export const BACKFILL_FAMILIES: readonly MetricSpec[] = [
  READING_METRICS.concentration,
  READING_METRICS.temperature,
  READING_METRICS.humidity,
  READING_METRICS.pressure,
  READING_METRICS.aqi,
  READING_METRICS.timestamp,
  STATION_METRICS.info,
  STATION_METRICS.latitude,
  STATION_METRICS.longitude,
];

/** A label pair; the station's `id` comes first, the user's --label pairs last. */
export type Label = readonly [string, string];

/**
 * One series of a station: its family and labels. Built once per station and family (and substance or index),
 * then reused for every row, so a sink can cache its encoding on it.
 */
export interface Series {
  readonly family: MetricSpec;
  readonly labels: readonly Label[];
}

/** Everything a station's rows need to become samples: its series, made on first use. */
export interface StationSeries {
  readonly station: Station;
  /** The series of a family, with an extra label (substance, index) when the family has one. */
  readonly get: (family: MetricSpec, label?: string, value?: string) => Series;
}

export function stationSeries(station: Station, extraLabels: readonly Label[]): StationSeries {
  // By family, then by substance or index: no key string is built per sample.
  const plain = new Map<MetricSpec, Series>();
  const named = new Map<MetricSpec, Map<string, Series>>();
  const id: Label = ['id', String(station.id)];
  const make = (family: MetricSpec, own: readonly Label[]): Series => ({
    family,
    labels: [...own, ...extraLabels],
  });
  const get = (family: MetricSpec, label?: string, value?: string): Series => {
    if (label === undefined || value === undefined) {
      let series = plain.get(family);
      if (series === undefined) {
        const info = family === STATION_METRICS.info;
        const own: Label[] = info
          ? [id, ['name', station.name], ['description', station.description], ['tz', station.tz]]
          : [id];
        series = make(family, own);
        plain.set(family, series);
      }
      return series;
    }
    let byName = named.get(family);
    if (byName === undefined) {
      byName = new Map();
      named.set(family, byName);
    }
    let series = byName.get(value);
    if (series === undefined) {
      series = make(family, [id, [label, value]]);
      byName.set(value, series);
    }
    return series;
  };
  return { station, get };
}

/** Calls `visit` for each sample of one row, in the order of BACKFILL_FAMILIES. */
export function forEachSample(
  row: StationReading,
  series: StationSeries,
  visit: (series: Series, value: number) => void,
): void {
  const M = READING_METRICS;
  labelled(row.concentrations, 'substance', M.concentration, series, visit);
  if (row.temperatureCelsius !== undefined) visit(series.get(M.temperature), row.temperatureCelsius);
  if (row.humidityRatio !== undefined) visit(series.get(M.humidity), row.humidityRatio);
  if (row.pressurePascals !== undefined) visit(series.get(M.pressure), row.pressurePascals);
  labelled(row.aqi, 'index', M.aqi, series, visit);
  visit(series.get(M.timestamp), row.atMs / 1000);
  const { station } = series;
  visit(series.get(STATION_METRICS.info), 1);
  if (station.latitude !== undefined) visit(series.get(STATION_METRICS.latitude), station.latitude);
  if (station.longitude !== undefined) visit(series.get(STATION_METRICS.longitude), station.longitude);
}

function labelled(
  values: ReadonlyMap<string, number>,
  label: string,
  family: MetricSpec,
  series: StationSeries,
  visit: (series: Series, value: number) => void,
): void {
  // In the parser's order (fixed for an answer): sorting would cost an array per row and family, for nothing.
  for (const [name, value] of values) visit(series.get(family, label, name), value);
}
