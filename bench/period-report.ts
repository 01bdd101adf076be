// The report phase: `cityair-exporter report` as users run it (a separate process) over N stations × D days of
// 5-minute rows (NO₂ and PM2.5, with the row-time series) held by a real VictoriaMetrics on loopback, written to
// it by remote write first. Wall time, CPU and peak RSS of the report process, and the store queries it made.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { z } from 'zod';
import { encodeWriteRequest, type WireSeries, wireLabels } from '../src/backfill/remote-write-proto.js';
import { binaryPath, startVictoriaMetrics } from '../test/support/daemon.js';
import { imageEnv, watchChild } from './proc.js';
import type { Check } from './report.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const MIB = 1024 * 1024;
const DAY_MS = 86_400_000;
const ROW_MS = 5 * 60_000;
const FROM_MS = Date.parse('2025-01-01T00:00:00Z');
const SUBSTANCES = ['no2', 'pm2.5'] as const;

export interface ReportBenchResult {
  readonly stations: number;
  readonly days: number;
  readonly samples: number;
  readonly writeSeconds: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakRssBytes: number;
  readonly queries: number;
  readonly outputBytes: number;
}

/** One station's series: rows every 5 minutes, values that rise and fall through each day. */
function stationSeries(id: number, days: number): WireSeries[] {
  const labels = (extra: [string, string][]): [string, string][] => [
    ['job', 'cityair'],
    ['instance', 'bench:9610'],
    ['id', String(id)],
    ...extra,
  ];
  const rows = (days * DAY_MS) / ROW_MS;
  const series: WireSeries[] = SUBSTANCES.map((substance, k) => ({
    labels: wireLabels(
      'cityair_concentration_micrograms_per_cubic_meter',
      labels([['substance', substance]]),
    ),
    samples: Array.from({ length: rows }, (_, i) => ({
      timestamp: FROM_MS + i * ROW_MS,
      value: Math.round(40 + 30 * Math.sin((i + id * 7 + k * 13) / 40) + ((i * 31 + id) % 17)),
    })),
  }));
  series.push({
    labels: wireLabels('cityair_measurement_timestamp_seconds', labels([])),
    samples: Array.from({ length: rows }, (_, i) => ({
      timestamp: FROM_MS + i * ROW_MS,
      value: (FROM_MS + i * ROW_MS) / 1000,
    })),
  });
  series.push({
    labels: wireLabels(
      'cityair_station_info',
      labels([
        ['name', `Bench station ${id}`],
        ['description', ''],
        ['tz', 'UTC'],
      ]),
    ),
    samples: [{ timestamp: FROM_MS, value: 1 }],
  });
  return series;
}

const reportJson = z.object({
  complete: z.boolean(),
  stations: z.array(z.object({ id: z.string() })),
  storeQueries: z.number(),
});

export async function measureReport(
  stations: number,
  days: number,
  notes: string[],
): Promise<ReportBenchResult | undefined> {
  const binary = binaryPath('victoria-metrics', 'victoria-metrics');
  if (!binary) {
    notes.push('victoria-metrics is not installed: the report phase did not run');
    return undefined;
  }
  const { url, daemon, dir } = await startVictoriaMetrics(binary, '100y', 'cityair-bench-report-');
  try {
    const w0 = performance.now();
    let samples = 0;
    for (let id = 1; id <= stations; id++) {
      const series = stationSeries(id, days);
      samples += series.reduce((n, s) => n + s.samples.length, 0);
      const res = await request(`${url}/api/v1/write`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy' },
        body: encodeWriteRequest(series),
      });
      await res.body.text();
      if (res.statusCode !== 204) throw new Error(`remote write answered HTTP ${res.statusCode}`);
    }
    await (await fetch(`${url}/internal/force_flush`)).text();
    const writeSeconds = (performance.now() - w0) / 1000;
    const output = join(dir, 'report.json');
    const run = await runReport(url, days, output);
    if (run.code !== 0) notes.push(`report exited ${run.code}: ${run.stderr.slice(-500)}`);
    const text = readFileSync(output, 'utf8');
    const parsed = reportJson.parse(JSON.parse(text));
    if (!parsed.complete || parsed.stations.length !== stations)
      notes.push(`report: complete ${parsed.complete}, ${parsed.stations.length} stations of ${stations}`);
    return {
      stations,
      days,
      samples,
      writeSeconds,
      seconds: run.seconds,
      cpuSeconds: run.cpuMs / 1000,
      peakRssBytes: run.peak,
      queries: parsed.storeQueries,
      outputBytes: Buffer.byteLength(text),
    };
  } finally {
    await daemon.stop();
  }
}

async function runReport(
  url: string,
  days: number,
  output: string,
): Promise<{ code: number | null; stderr: string; seconds: number; cpuMs: number; peak: number }> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      MAIN,
      'report',
      `--from=${new Date(FROM_MS).toISOString()}`,
      `--to=${new Date(FROM_MS + days * DAY_MS).toISOString()}`,
      `--store.url=${url}`,
      '--label=job=cityair',
      '--format=json',
      `--output=${output}`,
    ],
    { env: { PATH: process.env.PATH ?? '', ...imageEnv() }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const figures = await watchChild(child);
  return { ...figures, seconds: (performance.now() - t0) / 1000 };
}

export function renderReportBench(r: ReportBenchResult): string {
  const n = (v: number): string => Math.round(v).toLocaleString('en-US');
  return [
    `Report over ${n(r.stations)} stations × ${r.days} days of 5-minute rows (NO₂ and PM2.5, with the row-time series) in VictoriaMetrics (\`cityair-exporter report --format=json\`):`,
    '',
    '| samples in the store | written in s | report s | CPU s | peak RSS MiB | store queries | JSON bytes |',
    '|---------------------:|-------------:|---------:|------:|-------------:|--------------:|-----------:|',
    `| ${n(r.samples)} | ${r.writeSeconds.toFixed(1)} | ${r.seconds.toFixed(1)} | ${r.cpuSeconds.toFixed(1)} | ${(r.peakRssBytes / MIB).toFixed(1)} | ${n(r.queries)} | ${n(r.outputBytes)} |`,
  ].join('\n');
}

/** Memory must not follow the period: a year of 100 stations within what one station's sums and one answer need. */
export function judgeReportBench(r: ReportBenchResult): Check[] {
  return [
    {
      name: `report ${r.stations} stations × ${r.days} days: peak RSS ≤ 200 MiB`,
      pass: r.peakRssBytes <= 200 * MIB,
      detail: `${(r.peakRssBytes / MIB).toFixed(1)} MiB`,
    },
  ];
}
