// `npm run bench`: the exporter as users run it (a separate process) against the simulator, on demand and
// cached, next to a framework-free lower bound measured in this process; then the single-flight and memory checks.
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { type Simulator, startSimulator } from '../src/demo/simulator.js';
import { syntheticPosts } from '../src/demo/stations.js';
import { type BenchOptions, parseBenchArgs } from './args.js';
import { createScraper, median, quantile } from './client.js';
import { lowerBoundRender } from './lower-bound.js';
import { cpuMs, memory, startExporter } from './proc.js';
import { type Check, judgeTargets, machine, type Row, renderChecks, renderTable } from './report.js';

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
    for (let i = 0; i < warmup; i++) await scrape(url);
    const n = options.scrapes ?? defaultScrapes(stations, mode);
    const times: number[] = [];
    const rss: number[] = [];
    let plainBytes = 0;
    const cpu0 = cpuMs(exporter.pid);
    for (let i = 0; i < n; i++) {
      const r = await scrape(url);
      times.push(r.ms);
      plainBytes = r.bytes;
      // Read between scrapes, outside the timed span; one reading lands anywhere on V8's garbage sawtooth.
      if (i >= n - Math.max(1, Math.floor(n / 4))) rss.push(memory(exporter.pid).rss);
    }
    const cpu = (cpuMs(exporter.pid) - cpu0) / n;
    // Fewer where each scrape takes seconds: these only show what compression adds.
    const gz = await gzipScrapes(url, Math.min(10, Math.ceil(n / 3)), scrape);
    return {
      stations,
      mode,
      samples: n,
      medianMs: median(times),
      p99Ms: quantile(times, 0.99),
      cpuMsPerScrape: cpu,
      idleRssBytes,
      steadyRssBytes: median(rss),
      peakRssBytes: memory(exporter.pid).peak,
      plainBytes,
      ...gz,
      lowerBoundMs: lb.row.medianMs,
    };
  } finally {
    await close();
    await exporter.stop();
  }
}

async function gzipScrapes(
  url: string,
  n: number,
  scrape: ReturnType<typeof createScraper>['scrape'],
): Promise<{ gzipBytes: number | undefined; gzipMedianMs: number | undefined }> {
  const times: number[] = [];
  let bytes: number | undefined;
  for (let i = 0; i < n; i++) {
    const r = await scrape(url, { gzip: true });
    // An exporter that does not compress gets "—", not its plain size under another name.
    if (r.encoding !== 'gzip') return { gzipBytes: undefined, gzipMedianMs: undefined };
    times.push(r.ms);
    bytes = r.bytes;
  }
  return { gzipBytes: bytes, gzipMedianMs: median(times) };
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

async function run(options: BenchOptions): Promise<{ text: string; failed: boolean }> {
  const rows: Row[] = [];
  const notes: string[] = [];
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
  const checks = [
    await checkSingleFlight(options.sizes[0] ?? 1000, options.concurrent),
    ...(options.skipMemory ? [] : [await checkMemory(options.memoryStations, options.memoryScrapes)]),
  ];
  const targets = judgeTargets(rows);
  const parts = [
    renderTable(rows),
    `\nChecks:\n${renderChecks(checks)}`,
    ...(targets.length > 0 ? [`\nTargets (informative, timing is noisy):\n${renderChecks(targets)}`] : []),
    ...(notes.length > 0 ? [`\nProblems:\n${notes.map((n) => `- ${n}`).join('\n')}`] : []),
  ];
  return { text: parts.join('\n'), failed: notes.length > 0 || checks.some((c) => !c.pass) };
}

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
  const { text, failed } = await run(options);
  const elapsed = ((Date.now() - started.getTime()) / 1000).toFixed(0);
  process.stdout.write(`${text}\n\nMachine: ${machine()}; ${started.toISOString()}; ${elapsed} s\n`);
  if (options.out) writeFileSync(options.out, benchmarksDoc(text, started, process.argv.slice(2)));
  process.exit(failed ? 1 : 0);
}

function benchmarksDoc(text: string, started: Date, argv: readonly string[]): string {
  return `${DOC_HEAD}

- Machine: ${machine()}
- Date: ${started.toISOString()}
- Command: \`npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}\`

${text}

${DOC_TAIL}`;
}

const DOC_HEAD = `# Benchmarks

The latest table of \`npm run bench\` (source: \`bench/\`), written by it with \`--out=docs/benchmarks.md\`.`;

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
`;

await main();
