// `npm run bench`: the exporter as users run it (a separate process) against the simulator, on demand and
// cached, next to a framework-free lower bound measured in this process; then the single-flight and memory checks.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { syntheticPosts } from '../src/demo/stations.js';
import { type Simulator, startSimulator } from '../test/support/simulator.js';
import { type BenchOptions, parseBenchArgs } from './args.js';
import { timeScrapes } from './batch.js';
import { createScraper, median, quantile } from './client.js';
import { lowerBoundRender } from './lower-bound.js';
import { memory, startExporter } from './proc.js';
import { measureReadings } from './readings.js';
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
type Mode = 'on-demand' | 'cached';

const MODE_ARGS: Readonly<Record<Mode, readonly string[]>> = {
  'on-demand': ['--upstream.min-interval=0s'],
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
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    out = lowerBoundRender(body, gzipped);
    times.push(performance.now() - t0);
  }
  const lb = median(times);
  return {
    seriesLines: countSeries(out),
    row: {
      stations,
      mode: 'lower bound',
      samples: reps,
      medianMs: lb,
      p99Ms: quantile(times, 0.99),
      cpuMsPerScrape: undefined,
      idleRssBytes: undefined,
      steadyRssBytes: undefined,
      peakRssBytes: undefined,
      plainBytes: out.length,
      gzipBytes: undefined,
      gzipMedianMs: undefined,
      lowerBoundMs: lb,
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
  const exporter = await startExporter(sim.baseUrl, MODE_ARGS[mode]);
  const { scrape, close } = createScraper();
  const url = `${exporter.url}/metrics`;
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
    const batch = await timeScrapes(exporter.pid, url, scrape, { warmup, n });
    return { stations, mode, idleRssBytes, ...batch, lowerBoundMs: lb.row.medianMs };
  } finally {
    await close();
    await exporter.stop();
  }
}

/** Concurrent scrapes of an on-demand exporter share one refresh, with an upstream as slow as a remote API. */
async function checkSingleFlight(stations: number, concurrent: number): Promise<Check> {
  const sim = await startSimulator({ posts: syntheticPosts(stations) });
  const exporter = await startExporter(sim.baseUrl, MODE_ARGS['on-demand']);
  const agent = new Agent({ connections: concurrent, pipelining: 1 });
  try {
    const url = `${exporter.url}/metrics`;
    await request(url, { dispatcher: agent }).then((r) => r.body.dump());
    sim.setFault({ kind: 'slow', delayMs: 250 });
    sim.resetCount();
    const statuses = await Promise.all(
      Array.from({ length: concurrent }, async () => {
        const r = await request(url, { dispatcher: agent });
        await r.body.dump();
        return r.statusCode;
      }),
    );
    const ok = statuses.filter((s) => s === 200).length;
    const upstream = sim.requestCount();
    return {
      name: `single flight (${concurrent} concurrent on-demand scrapes, ${stations} stations, upstream answering in 250 ms)`,
      pass: upstream === 1 && ok === concurrent,
      detail: `${upstream} upstream request(s), ${ok}/${concurrent} scrapes answered 200`,
    };
  } finally {
    await agent.close();
    await exporter.stop();
    await sim.close();
  }
}

/**
 * RSS must not follow the number of scrapes: on demand, so every scrape is also a full refresh. One RSS reading
 * lands anywhere on V8's garbage sawtooth (±15% seen at a fixed workload), so "RSS after N scrapes" is the median
 * of readings over the last N/10 scrapes before N (at least the last 50). Below about 1,000 stations V8 is still
 * growing its heap after 500 scrapes (+9 to +16% seen at 200 and 500 stations), so quick mode keeps 1,000.
 */
