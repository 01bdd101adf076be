import { encodeWriteRequest, type WireSeries, wireLabels } from '../../src/backfill/remote-write-proto.js';
import { runExporter } from './exporter-process.js';

export const REPORT_FROM = '2026-10-01T00:00:00+03:00';
export const REPORT_TO = '2026-10-03T00:00:00+03:00';
const FROM = Date.parse('2026-09-30T21:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
export const JOB = 'cityair';
export const INSTANCE = 'exporter:9610';
/** Upstream text goes into the page and the spreadsheet: markup and separators must come out as text. */
export const NAMES = { '101': 'Центр <b>"&\'', '102': 'Завод «Север»; цех =2' } as const;

interface Sample {
  readonly atMs: number;
  readonly value: number;
}
interface Series {
  readonly name: string;
  readonly labels: readonly (readonly [string, string])[];
  readonly samples: Sample[];
}

function no2Row(i: number, day: 0 | 1): number {
  const minute = i * 5;
  if (day === 0) {
    // Slot 10:00–10:20: 300, 500, 400, 400 → a single value of 400 (2.0 ПДК м.р.); slot 15:00–15:20: 220.
    if (minute >= 600 && minute < 620) return [300, 500, 400, 400][(minute - 600) / 5] as number;
    if (minute >= 900 && minute < 920) return 220;
    return 50;
  }
  // Backfilled rows (even) 100, live rows (odd) 200: each slot's single value is 150 only if every row counts once.
  // Slot 12:00–12:20: 1000 and 1400 → 1200 (6.0 ПДК м.р.).
  const noon = minute >= 720 && minute < 740;
  return i % 2 === 0 ? (noon ? 1000 : 100) : noon ? 1400 : 200;
}

export function reportSeries(): Series[] {
  const base = (id: string): [string, string][] => [
    ['job', JOB],
    ['instance', INSTANCE],
    ['id', id],
  ];
  const no2: Series = {
    name: 'cityair_concentration_micrograms_per_cubic_meter',
    labels: [...base('101'), ['substance', 'no2']],
    samples: [],
  };
  const ts101: Series = { name: 'cityair_measurement_timestamp_seconds', labels: base('101'), samples: [] };
  for (const day of [0, 1] as const)
    for (let i = 0; i < 288; i++) {
      const row = FROM + day * DAY + i * 5 * MIN;
      const value = no2Row(i, day);
      const live = day === 1 && i % 2 === 1;
      const firstScrape = i >= 285 ? 10 * MIN : 7_000;
      const times = live ? Array.from({ length: 10 }, (_, k) => row + firstScrape + k * 30_000) : [row];
      for (const atMs of times) {
        no2.samples.push({ atMs, value });
        ts101.samples.push({ atMs, value: row / 1000 });
      }
    }
  // The row of 23:55 before the period, scraped live from 00:02:07 of its first day: not the period's.
  for (let k = 0; k < 10; k++) {
    no2.samples.push({ atMs: FROM + 2 * MIN + 7_000 + k * 30_000, value: 9000 });
    ts101.samples.push({ atMs: FROM + 2 * MIN + 7_000 + k * 30_000, value: (FROM - 5 * MIN) / 1000 });
  }
  for (const s of [no2, ts101]) s.samples.sort((a, b) => a.atMs - b.atMs);
  const pm10: Series = {
    name: 'cityair_concentration_micrograms_per_cubic_meter',
    labels: [...base('102'), ['substance', 'pm10']],
    samples: [],
  };
  const ts102: Series = { name: 'cityair_measurement_timestamp_seconds', labels: base('102'), samples: [] };
  for (let h = 0; h < 44; h++) {
    const row = FROM + (h < 24 ? h : DAY / HOUR + (h - 24)) * HOUR;
    pm10.samples.push({ atMs: row, value: h < 24 ? 40 : 70 });
    ts102.samples.push({ atMs: row, value: row / 1000 });
  }
  const info = (id: '101' | '102'): Series => ({
    name: 'cityair_station_info',
    labels: [...base(id), ['name', NAMES[id]], ['description', ''], ['tz', 'Europe/Moscow']],
    samples: [{ atMs: FROM, value: 1 }],
  });
  return [no2, pm10, ts101, ts102, info('101'), info('102')];
}

/** Samples of station 101's NO₂ series the store must hold: 288 + 144 + 1,440, and the row before --from's 10. */
export const NO2_SAMPLES = 288 + 144 + 1440 + 10;

const escapeLabel = (v: string): string =>
  v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** OpenMetrics for promtool tsdb create-blocks-from openmetrics: families together, samples in time order. */
export function reportOpenMetrics(): string {
  const lines: string[] = [];
  let family = '';
  for (const s of reportSeries()) {
    if (s.name !== family) {
      family = s.name;
      lines.push(`# TYPE ${family} gauge`);
    }
    const labels = s.labels.map(([n, v]) => `${n}="${escapeLabel(v)}"`).join(',');
    for (const sample of s.samples)
      lines.push(`${s.name}{${labels}} ${sample.value} ${(sample.atMs / 1000).toFixed(3)}`);
  }
  lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}

/** One remote-write request holding everything. */
export function reportRemoteWrite(): Uint8Array {
  const series: WireSeries[] = reportSeries().map((s) => ({
    labels: wireLabels(s.name, s.labels),
    samples: s.samples.map((x) => ({ value: x.value, timestamp: x.atMs })),
  }));
  return encodeWriteRequest(series);
}

/** The CSV's cells by column key, worked out by hand (see the comments above and docs/report.md). */
export const REPORT_EXPECTED: Readonly<Record<'101' | '102', Readonly<Record<string, string>>>> = {
  '101': {
    station_id: '101',
    station_name: NAMES['101'],
    substance: 'no2',
    resolution: 'single',
    complete: 'yes',
    // 288 + 288 rows; the 1,440 live scrapes are 144 rows.
    rows: '576',
    single_values: '144',
    data_capture_percent: '100.0',
    // Hours of day 1: 22 × 50, hour 10 (300+500+400+400+8×50)/12 = 166.67, hour 15 (4×220+8×50)/12 = 106.67;
    // day 2: 23 × 150, hour 12 (2×1000+2×1400+4×100+4×200)/12 = 500; mean of the 48 hours 110.90.
    mean_ugm3: '110.9',
    mean_pdk_ss: '1.1',
    max_single_ugm3: '1200.0',
    max_single_time: '2026-10-02 12:00 UTC+03:00',
    si: '6.0',
    // 400, 220 and 1200 above 200 among 144: 2.08 %.
    p_percent: '2.1',
    above_1_pdk_mr: '3',
    above_5_pdk_mr: '1',
    above_10_pdk_mr: '0',
    // 141, 2 (220 and 400, which is 2.0, not above 2), 0 and 1 of 144.
    time_le_1_percent: '97.9',
    time_1_2_percent: '1.4',
    time_2_5_percent: '0.0',
    time_gt_5_percent: '0.7',
    valid_days: '2',
    // Daily means 57.22 and 164.58 against ПДК с.с. 100 and WHO 25.
    days_above_pdk_ss: '1',
    who_days_above_24h: '2',
    who_p99_daily_ugm3: '164.6',
  },
  '102': {
    station_id: '102',
    station_name: NAMES['102'],
    substance: 'pm10',
    resolution: 'hourly',
    complete: 'yes',
    rows: '44',
    single_values: '',
    data_capture_percent: '91.7',
    // (24 × 40 + 20 × 70) / 44 = 53.64; / 60.
    mean_ugm3: '53.6',
    mean_pdk_ss: '0.9',
    max_single_ugm3: '',
    max_single_time: '',
    si: '',
    p_percent: '',
    above_1_pdk_mr: '',
    above_5_pdk_mr: '',
    above_10_pdk_mr: '',
    time_le_1_percent: '',
    time_1_2_percent: '',
    time_2_5_percent: '',
    time_gt_5_percent: '',
    // Day 2 rests on 20 hours (18 needed): 70 is above ПДК с.с. 60 and WHO 45.
    valid_days: '2',
    days_above_pdk_ss: '1',
    who_days_above_24h: '1',
    who_p99_daily_ugm3: '70.0',
  },
};

/** The same in Russian: a decimal comma. */
export function expectedIn(lang: 'ru' | 'en', id: '101' | '102'): Record<string, string> {
  const cells = { ...REPORT_EXPECTED[id] };
  if (lang === 'ru')
    for (const [key, value] of Object.entries(cells))
      if (/^\d+\.\d+$/.test(value)) cells[key] = value.replace('.', ',');
  if (lang === 'ru') cells.complete = cells.complete === 'yes' ? 'да' : 'нет';
  return cells;
}

/** RFC 4180 with the given separator. */
export function parseCsv(text: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === sep) {
      row.push(cell);
      cell = '';
    } else if (c === '\r') continue;
    else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  return rows;
}

/** Runs `node dist/main.js report ...` as users do, to the end. */
export interface ReportRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runReport(args: readonly string[]): Promise<ReportRun> {
  return runExporter(['report', ...args], {}, 120_000);
}
