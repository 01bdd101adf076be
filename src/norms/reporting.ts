// The rules by which a period's readings become the figures of Roshydromet's reviews (СИ, П/НП, ИЗА, the pollution
// level), beside the norms they judge by. ../shared/spec/air-quality-reporting.md marks each rule confirmed or not;
// every unconfirmed one is written once, in UNCONFIRMED_RULES, so that the report states them in its notes and a
// change of mind is one edit here.
import type { Substance } from './table.js';

/** A single (разовая) value is the mean of one 20-minute slot. */
export const SINGLE_SLOT_MS = 20 * 60_000;

/** СИ and П are printed to 0.1, multiples of a norm too; ИЗА and its terms to 0.01, as the spec's example. */
export const DECIMALS = { index: 1, percent: 1, multiple: 1, concentration: 1, iza: 2 } as const;

/** Hazard classes of СанПиН 1.2.3685-21 for the substances that have one; PM has none. */
export const HAZARD_CLASS: Readonly<Partial<Record<Substance, 1 | 2 | 3 | 4>>> = {
  o3: 1,
  h2s: 2,
  no2: 3,
  so2: 3,
  co: 4,
};

/** The exponent C of ИЗА by hazard class (confirmed). */
export const IZA_EXPONENT: Readonly<Record<1 | 2 | 3 | 4, number>> = { 1: 1.7, 2: 1.3, 3: 1.0, 4: 0.9 };

/** ИЗА5: the sum of the five largest terms. */
export const IZA_TERMS = 5;

export type Level = 1 | 2 | 3 | 4;

export interface UnconfirmedRule {
  readonly key: string;
  readonly en: string;
  readonly ru: string;
}

/**
 * Every choice the spec could not confirm, as the report states it. Change a value below and its sentence here
 * together.
 */
export const UNCONFIRMED = {
  /** An exceedance is strictly above the norm (П, the counts above 1, 5, 10 ПДК, days above ПДК с.с. or WHO). */
  strictlyAbove: true,
  /** C for a substance without a hazard class (PM2.5, PM10). */
  classlessExponent: 1.0,
  /** A 20-minute slot counts as a single value when it holds at least this many rows. */
  slotMinRows: 1,
  /** The 99th percentile of daily means: nearest rank (the ceil(0.99 n)-th smallest). */
  percentile: 0.99,
} as const;

