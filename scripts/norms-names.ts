// Names the generated norms files share: series recorded by the rules, read by the dashboard, the tests and the
// docs. Only the rules file defines them; everything else reads them from here.
import type { FamilyInfo, NormFamily } from '../src/norms/table.js';

export const CONCENTRATION = 'cityair_concentration_micrograms_per_cubic_meter';
export const NORMS_RULES_FILE = 'deploy/prometheus/cityair-norms-rules.yml';
export const NORMS_RULES_TEST_FILE = 'deploy/prometheus/cityair-norms-rules.test.yml';
export const NORMS_ANNUAL_TEST_FILE = 'deploy/prometheus/cityair-norms-annual.test.yml';
export const GENERATE_NORMS_COMMAND = 'npm run generate:norms';
export const RUNBOOK_URL = 'https://github.com/cityair-exporter/cityair-exporter/blob/main/docs/runbook.md';

const LEVEL = 'job_instance_id_substance';

/** The mean over a family's averaging time, per station and substance, in µg/m³. */
export function meanRecord(averaging: FamilyInfo['averaging']): string {
  return `${LEVEL}:${CONCENTRATION}:mean${averaging}`;
}

/** The WHO short-term guidelines differ in averaging time (24 h; O₃ 8 h) and share one ratio, labelled with it. */
const RATIO_NAMES: Readonly<Record<NormFamily, string>> = {
  'pdk-single': 'pdk_single',
  'pdk-daily': 'pdk_daily',
  'pdk-annual': 'pdk_annual',
  'who-24h': 'who_short_term',
  'who-8h': 'who_short_term',
  'who-annual': 'who_annual',
};

/** The mean as a multiple of the norm, per station and substance. */
export function ratioRecord(family: NormFamily): string {
  return `${LEVEL}:cityair_concentration_${RATIO_NAMES[family]}:ratio`;
}

export const GROUPS = {
  means: 'cityair.norms.means',
  pdk: 'cityair.norms.pdk',
  who: 'cityair.norms.who',
  annual: 'cityair.norms.annual',
} as const;

export const ALERTS = {
  pdkSingle: 'CityAirPdkSingleExceeded',
  pdkDaily: 'CityAirPdkDailyExceeded',
  extreme: 'CityAirExtremelyHighPollution',
  who: 'CityAirWhoGuidelineExceeded',
} as const;

export function runbookUrl(alert: string): string {
  return `${RUNBOOK_URL}#${alert.toLowerCase()}`;
}

/** A PromQL regular expression matching exactly these label values. */
export function oneOf(values: readonly string[]): string {
  return values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\\\$&')).join('|');
}
