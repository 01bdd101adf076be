// Turns measurements into the table the issue asks for, the check lines, and the targets verdicts.
import { cpus } from 'node:os';
import { imageNodeOptions } from './image-node.js';
import type { ReadingsResult } from './readings.js';

export interface Row {
  readonly stations: number;
  readonly mode: 'lower bound' | 'on-demand' | 'on-demand, changing' | 'cached';
  readonly samples: number;
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly cpuMsPerScrape: number | undefined;
  /** VmRSS a second after the first scrape, before the timed ones. */
  readonly idleRssBytes: number | undefined;
  /** Median VmRSS over the last quarter of the timed scrapes. */
  readonly steadyRssBytes: number | undefined;
  /** VmHWM at the end of the run. */
  readonly peakRssBytes: number | undefined;
  readonly plainBytes: number;
  readonly gzipBytes: number | undefined;
  readonly gzipMedianMs: number | undefined;
  /** The same row's lower bound median, for the ratios. */
  readonly lowerBoundMs: number;
  /** The lower bound's CPU per run (this process's user + system time), for the CPU ratio. */
  readonly lowerBoundCpuMs: number;
}

export interface Check {
  readonly name: string;
  readonly pass: boolean;
  readonly detail: string;
}

const ms = (v: number | undefined): string =>
  v === undefined || Number.isNaN(v) ? '—' : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0);
const mb = (v: number | undefined): string => (v === undefined ? '—' : (v / 1e6).toFixed(v < 1e7 ? 2 : 1));
const MIB = 1024 * 1024;
const mib = (v: number | undefined): string => (v === undefined ? '—' : (v / MIB).toFixed(1));
const ratio = (v: number | undefined, lb: number): string =>
  v === undefined || !(lb > 0) ? '—' : `${(v / lb).toFixed(v / lb < 0.1 ? 3 : 2)}×`;

const HEAD = [
  'stations',
  'mode',
  'n',
  'median ms',
  'p99 ms',
  'CPU ms/scrape',
  'idle RSS MiB',
  'steady RSS MiB',
  'peak RSS MiB',
  'plain MB',
  'gzip MB',
  'gzip median ms',
  'median ÷ LB',
  'p99 ÷ LB',
  'CPU ÷ LB',
];

export function renderTable(rows: readonly Row[]): string {
  const body = rows.map((r) => {
    const lb = r.mode === 'lower bound';
    return [
      r.stations.toLocaleString('en-US'),
      r.mode,
      String(r.samples),
      ms(r.medianMs),
      ms(r.p99Ms),
      ms(r.cpuMsPerScrape),
      mib(r.idleRssBytes),
      mib(r.steadyRssBytes),
      mib(r.peakRssBytes),
      mb(r.plainBytes),
      mb(r.gzipBytes),
      ms(r.gzipMedianMs),
      lb ? '1×' : ratio(r.medianMs, r.lowerBoundMs),
      lb ? '—' : ratio(r.p99Ms, r.lowerBoundMs),
      lb ? '1×' : ratio(r.cpuMsPerScrape, r.lowerBoundCpuMs),
    ];
  });
  return markdownTable(HEAD, body, 2);
}

/** A Markdown table padded to line up in a terminal: the first `left` columns left-aligned, the rest right. */
function markdownTable(head: readonly string[], body: readonly (readonly string[])[], left: number): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i < left ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < left ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...body.map(line)].join('\n');
}

export function renderChecks(checks: readonly Check[]): string {
  return checks.map((c) => `- ${c.pass ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`).join('\n');
}

/** The on-demand rows: the issue's goals are judged on both (an unchanged list, and one that changes). */
const ON_DEMAND = ['on-demand', 'on-demand, changing'] as const;

/**
 * The goals of issue 24, judged on this run; informative only, never the exit code (timing is noisy). Ratios are
 * to the lower bound measured in the same run, so that a busy machine moves both sides.
 */
export function judgeTargets(rows: readonly Row[]): Check[] {
  const find = (n: number, mode: Row['mode']): Row | undefined =>
    rows.find((r) => r.stations === n && r.mode === mode);
  const out: Check[] = [];
  for (const mode of ON_DEMAND) {
    const od10 = find(10_000, mode);
    if (!od10) continue;
    out.push(
      target(
        `${mode} 10,000: median ≤ 2× lower bound`,
        od10.medianMs <= 2 * od10.lowerBoundMs,
        `${ms(od10.medianMs)} ms = ${ratio(od10.medianMs, od10.lowerBoundMs)} LB (${ms(od10.lowerBoundMs)} ms)`,
      ),
    );
    const cpu = od10.cpuMsPerScrape ?? Infinity;
    out.push(
      target(
        `${mode} 10,000: CPU per scrape ≤ 1.5× the lower bound's`,
        cpu <= 1.5 * od10.lowerBoundCpuMs,
        `${ms(cpu)} ms = ${ratio(cpu, od10.lowerBoundCpuMs)} LB's (${ms(od10.lowerBoundCpuMs)} ms)`,
      ),
    );
  }
  const c10 = find(10_000, 'cached');
  if (c10) out.push(target('cached 10,000: median ≤ 3 ms', c10.medianMs <= 3, `${ms(c10.medianMs)} ms`));
  const c100 = find(100_000, 'cached');
  if (c100) out.push(target('cached 100,000: median < 50 ms', c100.medianMs < 50, `${ms(c100.medianMs)} ms`));
  for (const mode of ON_DEMAND) {
    const od100 = find(100_000, mode);
    if (!od100) continue;
    out.push(
      target(`${mode} 100,000: < 1 s per scrape`, od100.medianMs < 1000, `median ${ms(od100.medianMs)} ms`),
    );
  }
  return [...out, ...memoryTargets(find)];
}

