// The hostile-answers phase: the exporter with its default settings against answers an upstream could send, at and
// beyond its caps (docs/kubernetes.md sizes the memory limit from this table). For each: the longest answer of
// /healthz, /readyz and /metrics while the answer is read, RSS before, at the peak and a few seconds after, and
// what became of the refresh. The last row is the sizing run: 10,000 stations with readings, scraped on demand,
// then a station list at the body cap while all of that is held.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { syntheticStations } from '../src/demo/stations.js';
import { type Fault, type Simulator, startSimulator } from '../test/support/simulator.js';
import { memory, startExporter } from './proc.js';

export interface HostileRow {
  readonly answer: string;
  readonly bodyBytes: number;
  readonly outcome: string;
  /** The longest /healthz, /readyz or /metrics answer (to its headers) while the answer was read. */
  readonly maxProbeMs: number;
  readonly startRssBytes: number;
  readonly peakRssBytes: number;
  /** VmRSS a few seconds after the last refresh or round. */
  readonly afterRssBytes: number;
  /** The machine's one-minute load average at the end of the row: the probes wait for a core too. */
  readonly load: number;
}

interface Scenario {
  readonly answer: string;
  readonly args: readonly string[];
  /** Sets up the simulator's answers; returns the size of the hostile body. */
  readonly arrange: (sim: Simulator) => number;
  /** How long the probes run once the first hostile request is out. */
  readonly seconds: number;
}

const MiB = 1024 * 1024;
const emoji = (n: number): string => '😷'.repeat(n);

/** `[{},{},…]` with n elements. */
const emptyObjects = (n: number): Buffer => Buffer.from(`[${'{},'.repeat(n - 1)}{}]`);

/** n valid stations whose name and description are far past the caps, in 4-byte characters. */
function longLabels(n: number): Buffer {
  const posts = syntheticStations(n).map((p) => ({ ...p, name: emoji(500), description: emoji(250) }));
  return Buffer.from(JSON.stringify(posts));
}

/** A list just under the 64 MiB cap: 250 stations whose names are 256 kB long (each kept, cut). */
function longNames(): Buffer {
  const name = 'N'.repeat(255 * 1024);
  const posts = syntheticStations(250).map((p) => ({ ...p, name }));
  return Buffer.from(JSON.stringify(posts));
}

/** A list just under the cap in which no element is a station: the refresh fails, the last good list stays. */
function junkAtCap(): Buffer {
  const element = `{"junk":"${'j'.repeat(250 * 1024)}"}`;
  return Buffer.from(`[${Array(255).fill(element).join(',')}]`);
}

/**
 * A readings answer just under the 50,000-value budget (7 per row), every row invalid: the most validation one
 * answer may cost.
 */
function rowsAtBudget(): Buffer {
  const row = '{"postId":1,"date":"yesterday","pm2":0.001}';
  return Buffer.from(`{"meta":{"units":{"pm2":"mg/m³"}},"data":[${Array(7100).fill(row).join(',')}]}`);
}

const body = (bytes: Buffer, extra: Partial<Extract<Fault, { kind: 'body' }>> = {}): Fault => ({
  kind: 'body',
  body: bytes,
  ...extra,
});

