// The network's figures from its stations': СИ and НП with the station and substance that set them, for a year
// ИЗА5 with its five terms, and the pollution level by each indicator and the one that applies.
import { isSubstance, normValue } from '../norms/lookup.js';
import { type Indicator, IZA_TERMS, izaExponent, type Level, levelBy } from '../norms/reporting.js';
import type { SeriesFigures } from './figures.js';
import { DAY_MS, type Period } from './series.js';

export interface StationFigures {
  readonly id: string;
  readonly name: string;
  readonly series: readonly SeriesFigures[];
}

export interface SetBy {
  readonly value: number;
  readonly stationId: string;
  readonly stationName: string;
  readonly substance: string;
}

export interface IzaTerm {
  readonly substance: string;
  /** The mean of the stations' valid annual means, µg/m³. */
  readonly mean: number;
  readonly norm: number;
  readonly exponent: number;
  readonly term: number;
  readonly stations: number;
}

export interface IndicatorLevel {
  readonly indicator: Indicator;
  readonly value: number;
  readonly level: Level;
}

export interface NetworkFigures {
  readonly si: SetBy | undefined;
  readonly np: SetBy | undefined;
  /** Only for a period of a year or more. */
  readonly iza: { readonly value: number; readonly terms: readonly IzaTerm[] } | undefined;
  readonly levels: readonly IndicatorLevel[];
  /** The level that applies: the highest, with the indicators that reach it. */
  readonly level: { readonly level: Level; readonly setBy: readonly Indicator[] } | undefined;
  /** Mean and lowest data capture over the station's substances that have any data. */
  readonly capture: { readonly mean: number; readonly lowest: SetBy } | undefined;
}

/** Half away from zero at `decimals`, after taking off binary noise (2.35 is 2.35000000000000008882). */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  const scaled = Number((Math.abs(value) * scale).toPrecision(12));
  return (Math.sign(value) * Math.round(scaled)) / scale;
}

export function networkFigures(stations: readonly StationFigures[], period: Period): NetworkFigures {
  const si = highest(stations, (s) => s.single?.si);
  const np = highest(stations, (s) => s.single?.p);
  const iza = period.toMs - period.fromMs >= 365 * DAY_MS ? izaOf(stations) : undefined;
  const levels: IndicatorLevel[] = [];
  // Judged on the unrounded value, as the counts above ПДК are: СИ 10.001 is очень высокий with one value above
  // 10 ПДК; the printing (formatIndicator) shows it as 10.001 so that figure and level agree.
  const push = (indicator: Indicator, value: number | undefined): void => {
    if (value !== undefined) levels.push({ indicator, value, level: levelBy(indicator, value) });
  };
  push('si', si?.value);
  push('np', np?.value);
  push('iza', iza?.value);
  const top = Math.max(0, ...levels.map((l) => l.level));
  const level =
    levels.length === 0
      ? undefined
      : {
          level: top as Level,
          setBy: levels.filter((l) => l.level === top).map((l) => l.indicator),
        };
  return { si, np, iza, levels, level, capture: captureOf(stations) };
}

function highest(
  stations: readonly StationFigures[],
  pick: (s: SeriesFigures) => number | undefined,
): SetBy | undefined {
  let best: SetBy | undefined;
  for (const station of stations)
    for (const series of station.series) {
      const value = pick(series);
      if (value === undefined || (best && value <= best.value)) continue;
      best = { value, stationId: station.id, stationName: station.name, substance: series.substance };
    }
  return best;
}

/** ИЗА5 from the substances with an annual norm (ПДК с.г., else с.с.) and at least one valid annual mean. */
export function izaOf(stations: readonly StationFigures[]): NetworkFigures['iza'] {
  const means = new Map<string, number[]>();
  for (const station of stations)
    for (const s of station.series) {
      if (!s.annualValid || s.mean === undefined) continue;
      means.set(s.substance, [...(means.get(s.substance) ?? []), s.mean]);
    }
  const terms: IzaTerm[] = [];
  for (const [substance, values] of means) {
    const norm = normValue(substance, 'pdk-annual') ?? normValue(substance, 'pdk-daily');
    if (norm === undefined || !isSubstance(substance)) continue;
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const exponent = izaExponent(substance);
    terms.push({ substance, mean, norm, exponent, term: (mean / norm) ** exponent, stations: values.length });
  }
  if (terms.length === 0) return undefined;
  terms.sort((a, b) => b.term - a.term);
  const five = terms.slice(0, IZA_TERMS);
  return { value: five.reduce((sum, t) => sum + t.term, 0), terms: five };
}

function captureOf(stations: readonly StationFigures[]): NetworkFigures['capture'] {
  // A station without readings is in it at 0 %: the lowest capture names it.
  const all = stations.flatMap((station) =>
    station.series.map((s) => ({
      value: s.capture,
      stationId: station.id,
      stationName: station.name,
      substance: s.substance,
    })),
  );
  if (all.length === 0) return undefined;
  const lowest = all.reduce((low, s) => (s.value < low.value ? s : low));
  return { mean: all.reduce((sum, s) => sum + s.value, 0) / all.length, lowest };
}
