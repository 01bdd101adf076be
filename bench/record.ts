// The record phase: one round of the record for 1,000 stations (by default) against a real VictoriaMetrics that
// holds every row of the 48-hour lookback, then one that lacks 10 % of them (chosen at random, seeded): the store
// queries, the CityAir requests and the time of the round, and the exporter's peak RSS next to the same exporter
// without the record.
import { encodeWriteRequest, wireLabels } from '../src/backfill/remote-write-proto.js';
import { demoHasNoReadings } from '../src/demo/readings.js';
import { syntheticStations } from '../src/demo/stations.js';
import { binaryPath, startVictoriaMetrics, waitFor } from '../test/support/daemon.js';
import { seededRandom } from '../test/support/seeded-random.js';
import { startSimulator } from '../test/support/simulator.js';
import { cpuMs, memory, startExporter } from './proc.js';

const STEP = 300_000;
const LABELS = [['instance', 'exporter:9610'] as const, ['job', 'cityair'] as const];
const TS = 'cityair_measurement_timestamp_seconds';

export interface RecordBenchRow {
  readonly missing: string;
  readonly stations: number;
  readonly rowsHeld: number;
  readonly rowsMissing: number;
  /** Missing rows well inside the lookback and older than max-age: every one of them must be written. */
  readonly rowsMissingInside: number;
  readonly storeQueries: number;
  readonly cityairRequests: number;
  readonly rowsWritten: number;
  readonly roundSeconds: number;
  /** The exporter's CPU from its start to the round's end: start-up and one readings round, then the round. */
  readonly cpuSeconds: number;
  readonly peakRssBytes: number;
}

export interface RecordBenchResult {
  readonly baselinePeakRssBytes: number;
  readonly baselineCpuSeconds: number;
  readonly rows: readonly RecordBenchRow[];
}

/** The exporter's flags: readings on, one readings round in the phase, the record's defaults. */
const ARGS = [
  '--upstream.min-interval=5m',
  '--collector.measurements',
  '--measurements.concurrency=4',
  '--measurements.refresh-interval=20m',
  '--measurements.max-age=30m',
];

async function metricsOf(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** Every row of each station in the lookback, at its own time, as a backfill or the record writes it. */
async function fill(
  writeUrl: string,
  ids: readonly number[],
  rows: readonly number[],
  keep: (i: number) => boolean,
) {
  let held = 0;
  let index = 0;
  for (let i = 0; i < ids.length; i += 50) {
    const series = ids.slice(i, i + 50).map((id) => {
      const samples: { value: number; timestamp: number }[] = [];
      for (const t of rows) if (keep(index++)) samples.push({ value: t / 1000, timestamp: t });
      held += samples.length;
      return { labels: wireLabels(TS, [['id', String(id)], ...LABELS]), samples };
    });
    const res = await fetch(writeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy' },
      body: encodeWriteRequest(series),
    });
    if (!res.ok) throw new Error(`fill: HTTP ${res.status}`);
  }
  return held;
}

