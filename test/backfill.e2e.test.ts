// The backfill as a user runs it, against the simulator's history: the OpenMetrics file becomes TSDB blocks with
// the real promtool, and a real Prometheus opened on them answers, at past instants, exactly the values the
// simulator sent (converted from its units), with the --label labels; the air-quality dashboard's panels find
// data over the range. Then the exit statuses, the retry command, the key, and an interrupted run.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKFILL_FAMILIES } from '../src/backfill/samples.js';
import { demoHistoryIntercept, demoReadings } from '../src/demo/history.js';
import { demoHasNoReadings, demoRow } from '../src/demo/readings.js';
import {
  type Simulator as DemoSimulator,
  startSimulator as startDemoSimulator,
} from '../src/demo/simulator.js';
import { demoStations } from '../src/demo/stations.js';
import { convertWithin } from '../src/readings/ranges.js';
import {
  loadDashboards,
  NORMS_RULES_FILE,
  panelQueries,
  RULES_FILE,
  substitute,
} from './monitoring/model.js';
import { type ApiBehaviour, ORDERS, stationTimes } from './support/api-behaviour.js';
import { runBackfill, spawnBackfill } from './support/backfill.js';
import { readStrictOpenMetrics } from './support/openmetrics-strict.js';
import { prometheusPath, type RunningPrometheus, startPrometheus } from './support/prometheus.js';
import { promtoolPath } from './support/promtool.js';
import { type Simulator, startSimulator } from './support/simulator.js';

const KEY = 'bf-e2e-7Qx2Lm9Tz4Wk';
const STEP = 300_000;
const DAY = 86_400_000;
const posts = demoStations();
const NOW = Date.now();
const FROM = Math.floor((NOW - 3 * DAY) / STEP) * STEP;
const TO = Math.floor((NOW - DAY) / STEP) * STEP;
const LABELS = ['--label', 'job=cityair', '--label', 'instance=backfill:9610'];
// The demo's stations in mg/m³ and mm Hg (1000), in µg/m³ and hPa (1102), and with a row not in UTC each noon (1034).
const MG_STATION = 1000;
const UG_STATION = 1102;
const BAD_ROW_STATION = 1034;
const FACTORS: Readonly<Record<string, number>> = { 'mg/m³': 1000, 'µg/m³': 1, 'mm Hg': 133.322, hPa: 100 };
// Panels a backfill cannot fill: the readings collector's own rounds and requests (a backfill writes readings,
// not the collector's health), the stations' online state (its history is not in the API), and substances the
// demo never sends.
const NOT_BACKFILLED = new Set([
  'Last readings round',
  'Readings round',
  'Readings requests',
  'Fields left out',
  'Online stations without readings',
  'Other substances',
]);
// Two days are no year: the annual panel shows a station once most days of a year hold its readings.
const ANNUAL_PANEL = 'Multiple of ПДК с.г. and of the WHO annual guideline (365-day mean)';

const iso = (ms: number): string => new Date(ms).toISOString();
/** A value as the simulator sent it, in its unit, converted as the exporter converts every reading. */
const converted = (value: unknown, unit: string | undefined): number | undefined =>
  convertWithin(value as number, FACTORS[unit ?? ''] as number, { min: -Infinity, max: Infinity });
const env = { CITYAIR_API_KEY: KEY };