function scenarios(quick: boolean): Scenario[] {
  const few = syntheticStations(10);
  return [
    {
      answer: 'station list: 1,000,000 × `{}`',
      args: [],
      arrange: (sim) => setPosts(sim, emptyObjects(1_000_000)),
      seconds: 4,
    },
    {
      answer: 'station list: 10,000,000 × `{}`',
      args: [],
      arrange: (sim) => setPosts(sim, emptyObjects(10_000_000)),
      seconds: 6,
    },
    {
      answer: 'station list: 20,000 stations, names and descriptions of 500 and 250 emoji',
      args: [],
      arrange: (sim) => setPosts(sim, longLabels(quick ? 2000 : 20_000)),
      seconds: 10,
    },
    {
      answer: 'station list: 250 stations with names of 255 kB (64 MiB)',
      args: [],
      arrange: (sim) => setPosts(sim, longNames()),
      seconds: 10,
    },
    {
      answer: 'station list: gzip of 1 GiB of spaces',
      args: [],
      arrange: (sim) => {
        const bomb = gzipSync(Buffer.alloc(quick ? 128 * MiB : 1024 * MiB, 0x20));
        sim.setFault(body(bomb, { contentEncoding: 'gzip' }));
        return bomb.length;
      },
      seconds: 6,
    },
    {
      answer: 'readings: 60 MB answers, 10 stations, concurrency 8',
      args: ['--collector.measurements', '--measurements.concurrency=8'],
      arrange: (sim) => {
        sim.setPosts(few);
        const answer = Buffer.from(`{"data":[${'{"postId":1},'.repeat(5_000_000)}{}]}`);
        for (const p of few) sim.setReadingsFault(p.id, body(answer));
        return answer.length;
      },
      seconds: 8,
    },
    {
      answer: 'readings: 7,100 invalid rows (50,000 values), 500 stations, concurrency 16',
      args: ['--collector.measurements', '--measurements.concurrency=16'],
      arrange: (sim) => {
        const posts = syntheticStations(quick ? 50 : 500);
        sim.setPosts(posts);
        const answer = rowsAtBudget();
        for (const p of posts) sim.setReadingsFault(p.id, body(answer));
        return answer.length;
      },
      seconds: quick ? 8 : 30,
    },
  ];
}

function setPosts(sim: Simulator, bytes: Buffer): number {
  sim.setFault(body(bytes));
  return bytes.length;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// The probes run in a process of their own: in this one, the simulator building and sending the answers would
// delay them, and they would measure the bench instead of the exporter.
const PROBE = `
const [base] = process.argv.slice(1);
const { request } = require('node:http');
let stopped = false;
let longest = 0;
const once = (path, headers) => new Promise((resolve) => {
  const t0 = performance.now();
  const done = () => { longest = Math.max(longest, performance.now() - t0); resolve(); };
  const req = request(base + path, { headers, agent: false }, (res) => { done(); res.resume(); });
  req.on('error', done);
  req.end();
});
const loop = async (path, headers) => {
  while (!stopped) { await once(path, headers); await new Promise((r) => setTimeout(r, 100)); }
};
const loops = [loop('/healthz', {}), loop('/readyz', {}),
  loop('/metrics', { 'x-prometheus-scrape-timeout-seconds': '1', 'accept-encoding': 'gzip' })];
process.on('SIGTERM', async () => { stopped = true; await Promise.all(loops); process.stdout.write(String(longest)); });
`;

/**
 * Polls /healthz, /readyz and /metrics (a 1 s scrape timeout: the scrape waits at most 0.5 s for a refresh) one
 * request at a time each, until stopped; the longest time to response headers.
 */
function probe(base: string): { stop: () => Promise<number> } {
  const child = spawn(process.execPath, ['-e', PROBE, base], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      return Number(out);
    },
  };
}

/** The last refresh's failure, from the exporter's own metrics. */
async function outcomeOf(base: string): Promise<string> {
  const res = await request(`${base}/metrics`);
  const text = await res.body.text();
  const value = (series: string): number => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1]);
  const failures = [
    ...text.matchAll(/^cityair_(upstream|measurements)_request_failures_total\{reason="(\w+)"\} (\d+)$/gm),
  ]
    .filter((m) => Number(m[3]) > 0)
    .map((m) => `${m[1] === 'upstream' ? 'list' : 'readings'} ${m[2]} × ${m[3]}`);
  const stations =
    value('cityair_stations\\{state="online"\\}') + value('cityair_stations\\{state="offline"\\}');
  const served = Number.isNaN(stations) ? 'no stations served' : `${stations} stations served`;
  return failures.length > 0 ? `${failures.join(', ')}; ${served}` : served;
}

async function runScenario(s: Scenario): Promise<HostileRow> {
  const sim = await startSimulator({ posts: [] });
  const bodyBytes = s.arrange(sim);
  const exporter = await startExporter(sim.baseUrl, s.args);
  try {
    // As soon as it listens: its first refresh has just begun.
    const startRssBytes = memory(exporter.pid).rss;
    const probes = probe(exporter.url);
    await sleep(s.seconds * 1000);
    const maxProbeMs = await probes.stop();
    await sleep(3000);
    const afterRssBytes = memory(exporter.pid).rss;
    const peakRssBytes = memory(exporter.pid).peak;
    return {
      answer: s.answer,
      bodyBytes,
      outcome: await outcomeOf(exporter.url),
      maxProbeMs,
      startRssBytes,
      peakRssBytes,
      afterRssBytes,
      load: loadavg()[0] ?? Number.NaN,
    };
  } finally {
    await exporter.stop();
    await sim.close();
  }
}