export async function measureRecord(
  stationCount: number,
  hours: number,
  notes: string[],
): Promise<RecordBenchResult | undefined> {
  const lookbackMs = hours * 3_600_000;
  const binary = binaryPath('victoria-metrics', 'victoria-metrics');
  if (!binary) {
    notes.push('record: victoria-metrics is not installed; the phase was skipped');
    return undefined;
  }
  // Stations that have rows: one the demo keeps silent would be a gap in every round.
  const posts = syntheticStations(Math.ceil(stationCount * 1.1))
    .filter((p) => !demoHasNoReadings(p.id))
    .slice(0, stationCount);
  const ids = posts.map((p) => p.id);
  const sim = await startSimulator({ posts });
  try {
    const baseline = await startExporter(sim.baseUrl, ARGS);
    await waitFor(
      'the readings round',
      async () =>
        ((await metricsOf(baseline.url)).get('cityair_measurements_last_round_timestamp_seconds') ?? 0) > 0
          ? true
          : undefined,
      120_000,
    );
    await new Promise((r) => setTimeout(r, 2000));
    const baselinePeak = memory(baseline.pid).peak;
    const baselineCpu = cpuMs(baseline.pid) / 1000;
    await baseline.stop();

    const rows: RecordBenchRow[] = [];
    for (const [missing, share] of [
      ['none', 0],
      ['10 %', 0.1],
    ] as const) {
      const vm = await startVictoriaMetrics(binary, '1y', 'cityair-bench-record-');
      try {
        const now = Date.now();
        const newest = Math.floor(now / STEP) * STEP - STEP;
        const times: number[] = [];
        for (let t = Math.ceil((now - lookbackMs - 3 * STEP) / STEP) * STEP; t <= newest; t += STEP)
          times.push(t);
        const random = seededRandom(22);
        const inside = (t: number): boolean =>
          t >= now - lookbackMs + 2 * STEP && t < now - 30 * 60_000 - STEP;
        let missingInside = 0;
        const keep = (i: number): boolean => {
          const k = random() >= share;
          if (!k && inside(times[i % times.length] as number)) missingInside++;
          return k;
        };
        const held = await fill(`${vm.url}/api/v1/write`, ids, times, keep);
        await waitFor(
          'the rows in VictoriaMetrics',
          async () => {
            const res = await fetch(
              `${vm.url}/api/v1/query?query=count(count_over_time(${TS}[${hours + 2}h]))`,
            );
            const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
            return Number(body.data.result[0]?.value[1]) === ids.length ? true : undefined;
          },
          60_000,
        );
        await new Promise((r) => setTimeout(r, 3000));
        const exporter = await startExporter(sim.baseUrl, [
          ...ARGS,
          `--record.remote-write.url=${vm.url}/api/v1/write`,
          `--record.query.url=${vm.url}`,
          '--record.label=job=cityair',
          '--record.label=instance=exporter:9610',
          `--record.lookback=${hours}h`,
        ]);
        const before = sim.walkRequests();
        const m = await waitFor(
          'a record round',
          async () => {
            const all = await metricsOf(exporter.url);
            const done = ['complete', 'partial', 'failed'].some(
              (o) => (all.get(`cityair_record_rounds_total{outcome="${o}"}`) ?? 0) > 0,
            );
            return done ? all : undefined;
          },
          600_000,
        );
        const peak = memory(exporter.pid).peak;
        const cpu = cpuMs(exporter.pid) / 1000;
        await exporter.stop();
        if ((m.get('cityair_record_rounds_total{outcome="complete"}') ?? 0) !== 1)
          notes.push(`record (${missing} missing): the round did not complete`);
        rows.push({
          missing,
          stations: ids.length,
          rowsHeld: held,
          rowsMissing: ids.length * times.length - held,
          rowsMissingInside: missingInside,
          storeQueries: m.get('cityair_record_store_queries_total') ?? Number.NaN,
          cityairRequests: sim.walkRequests() - before,
          rowsWritten: m.get('cityair_record_written_rows_total') ?? Number.NaN,
          roundSeconds: m.get('cityair_record_last_round_duration_seconds') ?? Number.NaN,
          cpuSeconds: cpu,
          peakRssBytes: peak,
        });
        process.stderr.write(`bench: record, ${missing} missing, done\n`);
      } finally {
        await vm.daemon.stop();
      }
    }
    return { baselinePeakRssBytes: baselinePeak, baselineCpuSeconds: baselineCpu, rows };
  } finally {
    await sim.close();
  }
}

const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

export function renderRecord(result: RecordBenchResult): string {
  const head =
    '| rows missing | stations | rows held | rows missing | store queries | CityAir requests | rows written | round (s) | CPU (s) | peak RSS (MiB) | over the exporter without the record (MiB) |\n' +
    '|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|';
  const lines = result.rows.map(
    (r) =>
      `| ${r.missing} | ${r.stations} | ${r.rowsHeld} | ${r.rowsMissing} | ${r.storeQueries} | ${r.cityairRequests} | ${r.rowsWritten} | ${r.roundSeconds.toFixed(2)} | ${r.cpuSeconds.toFixed(2)} | ${mib(r.peakRssBytes)} | ${mib(r.peakRssBytes - result.baselinePeakRssBytes)} |`,
  );
  return `${head}\n${lines.join('\n')}\n\nThe exporter without the record (same flags, one readings round): peak RSS ${mib(result.baselinePeakRssBytes)} MiB, CPU ${result.baselineCpuSeconds.toFixed(2)} s. CPU: the exporter's from its start to the round's end (start-up and one readings round included).`;
}

export function judgeRecord(result: RecordBenchResult): { name: string; pass: boolean; detail: string }[] {
  const none = result.rows.find((r) => r.missing === 'none');
  const most = Math.max(...result.rows.map((r) => r.peakRssBytes - result.baselinePeakRssBytes));
  return [
    {
      name: 'no gaps: no CityAir request',
      pass: none?.cityairRequests === 0,
      detail: `${none?.cityairRequests} requests`,
    },
    {
      name: 'peak RSS within 20 MiB of the exporter without the record',
      pass: most <= 20 * 1024 * 1024,
      detail: `${mib(most)} MiB more`,
    },
    ...result.rows
      .filter((r) => r.rowsMissing > 0)
      .map((r) => ({
        name: `${r.missing} missing: every missing row written`,
        pass: r.rowsWritten >= r.rowsMissingInside && r.rowsWritten <= r.rowsMissing,
        detail: `${r.rowsWritten} written; ${r.rowsMissingInside} missing inside the window, ${r.rowsMissing} in all`,
      })),
  ];
}