describe.skipIf(!promtoolPath() || !prometheusPath())('backfill into Prometheus through promtool', () => {
  let sim: DemoSimulator;
  let dir: string;
  let prom: RunningPrometheus;
  let run: Awaited<ReturnType<typeof runBackfill>>;

  beforeAll(async () => {
    sim = await startDemoSimulator({
      posts,
      apiKey: KEY,
      readings: demoReadings,
      intercept: demoHistoryIntercept(),
    });
    dir = mkdtempSync(join(tmpdir(), 'cityair-backfill-'));
    run = await runBackfill(
      [
        `--upstream.url=${sim.baseUrl}`,
        `--from=${iso(FROM)}`,
        `--to=${iso(TO)}`,
        `--output=${join(dir, 'air.om')}`,
        '--measurements.concurrency=4',
        ...LABELS,
      ],
      env,
    );
    const blocks = join(dir, 'blocks');
    const promtool = spawnSync(
      promtoolPath() as string,
      ['tsdb', 'create-blocks-from', 'openmetrics', '--max-block-duration=744h', join(dir, 'air.om'), blocks],
      { encoding: 'utf8' },
    );
    if (promtool.status !== 0) throw new Error(`promtool: ${promtool.stderr}`);
    // The recording rules over the backfilled range, as docs/backfill.md says: evaluated by promtool against a
    // Prometheus holding the blocks, then loaded next to them; twice, as rules read the means other rules record.
    for (const pass of [1, 2]) {
      const held = await startPrometheus({ scrapeConfigs: [], blocksFrom: blocks });
      const rules = spawnSync(
        promtoolPath() as string,
        [
          'tsdb',
          'create-blocks-from',
          'rules',
          `--start=${iso(FROM)}`,
          `--end=${iso(TO)}`,
          `--url=${held.url}`,
          `--output-dir=${join(dir, `rules-${pass}`)}`,
          RULES_FILE,
          NORMS_RULES_FILE,
        ],
        { encoding: 'utf8' },
      );
      await held.stop();
      if (rules.status !== 0) throw new Error(`promtool rules: ${rules.stderr}`);
      // The second pass writes again what the first wrote: only its blocks of rules that read rules are new, and
      // Prometheus merges identical samples of overlapping blocks.
      await cp(join(dir, `rules-${pass}`), blocks, { recursive: true });
    }
    prom = await startPrometheus({ scrapeConfigs: [], blocksFrom: blocks });
  }, 180_000);

  afterAll(async () => {
    await prom?.stop();
    await sim?.close();
  });

  it('exits 0 and says what it read, with the rows it rejected and the units it did not convert', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('backfill complete in ');
    expect(run.stderr).toContain(`${posts.length} stations (${posts.length} read, 0 failed)`);
    expect(run.stderr).toMatch(/rows rejected: [1-9]/);
    expect(run.stderr).toContain('units not converted (fields left out): ch2o in "ppb"');
    // Two stations failed and asked to wait before answering: their requests were retried.
    expect(run.stderr).toMatch(/requests \([3-9] failed\)/);
  });

  it('answers at past instants exactly the values the simulator sent, converted, with the --label labels', async () => {
    for (const id of [MG_STATION, UG_STATION]) {
      for (const t of [FROM, FROM + 137 * STEP, TO - STEP]) {
        const answer = demoReadings(id, NOW, { interval: '5m', dateGtMs: t - 1000 });
        const row = answer.data[0];
        expect(row?.date).toBe(iso(t).replace('.000Z', 'Z'));
        const u = answer.meta.units;
        const [pm] = await prom.query(
          `cityair_concentration_micrograms_per_cubic_meter{id="${id}",substance="pm2.5"}`,
          t / 1000,
        );
        expect(pm?.metric).toMatchObject({ job: 'cityair', instance: 'backfill:9610' });
        expect(pm?.value).toBe(converted(row?.pm2, u.pm2));
        const [pa] = await prom.query(`cityair_pressure_pascals{id="${id}"}`, t / 1000);
        expect(pa?.value).toBe(converted(row?.pressure, u.pressure));
        const [ts] = await prom.query(`cityair_measurement_timestamp_seconds{id="${id}"}`, t / 1000);
        expect(ts?.value).toBe(t / 1000);
      }
    }
  });

  it('has every station with rows, named by the station list', async () => {
    const t = (FROM + TO) / 2000;
    const named = await prom.query(
      'cityair_aqi{index="cityair"} * on (job, instance, id) group_left (name) cityair_station_info',
      t,
    );
    const withRows = posts.filter((p) => !demoHasNoReadings(p.id));
    expect(named.map((s) => s.metric.name).sort()).toEqual(withRows.map((p) => p.name).sort());
  });

  it('writes one sample per row, none for a rejected row', async () => {
    const span = `${(TO - FROM) / 1000}s`;
    const count = async (id: number): Promise<number | undefined> =>
      (
        await prom.query(
          `count_over_time(cityair_measurement_timestamp_seconds{id="${id}"}[${span}])`,
          (TO - 1) / 1000,
        )
      )[0]?.value;
    const rows = (TO - FROM) / STEP;
    const noons = Array.from({ length: rows }, (_, i) => FROM + i * STEP).filter(
      (t) => t % DAY === 12 * 3_600_000,
    );
    expect(await count(MG_STATION)).toBe(rows);
    expect(await count(BAD_ROW_STATION)).toBe(rows - noons.length);
  });

  const airQuality = loadDashboards().find((d) => d.model.uid === 'cityair-air-quality');
  const queries = (airQuality ? panelQueries(airQuality) : []).filter((q) => !NOT_BACKFILLED.has(q.panel));

  it.each(
    queries.map((q) => [`${q.panel} ${q.refId}`, q.panel === ANNUAL_PANEL ? 'is empty' : 'has data', q.expr]),
  )('the air-quality panel %s %s in the range', async (_name, expected, expr) => {
    const values = {
      $job: 'cityair',
      $instance: '.*',
      $tz: '.*',
      $__rate_interval: '20m',
      $__interval: '5m',
      $__range: '1d',
      $lookback: '5m',
    };
    const result = await prom.query(substitute(expr, values), (FROM + 2 * DAY - 1) / 1000);
    expect(result.length > 0, substitute(expr, values)).toBe(expected === 'has data');
  });

  it('writes strict OpenMetrics: each family whole, its HELP and TYPE first, every series forward in time, # EOF last', () => {
    const strict = readStrictOpenMetrics(readFileSync(join(dir, 'air.om'), 'utf8'));
    expect(strict.problems).toEqual([]);
    expect(strict.families).toEqual(BACKFILL_FAMILIES.map((f) => f.name));
    expect(run.stderr).toContain(`${strict.samples.toLocaleString('en-US')} samples`);
  });

  it('never writes the API key into the file or the output', () => {
    expect(readFileSync(join(dir, 'air.om'), 'utf8')).not.toContain(KEY);
    expect(run.stderr + run.stdout).not.toContain(KEY);
  });
});

