// The backfill phase: `cityair-exporter backfill` as users run it (a separate process) against the simulator's
// history on loopback, N stations × D days of 5-minute rows, OpenMetrics to standard output (a file that throws
// everything away, so the disk is not what is measured). Rows per second end to end, and the peak RSS.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../src/demo/simulator.js';
import { syntheticPosts } from '../src/demo/stations.js';
import { cpuMs, memory } from './proc.js';
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
  readonly peakRssBytes: number;
}

export async function measureBackfill(
  stations: number,
  days: number,
  notes: string[],
): Promise<BackfillResult> {
  // Plain JSON: on loopback gzip would only spend the simulator's share of the two cores.
  const sim = await startSimulator({
    posts: syntheticPosts(stations),
    gzip: false,
    apiKey: 'bench-backfill-key',
  });
  const sink = openSync('/dev/null', 'w');
  const t0 = performance.now();
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
      env: { PATH: process.env.PATH ?? '', CITYAIR_API_KEY: 'bench-backfill-key' },
      stdio: ['ignore', sink, 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-20_000);
  });
  let peak = 0;
  let cpu = 0;
  // VmHWM is the peak so far; read until the process is gone (the last reading is within 100 ms of its end).
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memory(child.pid ?? -1).peak);
      cpu = cpuMs(child.pid ?? -1);
    } catch {
      // Exited between two readings.
    }
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
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
    peakRssBytes: peak,
  };
}

export function renderBackfill(r: BackfillResult): string {
  const n = (v: number): string => v.toLocaleString('en-US');
  return [
    `Backfill (\`cityair-exporter backfill --measurements.concurrency=${r.concurrency} --output=-\`, 5-minute rows):`,
    '',
    '| stations | days | rows | samples | requests | seconds | rows/s | CPU s | rows per CPU s | peak RSS MiB |',
    '|:---------|-----:|-----:|--------:|---------:|--------:|-------:|------:|---------------:|-------------:|',
    `| ${n(r.stations)} | ${r.days} | ${n(r.rows)} | ${n(r.samples)} | ${n(r.requests)} | ${r.seconds.toFixed(1)} | ${n(Math.round(r.rows / r.seconds))} | ${r.cpuSeconds.toFixed(1)} | ${n(Math.round(r.rows / r.cpuSeconds))} | ${(r.peakRssBytes / MIB).toFixed(1)} |`,
  ].join('\n');
}

/** The targets; informative like the others (timing is noisy on a shared machine). */
export function judgeBackfill(r: BackfillResult): Check[] {
  const rate = r.rows / r.seconds;
  return [
    {
      name: `backfill ${r.stations.toLocaleString('en-US')} stations × ${r.days} days: peak RSS ≤ 150 MiB`,
      pass: r.peakRssBytes <= 150 * MIB,
      detail: `${(r.peakRssBytes / MIB).toFixed(1)} MiB`,
    },
    {
      name: 'backfill: ≥ 50,000 rows/s end to end',
      pass: rate >= 50_000,
      detail: `${Math.round(rate).toLocaleString('en-US')} rows/s (backfill CPU ${r.cpuSeconds.toFixed(1)} s of ${r.seconds.toFixed(1)} s)`,
    },
  ];
}
