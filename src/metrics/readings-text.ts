// Renders the readings families and the readings health gauges straight to exposition bytes, once per round (and
// again when a reading expires), so a scrape only copies cached bytes. Gauges only, no timestamps: the same bytes
// are valid text 0.0.4 and an OpenMetrics body.
import type { StationReading } from '../boundaries/measurements.js';
import { SKIP_REASONS } from '../boundaries/measurements.js';
import type { ReadingsData, RoundStats } from '../collectors/readings-data.js';
import { READING_STATES, readingExpiresAtMs } from '../collectors/readings-data.js';
import { READING_METRICS as M, type MetricSpec } from './catalog.js';
import { escapeLabelValue } from './escape.js';
import { familyHeader, singleSample } from './gauge-text.js';

export interface ReadingsRenderOptions {
  readonly nowMs: number;
  /** A reading whose row is older than this at nowMs is left out. */
  readonly maxAgeMs: number;
  /** Whether the station is in the last good station list: readings of a station that left it vanish with it. */
  readonly listed: (id: number) => boolean;
}

export interface RenderedReadings {
  readonly text: Buffer;
  /**
   * The bytes stay right for every time up to this one (Unix ms): then the oldest reading shown expires and the
   * text must be rendered again. Infinity when no reading is shown. A new round or station list also re-renders.
   */
  readonly validUntilMs: number;
}

// prom-client prints values with `${value}`, which Prometheus parses back to the same float64; ids are
// integers from JSON, printed in full (never 1e+21-style below 2^53).
const num = (v: number): string => String(v);

type Pick1 = (r: StationReading) => number | undefined;
type PickMany = (r: StationReading) => ReadonlyMap<string, number>;

/** One family with one series per station, or nothing when no station has the value. */
function single(spec: MetricSpec, shown: readonly StationReading[], pick: Pick1): string {
  let lines = '';
  for (const r of shown) {
    const v = pick(r);
    if (v !== undefined) lines += `${spec.name}{id="${r.id}"} ${num(v)}\n`;
  }
  return lines === '' ? '' : familyHeader(spec) + lines;
}

/** One family with a series per station and upstream name (substance, index), names in a stable order. */
function labelled(spec: MetricSpec, label: string, shown: readonly StationReading[], pick: PickMany): string {
  let lines = '';
  for (const r of shown) {
    const values = pick(r);
    if (values.size === 0) continue;
    for (const name of [...values.keys()].sort()) {
      lines += `${spec.name}{id="${r.id}",${label}="${escapeLabelValue(name)}"} ${num(values.get(name) as number)}\n`;
    }
  }
  return lines === '' ? '' : familyHeader(spec) + lines;
}

/** The health gauges of one round; every state and reason is present, at 0 when nothing happened. */
export function renderRoundHealth(stats: RoundStats): string {
  let text = familyHeader(M.stations);
  for (const state of READING_STATES)
    text += `${M.stations.name}{state="${state}"} ${stats.stations[state]}\n`;
  text += familyHeader(M.fieldsSkipped);
  for (const reason of SKIP_REASONS)
    text += `${M.fieldsSkipped.name}{reason="${reason}"} ${stats.skippedFields[reason]}\n`;
  text += singleSample(M.rowsRejected, stats.rejectedRows);
  text += singleSample(M.lastRound, stats.startedAtMs / 1000);
  text += singleSample(M.lastRoundDuration, stats.durationMs / 1000);
  return text;
}

/** The readings shown at nowMs, by id, and when the first of them expires. */
function shownAt(
  data: ReadingsData,
  options: ReadingsRenderOptions,
): { shown: StationReading[]; validUntilMs: number } {
  const shown: StationReading[] = [];
  let validUntilMs = Number.POSITIVE_INFINITY;
  for (const r of data.readings.values()) {
    const expiresMs = readingExpiresAtMs(r, options.maxAgeMs);
    if (options.nowMs > expiresMs || !options.listed(r.id)) continue;
    shown.push(r);
    validUntilMs = Math.min(validUntilMs, expiresMs);
  }
  shown.sort((a, b) => a.id - b.id);
  return { shown, validUntilMs };
}

export function renderReadingsText(data: ReadingsData, options: ReadingsRenderOptions): RenderedReadings {
  const { shown, validUntilMs } = shownAt(data, options);
  const text =
    labelled(M.concentration, 'substance', shown, (r) => r.concentrations) +
    single(M.temperature, shown, (r) => r.temperatureCelsius) +
    single(M.humidity, shown, (r) => r.humidityRatio) +
    single(M.pressure, shown, (r) => r.pressurePascals) +
    labelled(M.aqi, 'index', shown, (r) => r.aqi) +
    single(M.timestamp, shown, (r) => r.atMs / 1000) +
    renderRoundHealth(data.round);
  return { text: Buffer.from(text, 'utf8'), validUntilMs };
}