export const UNCONFIRMED_RULES: readonly UnconfirmedRule[] = [
  {
    key: 'strict',
    en: 'A value exceeds a norm when it is strictly above it (П, the counts above 1, 5 and 10 ПДК м.р., the days above ПДК с.с. and the WHO guideline).',
    ru: 'Превышение — значение строго больше норматива (П, число значений выше 1, 5 и 10 ПДК м.р., дни выше ПДК с.с. и рекомендации ВОЗ).',
  },
  {
    key: 'classless',
    en: 'PM2.5 and PM10 have no hazard class: their ИЗА exponent C is 1.0.',
    ru: 'PM2,5 и PM10 не имеют класса опасности: показатель степени C в ИЗА принят равным 1,0.',
  },
  {
    key: 'iza-norm',
    en: 'ИЗА divides the annual mean by ПДК с.г. where it is set, else by ПДК с.с.; the network term uses the mean of the stations’ valid annual means.',
    ru: 'В ИЗА годовая средняя делится на ПДК с.г., где она установлена, иначе на ПДК с.с.; для сети берётся среднее из годовых средних станций.',
  },
  {
    key: 'bands',
    en: 'Level edges read continuously: СИ ≤ 1 low, < 5 elevated, ≤ 10 high, > 10 very high; НП 0 low, < 20 elevated, < 50 high, ≥ 50 very high; ИЗА < 5 low, < 7 elevated, < 14 high, ≥ 14 very high; compared unrounded, as the counts above ПДК are; a value that would print on an edge it is not on is printed with more places (СИ 10.001, not 10.0).',
    ru: 'Границы уровней непрерывны: СИ ≤ 1 низкий, < 5 повышенный, ≤ 10 высокий, > 10 очень высокий; НП 0 низкий, < 20 повышенный, < 50 высокий, ≥ 50 очень высокий; ИЗА < 5 низкий, < 7 повышенный, < 14 высокий, ≥ 14 очень высокий; сравниваются неокруглённые значения, как и при счёте превышений ПДК; значение, которое при округлении попало бы на границу, не будучи на ней, печатается с бо́льшим числом знаков (СИ 10,001, а не 10,0).',
  },
  {
    key: 'combined',
    en: 'The level that applies is the highest of the levels by СИ, НП and (for a year) ИЗА, named with the indicator that set it.',
    ru: 'Итоговый уровень — наибольший из уровней по СИ, НП и (за год) ИЗА, с указанием показателя, который его определил.',
  },
  {
    key: 'capture',
    en: 'A daily mean counts when 18 of its 24 hours hold readings (75 %), an annual mean when 274 days do; a 20-minute slot is a single value when it holds at least one row; data capture is printed with every figure.',
    ru: 'Среднесуточное значение учитывается, если есть данные за 18 из 24 часов (75 %), годовое — за 274 дня; 20-минутный интервал даёт разовое значение, если в нём есть хотя бы одна строка; полнота данных указана для каждого показателя.',
  },
  {
    key: 'days',
    en: 'Days, hours and 20-minute slots are those of the report’s clock (the UTC offset --from is written with; UTC for a duration or Z): slots start at :00, :20 and :40, days at midnight, whatever --from is. A slot, hour or day cut by the period’s edge holds only the readings inside the period.',
    ru: 'Сутки, часы и 20-минутные интервалы — по часам отчёта (смещение от UTC, с которым записан --from; UTC для длительности или Z): интервалы начинаются в :00, :20 и :40, сутки — в полночь, независимо от --from. Интервал, час или сутки на краю периода содержат только данные внутри периода.',
  },
  {
    key: 'percentile',
    en: 'The 99th percentile of daily means is the nearest rank: the ⌈0.99 n⌉-th smallest of the n valid daily means.',
    ru: '99-й процентиль среднесуточных значений — по ближайшему рангу: ⌈0,99 n⌉-е по возрастанию из n достоверных.',
  },
];

const LEVEL_EDGES = {
  // [upper edge of низкий, of повышенный, of высокий]; `inclusive` says whether a value on an edge stays below it.
  si: { edges: [1, 5, 10], inclusive: [true, false, true] },
  np: { edges: [0, 20, 50], inclusive: [true, false, false] },
  iza: { edges: [5, 7, 14], inclusive: [false, false, false] },
} as const;

export type Indicator = keyof typeof LEVEL_EDGES;

/** The places an indicator is printed to. */
export const INDICATOR_DECIMALS: Readonly<Record<Indicator, number>> = {
  si: DECIMALS.index,
  np: DECIMALS.percent,
  iza: DECIMALS.iza,
};

/** The values at which an indicator's level changes. */
export const levelEdges = (indicator: Indicator): readonly number[] => LEVEL_EDGES[indicator].edges;

/** A figure without the binary noise of its arithmetic (1.0000000000000002 is 1): what levels and edges compare. */
export const withoutNoise = (value: number): number => Number(value.toPrecision(12));

/** The pollution level (1 низкий … 4 очень высокий) an indicator's unrounded value gives. */
export function levelBy(indicator: Indicator, unrounded: number): Level {
  const { edges, inclusive } = LEVEL_EDGES[indicator];
  const value = withoutNoise(unrounded);
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i] as number;
    if (value < edge || (inclusive[i] && value === edge)) return (i + 1) as Level;
  }
  return 4;
}

/** The ИЗА exponent of a substance. */
export function izaExponent(substance: Substance): number {
  const hazard = HAZARD_CLASS[substance];
  return hazard === undefined ? UNCONFIRMED.classlessExponent : IZA_EXPONENT[hazard];
}

/** Above a norm, as UNCONFIRMED.strictlyAbove says. */
export function exceeds(value: number, limit: number): boolean {
  return UNCONFIRMED.strictlyAbove ? value > limit : value >= limit;
}
