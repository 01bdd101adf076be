// The benchmark's command line, validated with zod like every other outside input.
import { z } from 'zod';

export const PHASES = ['stations', 'checks', 'readings', 'backfill', 'report', 'record', 'hostile'] as const;
export type Phase = (typeof PHASES)[number];
/** Hostile answers take minutes of their own and size the memory limit: asked for by name only. */
const DEFAULT_PHASES: readonly Phase[] = ['stations', 'checks', 'readings', 'backfill', 'report', 'record'];

export interface BenchOptions {
  /**
   * What runs: the main table (stations), flat memory (checks), the readings round (readings), the backfill
   * (backfill), a period report read back from a store (report), a round of the record for 1,000 stations
   * (record), answers at and beyond the caps (hostile).
   */
  readonly phases: ReadonlySet<Phase>;
  /** Stations of the readings phase's round and cached scrapes. */
  readonly readingsStations: number;
  /** Stations and days of 5-minute rows the backfill phase reads. */
  readonly backfillStations: number;
  readonly backfillDays: number;
  /** Runs of the backfill phase; the table gives each and, when more than one, their median. */
  readonly backfillRuns: number;
  /** Stations and days of 5-minute rows the report phase reads back from VictoriaMetrics. */
  readonly reportStations: number;
  readonly reportDays: number;
  /** Stations and hours of lookback of the record phase's rounds. */
  readonly recordStations: number;
  readonly recordHours: number;
  readonly sizes: readonly number[];
  /** Timed scrapes per size and mode; undefined lets each size pick a count that fits the time budget. */
  readonly scrapes: number | undefined;
  readonly memoryStations: number;
  readonly memoryScrapes: readonly [number, number];
  readonly quick: boolean;
  /** Leaves out the 5,000-scrape memory check: the smoke test's correctness run needs no minutes of it. */
  readonly skipMemory: boolean;
  /** Markdown file to (re)write with the machine, the command and the table. */
  readonly out: string | undefined;
}

const count = z.coerce.number<string>().int().min(1).max(1_000_000);

const flagsSchema = z
  .object({
    sizes: z
      .string()
      .regex(/^\d+(,\d+)*$/, 'a comma-separated list of station counts, e.g. 1000,10000')
      .transform((s) => s.split(',').map(Number))
      .pipe(z.array(z.int().min(1).max(1_000_000)).min(1))
      .optional(),
    scrapes: count.optional(),
    phases: z
      .string()
      .transform((s) => s.split(','))
      .pipe(z.array(z.enum(PHASES)).min(1))
      .optional(),
    'readings-stations': count.max(100_000).optional(),
    'backfill-stations': count.max(100_000).optional(),
    'backfill-days': count.max(366).optional(),
    'backfill-runs': count.max(9).optional(),
    'report-stations': count.max(10_000).optional(),
    'report-days': count.max(366).optional(),
    'record-stations': count.max(10_000).optional(),
    'record-hours': count.max(744).optional(),
    'memory-stations': count.optional(),
    quick: z.literal(true).optional(),
    'skip-memory': z.literal(true).optional(),
    out: z.string().min(1).optional(),
  })
  .strict();

export const USAGE = `usage: npm run bench -- [--sizes=1000,10000,100000] [--scrapes=N] [--memory-stations=N]
                         [--quick] [--skip-memory] [--out=docs/benchmarks.md]
                         [--phases=stations,checks,readings,backfill,report,record,hostile]
                         [--readings-stations=10000]
                         [--backfill-stations=1000] [--backfill-days=30] [--backfill-runs=1]
                         [--report-stations=100] [--report-days=365]
                         [--record-stations=1000] [--record-hours=48]`;

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const raw: Record<string, string | true> = {};
  for (const arg of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m?.[1]) throw new Error(`unexpected argument "${arg}"\n${USAGE}`);
    raw[m[1]] = m[2] ?? true;
  }
  const parsed = flagsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`--${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}\n${USAGE}`);
  }
  const f = parsed.data;
  const quick = f.quick === true;
  return {
    // The record's phase starts VictoriaMetrics twice and three exporters: the quick smoke run leaves it out
    // unless it is named.
    phases: new Set(f.phases ?? (quick ? DEFAULT_PHASES.filter((p) => p !== 'record') : DEFAULT_PHASES)),
    readingsStations: f['readings-stations'] ?? (quick ? 200 : 10_000),
    backfillStations: f['backfill-stations'] ?? (quick ? 20 : 1000),
    backfillDays: f['backfill-days'] ?? (quick ? 2 : 30),
    backfillRuns: f['backfill-runs'] ?? 1,
    reportStations: f['report-stations'] ?? (quick ? 3 : 100),
    reportDays: f['report-days'] ?? (quick ? 2 : 365),
    recordStations: f['record-stations'] ?? (quick ? 20 : 1000),
    recordHours: f['record-hours'] ?? (quick ? 2 : 48),
    sizes: f.sizes ?? (quick ? [200] : [1000, 10_000, 100_000]),
    scrapes: f.scrapes ?? (quick ? 20 : undefined),
    memoryStations: f['memory-stations'] ?? 1000,
    memoryScrapes: [500, 5000],
    quick,
    skipMemory: f['skip-memory'] === true,
    out: f.out,
  };
}
