// The report as CSV for spreadsheets: one row per station and substance, the header in the report's language. In
// Russian the decimal comma makes `;` the separator (what a Russian spreadsheet opens); in English `,` and a point.
import { DECIMALS } from '../norms/reporting.js';
import type { SeriesFigures } from './figures.js';
import type { StationFigures } from './network.js';
import { formatIndicator, formatNumber, formatTime, type Lang } from './numbers.js';
import type { Report } from './read.js';

interface Column {
  readonly key: string;
  readonly ru: string;
  readonly en: string;
  readonly value: (s: SeriesFigures, station: StationFigures, ctx: Context) => string;
  /** Text (from the store or words): guarded against formulas. Other columns are numbers this module wrote. */
  readonly text?: true;
}

const YES_NO = { ru: ['да', 'нет'], en: ['yes', 'no'] } as const;

interface Context {
  readonly lang: Lang;
  readonly offsetMinutes: number;
  readonly incomplete: ReadonlySet<string>;
}

const num =
  (pick: (s: SeriesFigures) => number | undefined, decimals: number) =>
  (s: SeriesFigures, _station: StationFigures, ctx: Context): string =>
    formatNumber(pick(s), decimals, ctx.lang);
const pct = (pick: (s: SeriesFigures) => number | undefined) => num(pick, DECIMALS.percent);
const int = (pick: (s: SeriesFigures) => number | undefined) => num(pick, 0);

/** The columns in order; docs/report.md documents each by its key. */
export const CSV_COLUMNS: readonly Column[] = [
  { text: true, key: 'station_id', ru: 'id станции', en: 'station id', value: (_s, st) => st.id },
  { text: true, key: 'station_name', ru: 'станция', en: 'station', value: (_s, st) => st.name },
  { text: true, key: 'substance', ru: 'вещество', en: 'substance', value: (s) => s.substance },
  { text: true, key: 'resolution', ru: 'данные', en: 'data', value: (s) => s.resolution },
  {
    text: true,
    key: 'complete',
    ru: 'полные',
    en: 'complete',
    value: (_s, st, ctx) => YES_NO[ctx.lang][ctx.incomplete.has(st.id) ? 1 : 0],
  },
  { key: 'rows', ru: 'строк', en: 'rows', value: (s) => String(s.rows) },
  {
    key: 'single_values',
    ru: 'разовых значений',
    en: 'single values',
    value: (s) => (s.single ? String(s.single.count) : ''),
  },
  {
    key: 'data_capture_percent',
    ru: 'полнота данных, %',
    en: 'data capture, %',
    value: pct((s) => 100 * s.capture),
  },
  {
    key: 'mean_ugm3',
    ru: 'средняя, мкг/м³',
    en: 'mean, µg/m³',
    value: num((s) => s.mean, DECIMALS.concentration),
  },
  {
    key: 'mean_pdk_ss',
    ru: 'средняя, ПДК с.с.',
    en: 'mean, × ПДК с.с.',
    value: num((s) => s.meanOfDailyNorm, DECIMALS.multiple),
  },
  {
    key: 'max_single_ugm3',
    ru: 'макс. разовая, мкг/м³',
    en: 'max single value, µg/m³',
    value: num((s) => s.single?.max, DECIMALS.concentration),
  },
  {
    text: true,
    key: 'max_single_time',
    ru: 'время макс. разовой',
    en: 'time of max single value',
    value: (s, _st, ctx) => (s.single ? formatTime(s.single.maxAtMs, ctx.offsetMinutes) : ''),
  },
  { key: 'si', ru: 'СИ', en: 'СИ', value: (s, _st, ctx) => formatIndicator(s.single?.si, 'si', ctx.lang) },
  {
    key: 'p_percent',
    ru: 'П, %',
    en: 'П, %',
    value: (s, _st, ctx) => formatIndicator(s.single?.p, 'np', ctx.lang),
  },
  {
    key: 'above_1_pdk_mr',
    ru: 'выше 1 ПДК м.р.',
    en: 'above 1 ПДК м.р.',
    value: int((s) => s.single?.above?.[0]),
  },
  {
    key: 'above_5_pdk_mr',
    ru: 'выше 5 ПДК м.р.',
    en: 'above 5 ПДК м.р.',
    value: int((s) => s.single?.above?.[1]),
  },
  {
    key: 'above_10_pdk_mr',
    ru: 'выше 10 ПДК м.р.',
    en: 'above 10 ПДК м.р.',
    value: int((s) => s.single?.above?.[2]),
  },
  {
    key: 'time_le_1_percent',
    ru: 'до 1 ПДК м.р., %',
    en: 'up to 1 ПДК м.р., %',
    value: pct((s) => s.single?.bands?.[0]),
  },
  {
    key: 'time_1_2_percent',
    ru: '1–2 ПДК м.р., %',
    en: '1–2 ПДК м.р., %',
    value: pct((s) => s.single?.bands?.[1]),
  },
  {
    key: 'time_2_5_percent',
    ru: '2–5 ПДК м.р., %',
    en: '2–5 ПДК м.р., %',
    value: pct((s) => s.single?.bands?.[2]),
  },
  {
    key: 'time_gt_5_percent',
    ru: 'выше 5 ПДК м.р., %',
    en: 'above 5 ПДК м.р., %',
    value: pct((s) => s.single?.bands?.[3]),
  },
  { key: 'valid_days', ru: 'достоверных суток', en: 'valid days', value: (s) => String(s.validDays) },
  {
    key: 'days_above_pdk_ss',
    ru: 'суток выше ПДК с.с.',
    en: 'days above ПДК с.с.',
    value: int((s) => s.daysAboveDailyNorm),
  },
  {
    key: 'who_days_above_24h',
    ru: 'суток выше ВОЗ 24 ч',
    en: 'days above WHO 24 h',
    value: int((s) => s.whoDaysAbove),
  },
  {
    key: 'who_p99_daily_ugm3',
    ru: '99-й процентиль среднесуточных, мкг/м³',
    en: '99th percentile of daily means, µg/m³',
    value: num((s) => s.whoP99, DECIMALS.concentration),
  },
];

export function reportCsv(report: Report, lang: Lang, offsetMinutes: number): string {
  const sep = lang === 'ru' ? ';' : ',';
  const ctx: Context = {
    lang,
    offsetMinutes,
    incomplete: new Set(report.gaps.map((g) => g.stationId ?? '')),
  };
  const lines = [CSV_COLUMNS.map((c) => cell(c[lang], sep, true)).join(sep)];
  for (const station of report.stations)
    for (const s of station.series)
      lines.push(CSV_COLUMNS.map((c) => cell(c.value(s, station, ctx), sep, c.text === true)).join(sep));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * RFC 4180 quoting. A text cell starting with = + - @, a tab or CR is prefixed with ' so a spreadsheet does not run
 * it as a formula (`-2+3+cmd|' /C calc'!A0` starts with a minus and a digit); only numbers, which this module
 * writes itself, go bare.
 */
function cell(text: string, sep: string, isText: boolean): string {
  const safe = isText && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /["\r\n]/.test(safe) || safe.includes(sep) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
