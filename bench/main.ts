// `npm run bench`: the exporter as users run it (a separate process) against the simulator, on demand and
// cached, next to a framework-free lower bound measured in this process; then the single-flight and memory checks.
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'undici';
import { syntheticStations } from '../src/demo/stations.js';
import { type Simulator, startSimulator } from '../test/support/simulator.js';
import { type BenchOptions, parseBenchArgs } from './args.js';
import { judgeBackfill, measureBackfillRuns, renderBackfill } from './backfill.js';
import { timeScrapes } from './batch.js';
import { createScraper, median, quantile } from './client.js';
import { pasteBetweenMarkers } from './doc-markers.js';
import { measureHostile, renderHostile } from './hostile.js';
import { lowerBoundRender } from './lower-bound.js';
import { judgeReportBench, measureReport, renderReportBench } from './period-report.js';
import { memory, startExporter } from './proc.js';
import { measureReadings } from './readings.js';
import { judgeRecord, measureRecord, renderRecord } from './record.js';
import {
  type Check,
  judgeReadings,
  judgeTargets,
  machine,
  type Row,
  renderChecks,
  renderReadings,
  renderTable,
} from './report.js';

const POSTS = '/harvester/v2/Posts';
type Mode = Exclude<Row['mode'], 'lower bound'>;

const MODE_ARGS: Readonly<Record<Mode, readonly string[]>> = {
  'on-demand': ['--upstream.min-interval=0s'],
  // The same, with a list that differs from the last at every scrape (one station's online state), so that
  // nothing made from the previous list can be kept.
  'on-demand, changing': ['--upstream.min-interval=0s'],
  // Long enough that no refresh falls inside a batch, so every timed scrape is a cache hit.
  cached: ['--upstream.min-interval=5m'],
};

function defaultScrapes(stations: number, mode: Mode): number {
  if (mode === 'cached') return stations <= 1000 ? 1000 : stations <= 10_000 ? 300 : 40;
  return stations <= 1000 ? 200 : stations <= 10_000 ? 60 : 6;
}

interface LowerBound {
  readonly row: Row;
  readonly seriesLines: number;
}

async function upstreamBody(sim: Simulator): Promise<{ body: Buffer; gzipped: boolean }> {
  // Asked exactly as the exporter asks, so the bound starts from the same bytes.
  const res = await request(`${sim.baseUrl}${POSTS}`, { headers: { 'accept-encoding': 'gzip' } });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { body, gzipped: res.headers['content-encoding'] === 'gzip' };
}

async function measureLowerBound(sim: Simulator, stations: number): Promise<LowerBound> {
  const { body, gzipped } = await upstreamBody(sim);
  const reps = stations <= 1000 ? 100 : stations <= 10_000 ? 30 : 4;
  let out = lowerBoundRender(body, gzipped);
  for (let i = stations >= 100_000 ? 1 : 0; i < 3; i++) out = lowerBoundRender(body, gzipped);
  const times: number[] = [];
  // CPU of this process over the timed runs, as the exporter's is read from /proc: user + system, every thread.
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    out = lowerBoundRender(body, gzipped);
    times.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  const lbCpu = (cpu.user + cpu.system) / 1000 / reps;
  const lb = median(times);
  return {
    seriesLines: countSeries(out),
    row: {
      stations,
      mode: 'lower bound',
      samples: reps,
      medianMs: lb,
      p99Ms: quantile(times, 0.99),
      cpuMsPerScrape: lbCpu,
      idleRssBytes: undefined,
      steadyRssBytes: undefined,
      peakRssBytes: undefined,
      plainBytes: out.length,
      gzipBytes: undefined,
      gzipMedianMs: undefined,
      lowerBoundMs: lb,
      lowerBoundCpuMs: lbCpu,
    },
  };
}

function countSeries(text: Buffer): number {
  let n = 0;
  for (const line of text.toString('utf8').split('\n')) if (line.startsWith('cityair_station_')) n++;
  return n;
}

async function measureMode(
  sim: Simulator,
  stations: number,
  mode: Mode,
  lb: LowerBound,
  options: BenchOptions,
  notes: string[],
): Promise<Row> {
  // Above the default --upstream.max-stations, the list is allowed explicitly, as an operator would.
  const allow = stations > 20_000 ? [`--upstream.max-stations=${stations}`] : [];
  const exporter = await startExporter(sim.baseUrl, [...MODE_ARGS[mode], ...allow]);
  const { scrape, close } = createScraper();
  const url = `${exporter.url}/metrics`;
  const before = mode === 'on-demand, changing' ? alternateLists(sim, stations) : undefined;
  try {
    const first = await scrape(url, { keep: true });
    const lines = first.body ? countSeries(first.body) : 0;
    if (first.status !== 200 || lines !== lb.seriesLines) {
      notes.push(
        `${stations} ${mode}: first scrape HTTP ${first.status}, ${lines} station series (lower bound: ${lb.seriesLines})`,
      );
    }
    // Idle: everything loaded and one snapshot held, after a second without traffic.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleRssBytes = memory(exporter.pid).rss;
    const warmup = stations >= 100_000 ? 2 : mode === 'cached' ? 20 : 5;
    const n = options.scrapes ?? defaultScrapes(stations, mode);
    const batch = await timeScrapes(exporter.pid, url, scrape, { warmup, n, ...(before ? { before } : {}) });
    return {
      stations,
      mode,
      idleRssBytes,
      ...batch,
      lowerBoundMs: lb.row.medianMs,
      lowerBoundCpuMs: lb.row.lowerBoundCpuMs,
    };
  } finally {
    await close();
    await exporter.stop();
    if (before) sim.setPosts(syntheticStations(stations));
  }
}

