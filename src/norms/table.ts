// The norms the kit judges the air by: the Russian sanitary norms (ПДК) that CityAir's operators answer to, and
// the WHO 2021 guidelines an international reader expects. This table is the only place a norm's value is
// written; the rules file, the dashboard's thresholds, the docs' table and the status page's bands are generated
// from it or tested against it (`npm run generate:norms`).

/** The `substance` label of cityair_concentration_micrograms_per_cubic_meter, as the exporter exports it. */
export type Substance = 'pm2.5' | 'pm10' | 'no2' | 'so2' | 'co' | 'o3' | 'h2s';

export type NormFamily = 'pdk-single' | 'pdk-daily' | 'pdk-annual' | 'who-24h' | 'who-8h' | 'who-annual';

export interface FamilyInfo {
  /** How operators write the norm: "ПДК м.р.", "WHO 24 h". */
  readonly label: string;
  /** The body behind the norm; each has its own rule groups, so an operator can drop one. */
  readonly body: 'pdk' | 'who';
  /** The mean the norm applies to, as a Prometheus duration. */
  readonly averaging: '20m' | '8h' | '24h' | '1y';
  /** The same in words, for titles and descriptions. */
  readonly averagingText: string;
  readonly source: string;
}

const SANPIN = 'СанПиН 1.2.3685-21, table 1.1 (in force from 2021-03-01)';
const WHO = 'WHO global air quality guidelines, 2021';

export const FAMILIES: Readonly<Record<NormFamily, FamilyInfo>> = {
  // Roshydromet takes single samples of 20 minutes; the norm applies to 20–30-minute means.
  'pdk-single': {
    label: 'ПДК м.р.',
    body: 'pdk',
    averaging: '20m',
    averagingText: '20-minute',
    source: SANPIN,
  },
  'pdk-daily': { label: 'ПДК с.с.', body: 'pdk', averaging: '24h', averagingText: '24-hour', source: SANPIN },
  'pdk-annual': { label: 'ПДК с.г.', body: 'pdk', averaging: '1y', averagingText: 'annual', source: SANPIN },
  'who-24h': { label: 'WHO 24 h', body: 'who', averaging: '24h', averagingText: '24-hour', source: WHO },
  // The guideline is the day's highest 8-hour mean; a rolling 8-hour mean above it is that maximum above it.
  'who-8h': { label: 'WHO 8 h', body: 'who', averaging: '8h', averagingText: '8-hour', source: WHO },
  'who-annual': { label: 'WHO annual', body: 'who', averaging: '1y', averagingText: 'annual', source: WHO },
};

export interface Norm {
  readonly substance: Substance;
  readonly family: NormFamily;
  /** In the exporter's unit: ПДК are published in mg/m³, hence × 1000. */
  readonly ugPerM3: number;
}

// A substance missing from a family has no value in that norm: no rule, no band, no panel column for it.
// The daily NO₂ and O₃ values are those of 2021; the repealed ГН 2.1.6.3492-17 had 40 and 30, now the annual ones.
export const NORMS: readonly Norm[] = [
  { substance: 'pm2.5', family: 'pdk-single', ugPerM3: 160 },
  { substance: 'pm2.5', family: 'pdk-daily', ugPerM3: 35 },
  { substance: 'pm2.5', family: 'pdk-annual', ugPerM3: 25 },
  { substance: 'pm10', family: 'pdk-single', ugPerM3: 300 },
  { substance: 'pm10', family: 'pdk-daily', ugPerM3: 60 },
  { substance: 'pm10', family: 'pdk-annual', ugPerM3: 40 },
  { substance: 'no2', family: 'pdk-single', ugPerM3: 200 },
  { substance: 'no2', family: 'pdk-daily', ugPerM3: 100 },
  { substance: 'no2', family: 'pdk-annual', ugPerM3: 40 },
  { substance: 'so2', family: 'pdk-single', ugPerM3: 500 },
  { substance: 'so2', family: 'pdk-daily', ugPerM3: 50 },
  { substance: 'co', family: 'pdk-single', ugPerM3: 5000 },
  { substance: 'co', family: 'pdk-daily', ugPerM3: 3000 },
  { substance: 'co', family: 'pdk-annual', ugPerM3: 3000 },
  { substance: 'o3', family: 'pdk-single', ugPerM3: 160 },
  { substance: 'o3', family: 'pdk-daily', ugPerM3: 100 },
  { substance: 'o3', family: 'pdk-annual', ugPerM3: 30 },
  { substance: 'h2s', family: 'pdk-single', ugPerM3: 8 },
  { substance: 'h2s', family: 'pdk-annual', ugPerM3: 2 },
  { substance: 'pm2.5', family: 'who-24h', ugPerM3: 15 },
  { substance: 'pm2.5', family: 'who-annual', ugPerM3: 5 },
  { substance: 'pm10', family: 'who-24h', ugPerM3: 45 },
  { substance: 'pm10', family: 'who-annual', ugPerM3: 15 },
  { substance: 'no2', family: 'who-24h', ugPerM3: 25 },
  { substance: 'no2', family: 'who-annual', ugPerM3: 10 },
  { substance: 'so2', family: 'who-24h', ugPerM3: 40 },
  { substance: 'co', family: 'who-24h', ugPerM3: 4000 },
  { substance: 'o3', family: 'who-8h', ugPerM3: 100 },
];

