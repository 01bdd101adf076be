// Renders the readings families and the readings health gauges straight to exposition bytes, once per served
// set, so a scrape only copies cached bytes. Gauges only, no timestamps: the same bytes are valid text 0.0.4 and
// an OpenMetrics body.

import type { MetricSpec } from '../exposition/catalog.js';
import { escapeLabelValue } from '../exposition/escape.js';
import { familyHeader, singleSample } from '../exposition/gauge-text.js';
import type { RoundStats } from './data.js';
import { READING_STATES } from './data.js';
import { type LabelledFamily, READING_FAMILIES, type SingleFamily } from './families.js';
import { READING_METRICS as M } from './metrics.js';
import type { StationReading } from './schema.js';
import { SKIP_REASONS } from './schema.js';
import type { ServedReadings } from './served.js';

// prom-client prints values with `${value}`, which Prometheus parses back to the same float64; ids are
// integers from JSON, printed in full (never 1e+21-style below 2^53).
const num = (v: number): string => String(v);
// The schema exports only finite numbers; this keeps a non-finite one from ever being printed, should a
// value reach the text some other way.
const printable = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);

/** One family with one series per station, or nothing when no station has the value. */
function single(spec: MetricSpec, shown: readonly StationReading[], pick: SingleFamily['value']): string {
  let lines = '';
  for (const r of shown) {
    const v = pick(r);
    if (printable(v)) lines += `${spec.name}{id="${r.id}"} ${num(v)}\n`;
  }
  return lines === '' ? '' : familyHeader(spec) + lines;
}

/** One family with a series per station and upstream name (substance, index), names in a stable order. */
function labelled(
  spec: MetricSpec,
  label: string,
  shown: readonly StationReading[],
  pick: LabelledFamily['values'],
): string {
  let lines = '';
  for (const r of shown) {
    const values = pick(r);
    if (values.size === 0) continue;
    for (const name of [...values.keys()].sort()) {
      const v = values.get(name);
      if (printable(v))
        lines += `${spec.name}{id="${r.id}",${label}="${escapeLabelValue(name)}"} ${num(v)}\n`;
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
  text += singleSample(M.rowsFutureDated, stats.futureRows);
  text += singleSample(M.lastRound, stats.startedAtMs / 1000);
  text += singleSample(M.lastRoundDuration, stats.durationMs / 1000);
  return text;
}

export function renderReadingsText(served: ServedReadings): Buffer {
  const { shown } = served;
  let text = '';
  for (const f of READING_FAMILIES)
    text +=
      f.label === undefined ? single(f.spec, shown, f.value) : labelled(f.spec, f.label, shown, f.values);
  text += renderRoundHealth(served.round);
  return Buffer.from(text, 'utf8');
}