/**
 * 10,000 demo-like stations with readings (a round a minute), scraped every second with and without gzip as well
 * as by the probes; then the station list turns into junk at the body cap while the last good list and its
 * readings are held, which is the most the exporter holds at once with its default caps. Two rows: the peak
 * before the junk, and after it.
 */
async function runSizing(quick: boolean): Promise<HostileRow[]> {
  const stations = quick ? 1000 : 10_000;
  const sim = await startSimulator({ posts: syntheticStations(stations) });
  const junk = junkAtCap();
  const exporter = await startExporter(sim.baseUrl, [
    '--collector.measurements',
    '--measurements.refresh-interval=1m',
  ]);
  const agent = new Agent({ connections: 1 });
  const scrapeFor = async (seconds: number): Promise<void> => {
    const until = Date.now() + seconds * 1000;
    for (let i = 0; Date.now() < until; i++) {
      const headers = i % 2 ? { 'accept-encoding': 'gzip' } : {};
      const res = await request(`${exporter.url}/metrics`, { dispatcher: agent, headers });
      await res.body.dump();
      await sleep(1000);
    }
  };
  try {
    const startRssBytes = memory(exporter.pid).rss;
    let probes = probe(exporter.url);
    await scrapeFor(quick ? 20 : 200);
    const before: HostileRow = {
      answer: `${stations.toLocaleString('en-US')} demo-like stations with readings, a round a minute, scraped every second`,
      bodyBytes: (await request(`${sim.baseUrl}/harvester/v2/Posts`).then((r) => r.body.arrayBuffer()))
        .byteLength,
      outcome: await outcomeOf(exporter.url),
      maxProbeMs: await probes.stop(),
      startRssBytes,
      peakRssBytes: memory(exporter.pid).peak,
      afterRssBytes: memory(exporter.pid).rss,
      load: loadavg()[0] ?? Number.NaN,
    };
    probes = probe(exporter.url);
    sim.setFault(body(junk));
    // Past --upstream.min-interval, so that the next scrapes fetch the junk.
    await scrapeFor(quick ? 40 : 70);
    const maxProbeMs = await probes.stop();
    await sleep(3000);
    const after: HostileRow = {
      answer: '… then a list of junk at the body cap while all of that is held',
      bodyBytes: junk.length,
      outcome: await outcomeOf(exporter.url),
      maxProbeMs,
      startRssBytes: before.afterRssBytes,
      peakRssBytes: memory(exporter.pid).peak,
      afterRssBytes: memory(exporter.pid).rss,
      load: loadavg()[0] ?? Number.NaN,
    };
    return [before, after];
  } finally {
    await agent.close();
    await exporter.stop();
    await sim.close();
  }
}

export async function measureHostile(quick: boolean, log: (line: string) => void): Promise<HostileRow[]> {
  const rows: HostileRow[] = [];
  for (const s of scenarios(quick)) {
    rows.push(await runScenario(s));
    log(`hostile: ${s.answer} done`);
  }
  rows.push(...(await runSizing(quick)));
  log('hostile: sizing done');
  return rows;
}

const mib = (bytes: number): string => (bytes / MiB).toFixed(1);

export function renderHostile(rows: readonly HostileRow[]): string {
  const head = [
    '| answer | body MB | outcome | longest probe ms | RSS before MiB | peak RSS MiB | RSS after MiB | load |',
    '|:--|--:|:--|--:|--:|--:|--:|--:|',
  ];
  const lines = rows.map(
    (r) =>
      `| ${r.answer} | ${(r.bodyBytes / 1e6).toFixed(1)} | ${r.outcome} | ${Math.round(r.maxProbeMs)} | ${mib(r.startRssBytes)} | ${mib(r.peakRssBytes)} | ${mib(r.afterRssBytes)} | ${r.load.toFixed(1)} |`,
  );
  return [...head, ...lines].join('\n');
}