function memoryTargets(find: (n: number, mode: Row['mode']) => Row | undefined): Check[] {
  const out: Check[] = [];
  for (const mode of ON_DEMAND) {
    const od1 = find(1000, mode);
    if (od1) {
      const steady = od1.steadyRssBytes ?? Infinity;
      out.push(
        target(
          `${mode} 1,000: steady RSS ≤ 90 MiB after ${od1.samples} scrapes`,
          steady <= 90 * MIB,
          `${mib(steady)} MiB`,
        ),
      );
    }
    const od10 = find(10_000, mode);
    if (od10) {
      const peak = od10.peakRssBytes ?? Infinity;
      out.push(target(`${mode} 10,000: peak RSS ≤ 150 MiB`, peak <= 150 * MIB, `${mib(peak)} MiB`));
    }
  }
  const big = [...ON_DEMAND, 'cached' as const].flatMap((m) => find(100_000, m) ?? []);
  if (big.length > 0) {
    const peak = Math.max(...big.map((r) => r.peakRssBytes ?? Infinity));
    out.push(target('100,000: peak RSS ≤ 400 MiB (either mode)', peak <= 400 * MIB, `${mib(peak)} MiB`));
  }
  return out;
}

const target = (name: string, pass: boolean, detail: string): Check => ({ name, pass, detail });

export function machine(): string {
  const model = cpus()[0]?.model ?? 'unknown CPU';
  const options = imageNodeOptions();
  // On the image's Node the exporter runs as the image runs it: the figures are the image's, and say so.
  const image = options === undefined ? '' : `, the exporter with the image's NODE_OPTIONS="${options}"`;
  return `${cpus().length} × ${model}, Node ${process.version}, ${process.platform} ${process.arch}${image}`;
}

const count = (v: number): string => (Number.isNaN(v) ? '—' : v.toLocaleString('en-US'));
const seconds = (v: number): string => (Number.isNaN(v) ? '—' : v.toFixed(v < 10 ? 2 : 1));

/** The readings phase: the round, then the cached scrapes with readings. */
export function renderReadings(r: ReadingsResult): string {
  const round = markdownTable(
    [
      'stations',
      'concurrency',
      'requests',
      'round s',
      'simulator span s',
      'CPU s',
      'CPU ms/station',
      'RSS at start MiB',
      'max RSS in round MiB',
      'peak RSS MiB',
    ],
    [
      [
        count(r.stations),
        String(r.concurrency),
        count(r.requests),
        seconds(r.roundSeconds),
        seconds(r.simulatorSpanSeconds),
        seconds(r.roundCpuMs / 1000),
        ms(r.roundCpuMs / r.stations),
        mib(r.beforeRssBytes),
        mib(r.duringMaxRssBytes),
        mib(r.roundPeakRssBytes),
      ],
    ],
    1,
  );
  const s = r.scrapes;
  const scrapes = markdownTable(
    [
      'stations',
      'mode',
      'reading series',
      'first scrape ms',
      'n',
      'median ms',
      'p99 ms',
      'CPU ms/scrape',
      'idle RSS MiB',
      'steady RSS MiB',
      'peak RSS MiB',
      'plain MB',
      'gzip MB',
      'gzip median ms',
    ],
    [
      [
        count(r.stations),
        'cached + readings',
        count(r.readingSeries),
        ms(r.firstScrapeMs),
        String(s.samples),
        ms(s.medianMs),
        ms(s.p99Ms),
        ms(s.cpuMsPerScrape),
        mib(r.idleRssBytes),
        mib(s.steadyRssBytes),
        mib(s.peakRssBytes),
        mb(s.plainBytes),
        mb(s.gzipBytes),
        ms(s.gzipMedianMs),
      ],
    ],
    2,
  );
  return `Readings round (\`--collector.measurements --measurements.concurrency=${r.concurrency}\`):\n\n${round}\n\nCached scrapes with readings:\n\n${scrapes}`;
}

/** The readings round's figures in docs/benchmarks.md before issue 24 (2026-11-23): not to get worse. */
const READINGS_BEFORE = { cpuMsPerStation: 0.19, roundPeakMiB: 121.5 } as const;

export function judgeReadings(r: ReadingsResult): Check[] {
  if (r.stations !== 10_000) return [];
  const perStation = r.roundCpuMs / r.stations;
  const peak = Math.max(r.roundPeakRssBytes, r.scrapes.peakRssBytes);
  return [
    target(
      'cached 10,000 with readings: median < 10 ms',
      r.scrapes.medianMs < 10,
      `${ms(r.scrapes.medianMs)} ms`,
    ),
    target('10,000 with readings: peak RSS ≤ 200 MiB', peak <= 200 * MIB, `${mib(peak)} MiB`),
    target(
      `readings round 10,000: CPU per station ≤ ${READINGS_BEFORE.cpuMsPerStation} ms (before issue 24)`,
      perStation <= READINGS_BEFORE.cpuMsPerStation,
      `${ms(perStation)} ms`,
    ),
    target(
      `readings round 10,000: peak RSS ≤ ${READINGS_BEFORE.roundPeakMiB} MiB (before issue 24)`,
      r.roundPeakRssBytes <= READINGS_BEFORE.roundPeakMiB * MIB,
      `${mib(r.roundPeakRssBytes)} MiB`,
    ),
  ];
}
