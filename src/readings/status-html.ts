// The readings' fragment of the status page: what a station's row shows of its reading, and a reading against
// ПДК м.р., the norm Russian reports judge a short mean by: the value, the multiple of the norm it stands at, and
// the colour of that multiple's band, explained by a legend. Colour is never the only sign: the multiple is
// written beside it.
import type { ReadingsInterval } from '../config/setting-values.js';
import { bandLabels, bandOf, type Highest, highestMultiple, normValue } from '../norms/lookup.js';
import { FAMILIES, SUBSTANCE_NAMES } from '../norms/table.js';
import type { StationReading } from './schema.js';

/** What a station's row on the status page shows of its reading. */
export interface StatusReading {
  readonly pm25?: number;
  readonly pm10?: number;
  readonly aqi?: number;
  readonly atMs: number;
  /** The substance standing highest against its ПДК м.р., if the reading has one with a value. */
  readonly highest?: Highest;
}

export function statusReading(r: StationReading): StatusReading {
  const pm25 = r.concentrations.get('pm2.5');
  const pm10 = r.concentrations.get('pm10');
  const aqi = r.aqi.get('cityair');
  const highest = highestMultiple(r.concentrations, 'pdk-single');
  return {
    atMs: r.atMs,
    ...(pm25 === undefined ? {} : { pm25 }),
    ...(pm10 === undefined ? {} : { pm10 }),
    ...(aqi === undefined ? {} : { aqi }),
    ...(highest === undefined ? {} : { highest }),
  };
}

const FAMILY = 'pdk-single';
const NORM = FAMILIES[FAMILY].label;

const MEANS: Readonly<Record<ReadingsInterval, string>> = {
  '5m': `a 5-minute mean; ${NORM} applies to 20-minute means, so a multiple above 1 is a warning sign rather than an exceedance`,
  '20m': `a 20-minute mean, the averaging period of ${NORM}`,
  '1h': `an hourly mean; ${NORM} applies to 20-minute means, which may have been higher`,
  '1d': `a daily mean; ${NORM} applies to 20-minute means, which may have been much higher`,
};

/** The multiple as reports write it: two decimals below 1, one above. */
function shownMultiple(multiple: number): number {
  const digits = multiple < 1 ? 100 : 10;
  return Math.round(multiple * digits) / digits;
}

function formatMultiple(multiple: number): string {
  const shown = shownMultiple(multiple);
  return `${shown < 1 ? shown.toFixed(2) : shown.toFixed(1)}×`;
}

function rounded(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A concentration in µg/m³, coloured by its multiple of ПДК м.р. where the substance has one. */
export function concentrationCell(substance: string, value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '<td>–</td>';
  const norm = normValue(substance, FAMILY);
  if (norm === undefined) return `<td>${rounded(value)}</td>`;
  const multiple = value / norm;
  const shown = rounded(value);
  // The colour follows the number written beside it: 1.0× is within the norm, as for the alerts.
  return `<td class="b${bandOf(shownMultiple(multiple))}" data-v="${shown}">${shown} <span class="x">${formatMultiple(multiple)}</span></td>`;
}

/** The substance standing highest against its ПДК м.р., with the multiple. */
export function highestCell(highest: Highest | undefined): string {
  if (!highest) return '<td>–</td>';
  const { substance, multiple } = highest;
  const v = Math.round(multiple * 1000) / 1000;
  return `<td class="b${bandOf(shownMultiple(multiple))}" data-v="${v}">${SUBSTANCE_NAMES[substance]} ${formatMultiple(multiple)}</td>`;
}

export const HIGHEST_HEADING = `Highest × ${NORM}`;

/** What a reading is, and what the colours mean. */
export function readingsLegend(interval: ReadingsInterval): string {
  const bands = bandLabels()
    .map((label, band) => `<span class="b${band}">${label.replace('>', '&gt;')}</span>`)
    .join(' ');
  return `<p class="legend" id="legend">Readings are each station's latest row, ${MEANS[interval]} \
(--measurements.interval). Colour and × show each reading as a multiple of its ${NORM}, the Russian maximum \
single norm: ${bands}</p>`;
}