/** How the substances are written for people, in the table's order. */
export const SUBSTANCE_NAMES: Readonly<Record<Substance, string>> = {
  'pm2.5': 'PM2.5',
  pm10: 'PM10',
  no2: 'NO₂',
  so2: 'SO₂',
  co: 'CO',
  o3: 'O₃',
  h2s: 'H₂S',
};

/**
 * How Russian reports grade a multiple of ПДК: at most 1, above 1 to 2, above 2 to 5, above 5. The bands are
 * multiples, not concentrations, so they hold for every substance and every norm.
 */
export const BAND_LIMITS = [1, 2, 5] as const;

export interface ExtremeCriterion {
  /** The alert's `criterion` label. */
  readonly criterion: string;
  /** Multiple of ПДК м.р. the 20-minute mean must reach. */
  readonly atLeast: number;
  /** How long it must hold, as a Prometheus duration (the alert's `for`). */
  readonly lasting: string;
  readonly text: string;
}

/**
 * Roshydromet's extremely high pollution (ЭВЗ): 50× ПДК м.р. and above; 30–49× for 8 hours or more; 20–29× for
 * more than 2 days. A mean of 50× also meets the lower criteria once it lasts; Alertmanager's inhibitions keep
 * the highest. The 5 minutes of the first ride over one failed scrape, as every alert of the kit does.
 */
export const EXTREME_POLLUTION: readonly ExtremeCriterion[] = [
  { criterion: '50x', atLeast: 50, lasting: '5m', text: '50 × ПДК м.р. or more' },
  { criterion: '30x_8h', atLeast: 30, lasting: '8h', text: '30–49 × ПДК м.р. for 8 hours or more' },
  { criterion: '20x_2d', atLeast: 20, lasting: '2d', text: '20–29 × ПДК м.р. for more than 2 days' },
];

/**
 * The share of a mean's window that must hold readings before the mean is judged against a norm: the data capture
 * air-quality reporting asks for. An hour of data after a day of silence is no 24-hour mean.
 */
export const DATA_CAPTURE = 0.75;

export interface Coverage {
  /** The slice of the window counted as covered when it holds a reading, as a Prometheus duration. */
  readonly slice: '1h' | '1d';
  /** How many such slices the window has. */
  readonly slices: number;
  /** How many of them must hold a reading before the mean counts: DATA_CAPTURE of them, rounded up. */
  readonly atLeast: number;
}

function covering(slice: Coverage['slice'], slices: number): Coverage {
  return { slice, slices, atLeast: Math.ceil(DATA_CAPTURE * slices) };
}

/**
 * What each mean needs: hours for the 8-hour and 24-hour means, days for the annual one (a year is 365 days, as
 * in Prometheus' `1y`).
 */
export const COVERAGE: Readonly<Record<'8h' | '24h' | '1y', Coverage>> = {
  '8h': covering('1h', 8),
  '24h': covering('1h', 24),
  '1y': covering('1d', 365),
};