describe('an API that cuts, orders and filters its answers as it likes', () => {
  const ids = [1000, 1102, 1034];
  const OFFLINE = 1102;
  // --from with milliseconds, not on a row's time: what is missing must start at that very millisecond.
  const from = TO - DAY + 1234;
  const times = (id: number, stepMs: number): number[] =>
    stationTimes(
      FROM - DAY,
      NOW - stepMs,
      stepMs,
      id === OFFLINE ? [[TO - 18 * 3600_000, TO - 9 * 3600_000]] : [],
    );
  const inRange = (id: number): number[] => times(id, STEP).filter((t) => t >= from && t < TO);
  const stationPosts = posts.filter((p) => ids.includes((p as { id: number }).id));

  /** Each station's row times in the file, from its timestamp series. */
  function writtenTimes(text: string): Map<number, number[]> {
    const out = new Map<number, number[]>();
    for (const m of text.matchAll(
      /^cityair_measurement_timestamp_seconds\{id="(\d+)"[^}]*\} (\S+) (\S+)$/gm,
    )) {
      expect(Number(m[2])).toBe(Number(m[3]));
      const list = out.get(Number(m[1])) ?? [];
      list.push(Math.round(Number(m[2]) * 1000));
      out.set(Number(m[1]), list);
    }
    return out;
  }

  async function backfillFrom(behaviour: ApiBehaviour, name: string) {
    const sim = await startSimulator({ posts: stationPosts, apiKey: KEY, api: { behaviour, times } });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'cityair-backfill-api-'));
      const output = join(dir, `${name}.om`);
      const run = await runBackfill(
        [
          `--upstream.url=${sim.baseUrl}`,
          `--from=${iso(from)}`,
          `--to=${iso(TO)}`,
          `--output=${output}`,
          ...LABELS,
        ],
        env,
      );
      return { run, text: existsSync(output) ? readFileSync(output, 'utf8') : '' };
    } finally {
      await sim.close();
    }
  }

  it('exits 0 with every row of the range, exactly, from an API that answers its newest 100 rows first', async () => {
    const { run, text } = await backfillFrom(
      { ...ORDERS['newest first'], cap: 100, dateGt: 'exclusive', dateLt: 'exclusive' },
      'newest',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('backfill complete');
    const written = writtenTimes(text);
    for (const id of ids) expect(written.get(id), `station ${id}`).toEqual(inRange(id));
    // Values too: the first station's PM2.5 at each row is the simulator's, converted.
    const pm = [
      ...text.matchAll(
        /^cityair_concentration_micrograms_per_cubic_meter\{id="1000",substance="pm2.5"[^}]*\} (\S+) (\S+)$/gm,
      ),
    ];
    expect(pm.map((m) => Math.round(Number(m[2]) * 1000))).toEqual(inRange(1000));
    for (const m of pm) {
      const t = Math.round(Number(m[2]) * 1000);
      expect(Number(m[1])).toBe(converted(demoRow(1000, t).pm2, 'mg/m³'));
    }
  });

  it('exits 1 naming each station, the exact range and why, from an API that answers its latest rows whatever it is asked', async () => {
    const { run } = await backfillFrom(
      { ...ORDERS['newest first'], cap: 100, dateGt: 'ignored', dateLt: 'ignored' },
      'latest',
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`${ids.length} stations (0 read, ${ids.length} failed)`);
    const fromText = iso(from);
    expect(fromText).toMatch(/\.234Z$/);
    for (const id of ids) {
      expect(run.stderr).toMatch(
        new RegExp(
          `  ${id}: not_served: the API answered the same newest rows .*whatever date__gt .*; missing ${fromText} to ${iso(TO).replace('.000Z', 'Z')}`,
        ),
      );
    }
    expect(run.stderr).toContain(
      `--from=${fromText} --to=${iso(TO).replace('.000Z', 'Z')} --measurements.stations=1000,1034,1102`,
    );
  });
});

