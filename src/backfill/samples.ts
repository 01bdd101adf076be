// Which samples one row becomes: the live readings' families, names, labels and conversions, plus the station's
// descriptive families from today's station list, so that the dashboards' joins on cityair_station_info find a
// name for every past row. Each sink (OpenMetrics text, remote write) turns these into its own encoding.
import type { MetricSpec } from '../exposition/catalog.js';
import { READING_FAMILIES } from '../readings/families.js';
import type { StationReading } from '../readings/schema.js';
import { STATION_METRICS, stationInfoLabels } from '../stations/metrics.js';
import type { Station } from '../stations/schema.js';

/** The families a backfill writes, in the order their samples appear for each row. */
export const BACKFILL_FAMILIES: readonly MetricSpec[] = [
  ...READING_FAMILIES.map((f) => f.spec),
  STATION_METRICS.info,
  STATION_METRICS.latitude,
  STATION_METRICS.longitude,
];

/** A label pair; the station's `id` comes first, the user's --label pairs last. */
export type Label = readonly [string, string];

/** One series of a station: its family and labels. */
export interface Series {
  readonly family: MetricSpec;
  readonly labels: readonly Label[];
}

/**
 * Everything a station's rows need to become samples: its series, each made once (on first use) into what a sink
 * writes it as (its encoded name and labels, its batch), and reused for every row.
 */
export interface StationSeries<T> {
  readonly station: Station;
  /** The series of a family, with an extra label (substance, index) when the family has one. */
  readonly get: (family: MetricSpec, label?: string, value?: string) => T;
}

export function stationSeries<T>(
  station: Station,
  extraLabels: readonly Label[],
  make: (series: Series) => T,
): StationSeries<T> {
  // By family, then by substance or index: no key string is built per sample.
  const plain = new Map<MetricSpec, T>();
  const named = new Map<MetricSpec, Map<string, T>>();
  const id: Label = ['id', String(station.id)];
  const made = (family: MetricSpec, own: readonly Label[]): T =>
    make({ family, labels: [...own, ...extraLabels] });
  const get = (family: MetricSpec, label?: string, value?: string): T => {
    if (label === undefined || value === undefined) {
      let series = plain.get(family);
      if (series === undefined) {
        const own: Label[] = family === STATION_METRICS.info ? stationInfoLabels(station) : [id];
        series = made(family, own);
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
      series = made(family, [id, [label, value]]);
      byName.set(value, series);
    }
    return series;
  };
  return { station, get };
}

/** Takes one sample: its series as the sink made it, its value, and the row's time (ms). */
export type Visit<T> = (series: T, value: number, atMs: number) => void;

/** Calls `visit` for each sample of one row, in the order of BACKFILL_FAMILIES. */
export function forEachSample<T>(row: StationReading, series: StationSeries<T>, visit: Visit<T>): void {
  const at = row.atMs;
  for (const f of READING_FAMILIES) {
    if (f.label === undefined) {
      const value = f.value(row);
      if (value !== undefined) visit(series.get(f.spec), value, at);
    } else {
      // In the parser's order (fixed for an answer): sorting would cost an array per row and family, for nothing.
      for (const [name, value] of f.values(row)) visit(series.get(f.spec, f.label, name), value, at);
    }
  }
  const { station } = series;
  visit(series.get(STATION_METRICS.info), 1, at);
  if (station.latitude !== undefined) visit(series.get(STATION_METRICS.latitude), station.latitude, at);
  if (station.longitude !== undefined) visit(series.get(STATION_METRICS.longitude), station.longitude, at);
}
