// The readings families, declared once: which family each field of a reading goes to, in the order they are
// written, with the label that tells a substance or an index apart. The live text (text.ts), the backfill's
// samples and any later writer of readings read this list, so a family is added here and nowhere else.
import type { MetricSpec } from '../exposition/catalog.js';
import { READING_METRICS as M } from './metrics.js';
import type { StationReading } from './schema.js';

/** A family of one series per station: its value, or undefined when the station has none. */
export interface SingleFamily {
  readonly spec: MetricSpec;
  readonly label?: undefined;
  readonly value: (r: StationReading) => number | undefined;
}

/** A family of one series per station and upstream name (substance, index), told apart by `label`. */
export interface LabelledFamily {
  readonly spec: MetricSpec;
  /** The family's second label, after id: its name comes from the metric table. */
  readonly label: string;
  readonly values: (r: StationReading) => ReadonlyMap<string, number>;
}

export type ReadingFamily = SingleFamily | LabelledFamily;

const single = (spec: MetricSpec, value: SingleFamily['value']): SingleFamily => ({ spec, value });

const labelled = (spec: MetricSpec, values: LabelledFamily['values']): LabelledFamily => {
  const label = spec.labels[1];
  if (spec.labels[0] !== 'id' || label === undefined) throw new Error(`${spec.name} has no second label`);
  return { spec, label, values };
};

/** Every family a reading becomes, in the order they are written. */
export const READING_FAMILIES: readonly ReadingFamily[] = [
  labelled(M.concentration, (r) => r.concentrations),
  single(M.temperature, (r) => r.temperatureCelsius),
  single(M.humidity, (r) => r.humidityRatio),
  single(M.pressure, (r) => r.pressurePascals),
  labelled(M.aqi, (r) => r.aqi),
  single(M.timestamp, (r) => r.atMs / 1000),
];