/**
 * Before each scrape, the simulator's list turns into the other of two that differ in one station's online
 * state, and is asked for once here, so that serialising and compressing it stays out of the timed scrape.
 */
function alternateLists(sim: Simulator, stations: number): () => Promise<void> {
  const lists = [syntheticStations(stations), syntheticStations(stations)];
  const flipped = lists[1]?.[0];
  if (flipped) flipped.isOnline = !flipped.isOnline;
  let turn = 0;
  return async () => {
    turn = 1 - turn;
    sim.setPosts(lists[turn] ?? []);
    await upstreamBody(sim);
  };
}

/** Concurrent scrapes of an on-demand exporter share one refresh, with an upstream as slow as a remote API. */
/**
 * RSS must not follow the number of scrapes: on demand, so every scrape is also a full refresh. One RSS reading
 * lands anywhere on V8's garbage sawtooth (±15% seen at a fixed workload), so "RSS after N scrapes" is the median
 * of readings over the last N/10 scrapes before N (at least the last 50). Below about 1,000 stations V8 is still
 * growing its heap after 500 scrapes (+9 to +16% seen at 200 and 500 stations), so quick mode keeps 1,000.
 */
async function checkMemory(stations: number, [early, late]: readonly [number, number]): Promise<Check> {
  const sim = await startSimulator({ posts: syntheticStations(stations) });
  const exporter = await startExporter(sim.baseUrl, MODE_ARGS['on-demand']);
  const { scrape, close } = createScraper();
  try {
    const url = `${exporter.url}/metrics`;
    const readings: Record<'early' | 'late', number[]> = { early: [], late: [] };
    const window = (n: number): number => Math.max(50, Math.round(n / 10));
    for (let i = 1; i <= late; i++) {
      const r = await scrape(url);
      if (r.status !== 200) throw new Error(`scrape ${i} answered HTTP ${r.status}`);
      if (i > early - window(early) && i <= early) readings.early.push(memory(exporter.pid).rss);
      if (i > late - window(late)) readings.late.push(memory(exporter.pid).rss);
    }
    const rssEarly = median(readings.early);
    const rssLate = median(readings.late);
    const change = (rssLate - rssEarly) / rssEarly;
    const sign = change >= 0 ? '+' : '';
    return {
      name: `memory flat (on demand, ${stations} stations)`,
      pass: Math.abs(change) <= 0.1,
      detail: `RSS ${(rssEarly / 1e6).toFixed(1)} MB after ${early} scrapes, ${(rssLate / 1e6).toFixed(1)} MB after ${late} (${sign}${(change * 100).toFixed(1)}%, limit ±10%)`,
    };
  } finally {
    await close();
    await exporter.stop();
    await sim.close();
  }
}

interface Part {
  readonly text: string;
  readonly failed: boolean;
}

/** The station table with its checks and targets: the first part of docs/benchmarks.md. */
async function runStations(options: BenchOptions): Promise<Part> {
  const rows: Row[] = [];
  const notes: string[] = [];
  if (options.phases.has('stations')) {
    for (const stations of options.sizes) {
      const sim = await startSimulator({ posts: syntheticStations(stations) });
      try {
        const lb = await measureLowerBound(sim, stations);
        rows.push(lb.row);
        for (const mode of ['on-demand', 'on-demand, changing', 'cached'] as const) {
          rows.push(await measureMode(sim, stations, mode, lb, options, notes));
          process.stderr.write(`bench: ${stations} stations ${mode} done\n`);
        }
      } finally {
        await sim.close();
      }
    }
  }
  const checks = options.phases.has('checks')
    ? [...(options.skipMemory ? [] : [await checkMemory(options.memoryStations, options.memoryScrapes)])]
    : [];
  const targets = judgeTargets(rows);
  const parts = [
    ...(rows.length > 0 ? [renderTable(rows)] : []),
    ...(checks.length > 0 ? [`\nChecks:\n${renderChecks(checks)}`] : []),
    ...(targets.length > 0 ? [`\nTargets (informative, timing is noisy):\n${renderChecks(targets)}`] : []),
    ...problems(notes),
  ];
  return { text: parts.join('\n'), failed: notes.length > 0 || checks.some((c) => !c.pass) };
}

