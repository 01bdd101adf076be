// Numbers and times as a person writes them: rounded as the reviews round, a decimal comma in Russian, and times
// on the clock the period was given in.
import { INDICATOR_DECIMALS, type Indicator, levelEdges, withoutNoise } from '../norms/reporting.js';
import { roundTo } from './network.js';

export type Lang = 'ru' | 'en';

/** `value` to `decimals` places, as text; '' for a missing value. Thousands are grouped only when asked. */
export function formatNumber(value: number | undefined, decimals: number, lang: Lang, group = false): string {
  if (value === undefined || !Number.isFinite(value)) return '';
  const fixed = roundTo(value, decimals).toFixed(decimals);
  const [whole = '', fraction] = fixed.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = sign ? whole.slice(1) : whole;
  const grouped = group ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'ru' ? '\u00a0' : ',') : digits;
  const point = lang === 'ru' ? ',' : '.';
  return `${sign}${grouped}${fraction === undefined ? '' : `${point}${fraction}`}`;
}

/**
 * СИ, П/НП or ИЗА as printed: to its usual places, and with more when rounding would put it on a level edge it is
 * not on (СИ 10.001 is "10.001", since "10.0" reads высокий; П 0.03 % is "0.03", since "0.0" reads no exceedance),
 * so that the printed figure, its level and the counts above ПДК agree.
 */
export function formatIndicator(value: number | undefined, indicator: Indicator, lang: Lang): string {
  if (value === undefined || !Number.isFinite(value)) return '';
  return formatNumber(withoutNoise(value), indicatorDecimals(value, indicator), lang);
}

/** The places `formatIndicator` prints `value` with: the usual, or more near a level edge it is not on. */
export function indicatorDecimals(value: number, indicator: Indicator): number {
  const exact = withoutNoise(value);
  const edges = levelEdges(indicator);
  let decimals = INDICATOR_DECIMALS[indicator];
  while (decimals < 6 && roundTo(exact, decimals) !== exact && edges.includes(roundTo(exact, decimals)))
    decimals++;
  return decimals;
}

/** "2026-10-01 13:20" on the clock of `offsetMinutes`, with the offset when it is not UTC. */
export function formatTime(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 16)} ${offsetText(offsetMinutes)}`;
}

export function formatDate(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

export function offsetText(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'UTC';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