describe('exit statuses and the retry command', () => {
  let sim: Simulator;
  const FAILING = 1051;

  beforeAll(async () => {
    sim = await startSimulator({ posts, apiKey: KEY });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('exits 1 naming the failed station and its missing range, and its retry command reads exactly that', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-backfill-'));
    sim.setReadingsFault(FAILING, { kind: 'status', status: 500, body: `{"error":"broken","key":"${KEY}"}` });
    const from = iso(TO - DAY);
    const args = [
      `--upstream.url=${sim.baseUrl}`,
      `--from=${from}`,
      `--to=${iso(TO)}`,
      '--retries=1',
      ...LABELS,
    ];
    const failed = await runBackfill([...args, `--output=${join(dir, 'a.om')}`], env);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain(`${posts.length} stations (${posts.length - 1} read, 1 failed)`);
    expect(failed.stderr).toContain(`  ${FAILING}: http_5xx: HTTP 500: `);
    expect(failed.stderr).toContain(
      `missing ${from.replace('.000Z', 'Z')} to ${iso(TO).replace('.000Z', 'Z')}`,
    );
    expect(failed.stderr).not.toContain(KEY);
    // The other stations are in the file all the same.
    expect(readFileSync(join(dir, 'a.om'), 'utf8')).toContain('id="1000"');

    const lines = failed.stderr.split('\n');
    const command = lines[lines.indexOf('retry exactly these stations with:') + 1]?.trim() ?? '';
    // Started as `node dist/main.js backfill`, the retry is printed the same way (no bin on PATH after a build).
    expect(command).toMatch(/^node \S*dist\/main\.js backfill /);
    expect(command).toContain(`--measurements.stations=${FAILING}`);
    sim.setReadingsFault(FAILING, undefined);
    const retryArgs = command.split(' ').slice(3);
    const retried = await runBackfill(retryArgs, env);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toContain('1 stations (1 read, 0 failed)');
    const text = readFileSync(join(dir, 'a.retry.om'), 'utf8');
    expect(new Set([...text.matchAll(/\{id="(\d+)"/g)].map((m) => m[1]))).toEqual(new Set([String(FAILING)]));
  });

  it('exits 1 without writing anything when the station list cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-backfill-'));
    const r = await runBackfill(
      [`--upstream.url=${sim.baseUrl}`, '--from=1h', `--output=${join(dir, 'x.om')}`],
      { CITYAIR_API_KEY: 'wrong-key-0123456789abcdef' },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the station list could not be read');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('exits 2 with one line for invalid use', async () => {
    const r = await runBackfill(['--from=1d'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'cityair-exporter backfill: give exactly one of --output (a file, or - for standard output) and --remote-write.url\n',
    );
  });

  it('exits 2 with one line for an --output that is a FIFO, and leaves the FIFO as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-backfill-'));
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const r = await runBackfill(
      [`--upstream.url=${sim.baseUrl}`, '--from=1h', `--output=${fifo}`, ...LABELS],
      env,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^cityair-exporter backfill: invalid --output: .* is not a regular file .*\n$/);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('writes to standard output with --output=-', async () => {
    const r = await runBackfill(
      [`--upstream.url=${sim.baseUrl}`, '--from=2h', '--output=-', '--measurements.stations=1000'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# HELP /);
    expect(readStrictOpenMetrics(r.stdout).problems).toEqual([]);
  });

  it.skipIf(!existsSync('/dev/full'))(
    'exits 1 when standard output fills up, saying that what it wrote is cut short',
    async () => {
      const full = openSync('/dev/full', 'w');
      try {
        const r = await spawnBackfill(
          [`--upstream.url=${sim.baseUrl}`, '--from=2d', '--output=-', ...LABELS],
          env,
          full,
        ).done;
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain('ENOSPC');
        expect(r.stderr).toContain(
          'standard output was cut short, without \\"# EOF\\": discard what it wrote',
        );
        expect(r.stderr).not.toContain(KEY);
      } finally {
        closeSync(full);
      }
    },
  );

  it('logs progress every 10 s off a terminal, and leaves no file when interrupted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-backfill-'));
    for (const p of posts) sim.setReadingsFault(p.id, { kind: 'slow', delayMs: 1500 });
    const running = spawnBackfill(
      [`--upstream.url=${sim.baseUrl}`, '--from=30d', `--output=${join(dir, 'big.om')}`, ...LABELS],
      env,
    );
    const deadline = Date.now() + 20_000;
    while (!running.stderr().includes('backfill progress') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    const progress =
      running
        .stderr()
        .split('\n')
        .find((l) => l.includes('backfill progress')) ?? '';
    expect(progress, running.stderr()).not.toBe('');
    const figures = JSON.parse(progress);
    expect(figures).toMatchObject({ level: 'info', msg: 'backfill progress' });
    expect(figures.stations).toMatch(new RegExp(`^\\d+/${posts.length}$`));
    for (const key of [
      'rows',
      'samples',
      'requests',
      'failures',
      'rowsPerSecond',
      'elapsedSeconds',
      'etaSeconds',
    ])
      expect(figures).toHaveProperty(key);
    expect(readdirSync(dir).length).toBe(1); // the partial file, under another name
    running.child.kill('SIGINT');
    const r = await running.done;
    for (const p of posts) sim.setReadingsFault(p.id, undefined);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(
      `backfill interrupted by SIGINT; nothing was written to ${join(dir, 'big.om')}`,
    );
    expect(r.stderr).not.toContain('writing failed');
    expect(existsSync(join(dir, 'big.om'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  }, 40_000);
});

describe.skipIf(!promtoolPath() || !prometheusPath())('hourly rows on the air-quality dashboard', () => {
  let sim: Simulator;
  let prom: RunningPrometheus;
  const HOUR = 3_600_000;
  const from = Math.floor((NOW - 2 * DAY) / HOUR) * HOUR;
  const to = Math.floor((NOW - DAY) / HOUR) * HOUR;

  beforeAll(async () => {
    sim = await startSimulator({ posts, apiKey: KEY });
    const dir = mkdtempSync(join(tmpdir(), 'cityair-backfill-1h-'));
    const run = await runBackfill(
      [
        `--upstream.url=${sim.baseUrl}`,
        `--from=${iso(from)}`,
        `--to=${iso(to)}`,
        '--measurements.interval=1h',
        `--measurements.stations=${MG_STATION},${UG_STATION}`,
        `--output=${join(dir, 'hourly.om')}`,
        ...LABELS,
      ],
      env,
    );
    if (run.code !== 0) throw new Error(run.stderr);
    const blocks = join(dir, 'blocks');
    const promtool = spawnSync(
      promtoolPath() as string,
      [
        'tsdb',
        'create-blocks-from',
        'openmetrics',
        '--max-block-duration=744h',
        join(dir, 'hourly.om'),
        blocks,
      ],
      { encoding: 'utf8' },
    );
    if (promtool.status !== 0) throw new Error(`promtool: ${promtool.stderr}`);
    prom = await startPrometheus({ scrapeConfigs: [], blocksFrom: blocks });
  }, 60_000);

  afterAll(async () => {
    await prom?.stop();
    await sim?.close();
  });

  it('draws each station half an hour after its row with Row interval 1h, and not with 5m', async () => {
    const pm25 = loadDashboards()
      .find((d) => d.model.uid === 'cityair-air-quality')
      ?.model.panels.find((p) => p.title === 'PM2.5')
      ?.targets?.find((t) => t.refId === 'A')?.expr;
    expect(pm25).toBeDefined();
    const at = (from + 10 * HOUR + HOUR / 2) / 1000;
    const values = (lookback: string) => ({
      $job: 'cityair',
      $instance: '.*',
      $tz: '.*',
      $lookback: lookback,
    });
    const hourly = await prom.query(substitute(pm25 as string, values('1h')), at);
    expect(hourly.map((s) => s.metric.id).sort()).toEqual([String(MG_STATION), String(UG_STATION)]);
    expect(await prom.query(substitute(pm25 as string, values('5m')), at)).toEqual([]);
  });
});