async function runReadings(options: BenchOptions): Promise<Part> {
  const notes: string[] = [];
  const result = await measureReadings(options.readingsStations, options.scrapes, notes);
  process.stderr.write(`bench: readings ${options.readingsStations} stations done\n`);
  const targets = judgeReadings(result);
  const parts = [
    renderReadings(result),
    ...(targets.length > 0 ? [`\nTargets (informative, timing is noisy):\n${renderChecks(targets)}`] : []),
    ...problems(notes),
  ];
  return { text: parts.join('\n'), failed: notes.length > 0 };
}

async function runBackfillPhase(options: BenchOptions): Promise<Part> {
  const notes: string[] = [];
  const result = await measureBackfillRuns(
    options.backfillStations,
    options.backfillDays,
    options.backfillRuns,
    notes,
  );
  process.stderr.write(
    `bench: backfill ${options.backfillStations} stations × ${options.backfillDays} days done\n`,
  );
  const parts = [
    renderBackfill(result),
    `\nTargets (informative, timing is noisy):\n${renderChecks(judgeBackfill(result))}`,
    ...problems(notes),
  ];
  return { text: parts.join('\n'), failed: notes.length > 0 };
}

async function runReportPhase(options: BenchOptions): Promise<Part> {
  const notes: string[] = [];
  const result = await measureReport(options.reportStations, options.reportDays, notes);
  process.stderr.write(
    `bench: report ${options.reportStations} stations × ${options.reportDays} days done\n`,
  );
  const parts = result
    ? [renderReportBench(result), `\nChecks:\n${renderChecks(judgeReportBench(result))}`, ...problems(notes)]
    : problems(notes);
  return { text: parts.join('\n'), failed: result !== undefined && notes.length > 0 };
}

async function runRecordPhase(options: BenchOptions): Promise<Part> {
  const notes: string[] = [];
  const result = await measureRecord(options.recordStations, options.recordHours, notes);
  const checks = result ? judgeRecord(result) : [];
  const parts = [
    ...(result ? [renderRecord(result), `\nChecks:\n${renderChecks(checks)}`] : []),
    ...problems(notes),
  ];
  return { text: parts.join('\n'), failed: notes.length > 0 || checks.some((c) => !c.pass) };
}

async function runHostile(options: BenchOptions): Promise<Part> {
  const rows = await measureHostile(options.quick, (line) => process.stderr.write(`bench: ${line}\n`));
  return { text: renderHostile(rows), failed: false };
}

const problems = (notes: readonly string[]): string[] =>
  notes.length > 0 ? [`\nProblems:\n${notes.map((n) => `- ${n}`).join('\n')}`] : [];

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const started = new Date();
  process.stderr.write(`bench: ${machine()}\n`);
  const stationsRun = options.phases.has('stations') || options.phases.has('checks');
  const stations = stationsRun ? await runStations(options) : undefined;
  const readings = options.phases.has('readings') ? await runReadings(options) : undefined;
  const backfill = options.phases.has('backfill') ? await runBackfillPhase(options) : undefined;
  const report = options.phases.has('report') ? await runReportPhase(options) : undefined;
  const record = options.phases.has('record') ? await runRecordPhase(options) : undefined;
  const hostile = options.phases.has('hostile') ? await runHostile(options) : undefined;
  const text = [
    stations?.text,
    readings && `Readings:\n\n${readings.text}`,
    backfill && `Backfill:\n\n${backfill.text}`,
    report && `Report:\n\n${report.text}`,
    record && `Record:\n\n${record.text}`,
    hostile && `Hostile answers:\n\n${hostile.text}`,
  ]
    .filter((t) => t)
    .join('\n\n');
  const elapsed = ((Date.now() - started.getTime()) / 1000).toFixed(0);
  process.stdout.write(`${text}\n\nMachine: ${machine()}; ${started.toISOString()}; ${elapsed} s\n`);
  if (options.out) {
    const stamp = provenance(started, process.argv.slice(2));
    let doc = readFileSync(options.out, 'utf8');
    if (stations) doc = pasteBetweenMarkers(doc, 'stations', `${stamp}\n\n${stations.text}`);
    if (readings) doc = pasteBetweenMarkers(doc, 'readings', `${stamp}\n\n${readings.text}`);
    if (backfill) doc = pasteBetweenMarkers(doc, 'backfill', `${stamp}\n\n${backfill.text}`);
    if (report) doc = pasteBetweenMarkers(doc, 'report', `${stamp}\n\n${report.text}`);
    if (record) doc = pasteBetweenMarkers(doc, 'record', `${stamp}\n\n${record.text}`);
    if (hostile) doc = pasteBetweenMarkers(doc, 'hostile', `${stamp}\n\n${hostile.text}`);
    writeFileSync(options.out, doc);
  }
  process.exit(
    stations?.failed ||
      readings?.failed ||
      backfill?.failed ||
      report?.failed ||
      record?.failed ||
      hostile?.failed
      ? 1
      : 0,
  );
}

function provenance(started: Date, argv: readonly string[]): string {
  return `- Machine: ${machine()}
- Date: ${started.toISOString()}
- Command: \`npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}\``;
}
await main();
