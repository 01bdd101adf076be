// The backfill phase: `cityair-exporter backfill` as users run it (a separate process) against the simulator's
// history on loopback, N stations × D days of 5-minute rows, OpenMetrics to standard output (a file that throws
// everything away, so the disk is not what is measured). Rows per second end to end, rows per CPU second of the
// backfill process and of the simulator (this process), and the peak RSS; over several runs, their medians.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../src/demo/simulator.js';
import { syntheticStations } from '../src/demo/stations.js';
import { imageEnv, watchChild } from './proc.js';
import type { Check } from './report.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const MIB = 1024 * 1024;
const CONCURRENCY = 4;

export interface BackfillResult {
  readonly stations: number;
  readonly days: number;
  readonly concurrency: number;
  readonly rows: number;
  readonly samples: number;
  readonly requests: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  /** This process's CPU time during the run: the simulator answering (and /proc read every 100 ms). */
  readonly simulatorCpuSeconds: number;
  readonly peakRssBytes: number;
}

export async function measureBackfill(
  stations: number,
  days: number,
  notes: string[],
): Promise<BackfillResult> {
  // Plain JSON: on loopback gzip would only spend the simulator's share of the two cores.
  const sim = await startSimulator({
    posts: syntheticStations(stations),
    gzip: false,
    apiKey: 'bench-backfill-key',
  });
  const sink = openSync('/dev/null', 'w');
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const child = spawn(
    process.execPath,
    [
      MAIN,
      'backfill',
      `--upstream.url=${sim.baseUrl}`,
      `--from=${days}d`,
      '--output=-',
      `--measurements.concurrency=${CONCURRENCY}`,
      '--label=job=cityair',
      '--label=instance=bench:9610',
    ],
    {
      env: { PATH: process.env.PATH ?? '', CITYAIR_API_KEY: 'bench-backfill-key', ...imageEnv() },
      stdio: ['ignore', sink, 'pipe'],
    },
  );
  const { code, stderr, peak, cpuMs: cpu } = await watchChild(child);
  const seconds = (performance.now() - t0) / 1000;
  const ownCpu = process.cpuUsage(cpu0);
  closeSync(sink);
  await sim.close();
  const figure = (label: string): number =>
    Number(new RegExp(`([\\d,]+) ${label}`).exec(stderr)?.[1]?.replace(/,/g, ''));
  if (code !== 0) notes.push(`backfill exited ${code}: ${stderr.slice(-500)}`);
  return {
    stations,
    days,
    concurrency: CONCURRENCY,
    rows: figure('rows,'),
    samples: figure('samples,'),
    requests: figure('requests'),
    seconds,
    cpuSeconds: cpu / 1000,
    simulatorCpuSeconds: (ownCpu.user + ownCpu.system) / 1e6,
    peakRssBytes: peak,
  };
}

/** `runs` runs one after the other, each against a fresh simulator. */
export async function measureBackfillRuns(
  stations: number,
  days: number,
  runs: number,
  notes: string[],
): Promise<BackfillResult[]> {
  const results: BackfillResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await measureBackfill(stations, days, notes));
  return results;
}

const middle = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** Each figure the median of the runs' (rates are taken per run first, so they are medians of rates). */
function medianOf(results: readonly BackfillResult[]): Figures {
  const figures = results.map(figuresOf);
  const pick = (key: keyof Figures): number => middle(figures.map((f) => f[key]));
  return {
    seconds: pick('seconds'),
    rate: pick('rate'),
    cpuSeconds: pick('cpuSeconds'),
    perCpu: pick('perCpu'),
    simulatorCpuSeconds: pick('simulatorCpuSeconds'),
    simulatorPerCpu: pick('simulatorPerCpu'),
    peakMiB: pick('peakMiB'),
  };
}

interface Figures {
  readonly seconds: number;
  readonly rate: number;
  readonly cpuSeconds: number;
  readonly perCpu: number;
  readonly simulatorCpuSeconds: number;
  readonly simulatorPerCpu: number;
  readonly peakMiB: number;
}

const figuresOf = (r: BackfillResult): Figures => ({
  seconds: r.seconds,
  rate: r.rows / r.seconds,
  cpuSeconds: r.cpuSeconds,
  perCpu: r.rows / r.cpuSeconds,
  simulatorCpuSeconds: r.simulatorCpuSeconds,
  simulatorPerCpu: r.rows / r.simulatorCpuSeconds,
  peakMiB: r.peakRssBytes / MIB,
});

export function renderBackfill(results: readonly BackfillResult[]): string {
  const n = (v: number): string => Math.round(v).toLocaleString('en-US');
  const first = results[0];
  if (first === undefined) return '';
  const line = (label: string, counts: string, f: Figures): string =>
    `| ${label} | ${counts} | ${f.seconds.toFixed(1)} | ${n(f.rate)} | ${f.cpuSeconds.toFixed(1)} | ${n(f.perCpu)} | ${f.simulatorCpuSeconds.toFixed(1)} | ${n(f.simulatorPerCpu)} | ${f.peakMiB.toFixed(1)} |`;
  const rows = results.map((r, i) =>
    line(`${i + 1}`, `${n(r.rows)} | ${n(r.samples)} | ${n(r.requests)}`, figuresOf(r)),
  );
  if (results.length > 1) rows.push(line('**median**', '| |', medianOf(results)));
  return [
    `Backfill of ${n(first.stations)} stations × ${first.days} days (\`cityair-exporter backfill --measurements.concurrency=${first.concurrency} --output=-\`, 5-minute rows):`,
    '',
    '| run | rows | samples | requests | seconds | rows/s | CPU s | rows per CPU s | simulator CPU s | rows per simulator CPU s | peak RSS MiB |',
    '|:----|-----:|--------:|---------:|--------:|-------:|------:|---------------:|----------------:|-------------------------:|-------------:|',
    ...rows,
  ].join('\n');
}

/** The targets, on the median of the runs; informative like the others (timing is noisy). */
export function judgeBackfill(results: readonly BackfillResult[]): Check[] {
  const first = results[0];
  if (first === undefined) return [];
  const m = medianOf(results);
  const of = results.length > 1 ? ` (median of ${results.length} runs)` : '';
  return [
    {
      name: `backfill ${first.stations.toLocaleString('en-US')} stations × ${first.days} days: peak RSS ≤ 150 MiB`,
      pass: results.every((r) => r.peakRssBytes <= 150 * MIB),
      detail: `${Math.max(...results.map((r) => r.peakRssBytes / MIB)).toFixed(1)} MiB at most`,
    },
    {
      name: 'backfill: ≥ 50,000 rows/s end to end',
      pass: m.rate >= 50_000,
      detail: `${Math.round(m.rate).toLocaleString('en-US')} rows/s${of}`,
    },
    {
      name: 'backfill: ≥ 100,000 rows per CPU second of its own',
      pass: m.perCpu >= 100_000,
      detail: `${Math.round(m.perCpu).toLocaleString('en-US')} rows per CPU s${of}`,
    },
  ];
}