async function checkMemory(stations: number, [early, late]: readonly [number, number]): Promise<Check> {
  const sim = await startSimulator({ posts: syntheticPosts(stations) });
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
      const sim = await startSimulator({ posts: syntheticPosts(stations) });
      try {
        const lb = await measureLowerBound(sim, stations);
        rows.push(lb.row);
        for (const mode of ['on-demand', 'cached'] as const) {
          rows.push(await measureMode(sim, stations, mode, lb, options, notes));
          process.stderr.write(`bench: ${stations} stations ${mode} done\n`);
        }
      } finally {
        await sim.close();
      }
    }
  }
  const checks = options.phases.has('checks')
    ? [
        await checkSingleFlight(options.sizes[0] ?? 1000, options.concurrent),
        ...(options.skipMemory ? [] : [await checkMemory(options.memoryStations, options.memoryScrapes)]),
      ]
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
  const text = [stations?.text, readings && `Readings:\n\n${readings.text}`].filter((t) => t).join('\n\n');
  const elapsed = ((Date.now() - started.getTime()) / 1000).toFixed(0);
  process.stdout.write(`${text}\n\nMachine: ${machine()}; ${started.toISOString()}; ${elapsed} s\n`);
  if (options.out) {
    const existing = existsSync(options.out) ? readFileSync(options.out, 'utf8') : undefined;
    const stamp = provenance(started, process.argv.slice(2));
    writeFileSync(
      options.out,
      benchmarksDoc(existing, {
        ...(stations ? { stations: `${stamp}\n\n${stations.text}` } : {}),
        ...(readings ? { readings: `${stamp}\n\n${readings.text}` } : {}),
      }),
    );
  }
  process.exit(stations?.failed || readings?.failed ? 1 : 0);
}

function provenance(started: Date, argv: readonly string[]): string {
  return `- Machine: ${machine()}
- Date: ${started.toISOString()}
- Command: \`npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}\``;
}

const READINGS_HEADING = '## Readings';
const TAIL_HEADING = '## How to read it';

/**
 * The whole file from one run, or, when a run left a part out (`--phases=readings`), that part as the file
 * already had it, so each part keeps the command that produced it.
 */
function benchmarksDoc(
  existing: string | undefined,
  fresh: { readonly stations?: string; readonly readings?: string },
): string {
  const old = existing ?? '';
  const readingsAt = old.indexOf(`\n${READINGS_HEADING}\n`);
  const tailAt = old.indexOf(`\n${TAIL_HEADING}\n`);
  const mainEnd = readingsAt >= 0 ? readingsAt : tailAt >= 0 ? tailAt : old.length;
  // A part starts with its provenance list; the file's heading and introduction above it are rewritten.
  const stationsAt = old.indexOf('\n- Machine:');
  const oldStations = stationsAt >= 0 && stationsAt < mainEnd ? old.slice(stationsAt, mainEnd).trim() : '';
  const readingsEnd = tailAt > readingsAt ? tailAt : old.length;
  const oldReadings =
    readingsAt >= 0 ? old.slice(readingsAt + READINGS_HEADING.length + 2, readingsEnd).trim() : '';
  const stations = fresh.stations ?? (oldStations || '(not run yet)');
  const readings = fresh.readings ?? (oldReadings || '(not run yet: `npm run bench -- --phases=readings`)');
  return `${DOC_HEAD}\n\n${stations}\n\n${READINGS_HEADING}\n\n${readings}\n\n${DOC_TAIL}`;
}

const DOC_HEAD = `# Benchmarks

The latest tables of \`npm run bench\` (source: \`bench/\`), written by it with \`--out=docs/benchmarks.md\`. Each
part names the run that produced it: \`--phases=readings\` rewrites only the Readings part, and a run without
the readings phase leaves that part as it was.`;

const DOC_TAIL = `## How to read it

- **lower bound (LB)**: in the bench process, the upstream body exactly as the simulator serves it (gzip) is
  gunzipped, \`JSON.parse\`d and written out as the same station series with plain string building and
  \`Buffer.from\`: no validation, no HTTP, no framework (\`bench/lower-bound.ts\`). Median of repeated runs.
- **on-demand**: \`--upstream.min-interval=0s\`, so every scrape fetches, validates and renders the whole list.
  **cached**: \`--upstream.min-interval=5m\`, so every timed scrape is served from the last refresh.
- The exporter is \`node dist/main.js\`, a separate process; the simulator and the HTTP client live in the bench
  process. Times are measured by the client from request to last byte, one scrape at a time, plain text
  (\`Accept: text/plain;version=0.0.4\`, no compression), over one keep-alive connection read by a bare HTTP/1.1
  reader (\`bench/client.ts\`); **gzip** columns repeat up to 10 scrapes (a third of n) with
  \`Accept-Encoding: gzip\` ("—" when the exporter did not compress).
- **Checks**: single flight = 100 simultaneous on-demand scrapes while the simulator takes 250 ms to answer
  (as a remote API does) must cause one upstream request. Memory = a fresh on-demand exporter scraped 5,000
  times one after another; "RSS after N" is the median of VmRSS readings over the last N/10 scrapes before N
  (at least 50), because one reading lands anywhere on V8's garbage sawtooth.
- **CPU ms/scrape**: the exporter's user+system time over the timed batch (/proc/<pid>/stat) divided by its
  scrapes.
- **Memory** is the exporter process's resident set as the kernel counts it (/proc/<pid>/status, MiB =
  1,048,576 bytes), what a container memory limit is held against, not V8's heap figures. **idle RSS**: VmRSS one
  second after the first scrape, before the warm-up (everything loaded, one snapshot held, no traffic).
  **steady RSS**: the median of VmRSS read after each of the last quarter of the timed scrapes (after 200
  on-demand scrapes at 1,000 stations: readings 151–200). **peak RSS**: VmHWM at the end of the run, plain and
  gzip scrapes included. The exporter runs with the V8 settings it applies to itself (\`src/v8-settings.ts\`):
  the bench starts \`node dist/main.js\` without flags, as users do. Of a steady RSS, about 45 MiB is file-backed
  (the node binary's pages, RssFile in /proc/<pid>/status; a bare \`node -e\` is 41 MiB), and loading the
  dependencies (zod, undici, fastify, pino, prom-client) adds about 37 MiB before any station is read. Above
  16 MiB of station text (about 35,000 stations) each refresh starts with a full collection, which frees the
  texts of earlier refreshes (\`src/metrics/stations-text.ts\`); the on-demand rows at 100,000 include its cost.
- Ratios divide by the lower bound of the same station count. p99 of fewer than 100 scrapes is the largest.
- Two cores: the client, the simulator and the exporter share them, so figures move by 10–20% between runs.

Readings (\`bench/readings.ts\`, \`--phases=readings\`, \`--readings-stations=N\`, default 10,000):

- A fresh exporter with \`--collector.measurements --measurements.concurrency=16 --measurements.refresh-interval=20m
  --upstream.min-interval=5m\` against the simulator with N synthetic stations: the list is read once at start
  and the first round of readings follows it at once; no second round falls inside the phase. Each readings
  answer is the demo's (\`src/demo/readings.ts\`, about 1 KB: five rows of the last 30 minutes, one station in
  20 without rows, a third without gas sensors, a quarter with a field in a unit the exporter does not convert),
  built per request in the bench process. On loopback the simulator answers at once, so the round time is the
  exporter's own cost (and the simulator's, on the same two cores); against the real API a round takes about
  N ÷ 16 × its answer time.
- **round s**: the exporter's \`cityair_measurements_last_round_duration_seconds\`. **simulator span s**: from the
  first readings request the simulator received to the last. **CPU s**: the exporter's user+system time
  (/proc/<pid>/stat) from the first readings request until the round was seen done. The exporter is not scraped
  during the round: the bench waits until the simulator has answered every station, then every 200 ms reads
  /proc and scrapes once, until \`cityair_measurements_requests_total\` reaches N and the round's duration is
  set. **RSS at start**: VmRSS at the first readings request (the list held, no reading yet). **max RSS in
  round**: the largest VmRSS read every 50 ms during the round. **peak RSS**: VmHWM when the round was seen done.
- **Cached scrapes with readings**: the same exporter right after that round, timed as the cached rows above
  (plain text, one keep-alive connection, 20 warm-up scrapes, n timed, up to 10 gzip). **first scrape ms**: the
  scrape that first saw the round done; the readings text is rendered there, on the first scrape after each
  round, not when the round ends (and here the station text too, as no scrape came before). **reading series**:
  the sample lines of the six reading families in that scrape. **idle RSS**: VmRSS one second after it.
`;

await main();
