// `cityair-exporter backfill`: settings, the upstream (or the demo's simulator), the sink, progress, signals,
// then one run, the summary and the exit status: 0 every station read, 1 some were not (or nothing could be),
// 2 invalid use.
import { parseArgs } from 'node:util';
import {
  ConfigError,
  EXIT,
  flagOptions,
  usageFailure,
  withBareBooleansTrue,
} from '../config/command-line.js';
import { READINGS_INTERVAL_MS } from '../config/config.js';
import type { BuildFacts } from '../config/package-info.js';
import { createLogger } from '../log/logger.js';
import { readReadingRows } from '../readings/read.js';
import { limitHeapGrowth } from '../runtime/heap-growth.js';
import { armTimer } from '../runtime/timers.js';
import { readStations } from '../stations/read.js';
import { STATION_SOCKETS } from '../stations/slice.js';
import { openApi, type SimulatedApi, type UpstreamPools } from '../upstream/pools.js';
import { BACKFILL_COMMAND_LINE, type BackfillConfig, backfillHelp, parseBackfillCli } from './config.js';
import { openMetricsSink } from './openmetrics-sink.js';
import { outputOpenProblem, outputPathProblem, replacedOutputProblem } from './output-path.js';
import { startProgress } from './progress.js';
import { runBackfill } from './run.js';
import type { Sink } from './sink.js';
import { newStats } from './stats.js';
import { type ArgToken, invokedAs, retryCommand, summaryText } from './summary.js';

type Log = ReturnType<typeof createLogger>;
/** A pool for the station list and one for the readings, as in the exporter. */
type Pools = 'stations' | 'readings';

/** Starts the simulated API for --demo (the composition root hands it in: a slice does not import the demo). */
export type StartDemo = (apiKey: string) => Promise<SimulatedApi>;

export async function backfillMain(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  build: BuildFacts,
  demo?: StartDemo,
): Promise<number> {
  limitHeapGrowth();
  let config: BackfillConfig;
  let warnings: readonly string[];
  try {
    const action = parseBackfillCli(argv, env, Date.now());
    if (action.kind === 'help') {
      process.stdout.write(backfillHelp(build.version));
      return EXIT.ok;
    }
    config = action.config;
    warnings = action.warnings;
  } catch (error) {
    return usageFailure('backfill', error, { argv, env });
  }
  const tty = process.stderr.isTTY ? process.stderr : undefined;
  let clearLine = (): void => undefined;
  const log = createLogger(
    { ...config.log, secret: config.upstream.apiKey },
    {
      write: (line) => {
        clearLine();
        process.stderr.write(line);
      },
    },
  );
  for (const warning of warnings) log.warn(warning);
  const labelNames = new Set(config.labels.map(([name]) => name));
  if (!labelNames.has('job') || !labelNames.has('instance')) {
    log.warn(
      'no --label job=... and instance=...: the series will not be those Prometheus scraped, and the dashboards select on job and instance',
    );
  }
  let opened: { upstream: UpstreamPools<Pools>; sink: Sink };
  try {
    opened = await open(config, build, log, demo);
  } catch (error) {
    return usageFailure('backfill', error, { argv, env });
  }
  const { upstream, sink } = opened;
  const stats = newStats(Date.now());
  const progress = startProgress({
    stats,
    spanMs: config.toMs - config.fromMs,
    now: Date.now,
    tty,
    log: (figures) => log.info({ ...figures, etaSeconds: figures.etaSeconds ?? null }, 'backfill progress'),
  });
  clearLine = progress.clear;
  const interrupted = onSignals(async (signal) => {
    progress.stop();
    log.warn(`backfill interrupted by ${signal}; ${leftBehind(config)}`);
    await sink.abort();
  });
  try {
    const result = await runBackfill({
      fetchStations: readStations(upstream.stations, config.upstream.maxStations),
      // Each answer is a window of rows: the readings' own cap, as for the live readings.
      fetchRows: readReadingRows({
        getJson: (path, validate) =>
          upstream.readings.getJson(path, validate, {
            maxBodyBytes: config.readings.maxBodyBytes,
            maxBodySetting: '--measurements.max-body-size',
          }),
      }),
      sink,
      stats,
      fromMs: config.fromMs,
      toMs: config.toMs,
      interval: config.readings.interval,
      intervalMs: READINGS_INTERVAL_MS[config.readings.interval],
      only: config.readings.stations,
      concurrency: config.readings.concurrency,
      labels: config.labels,
      retries: config.retries,
      maxBackoffMs: config.upstream.maxBackoffMs,
      now: Date.now,
      sleep: (ms) => new Promise((resolve) => armTimer(resolve, ms)),
      random: Math.random,
      log,
    });
    progress.stop();
    // An abort by a signal fails the writes in flight: that is no write failure to report.
    await interrupted.exiting();
    if (!result.ok) {
      await sink.abort();
      const what =
        result.failure instanceof Error
          ? `writing failed; ${leftBehind(config)}`
          : 'the station list could not be read; nothing was written';
      log.error({ err: result.failure.message }, `backfill stopped: ${what}`);
      return 1;
    }
    let stopped: string | undefined;
    if (result.sinkFailure) {
      // What the receiver accepted stays there; the summary and the retry command cover the rest.
      await sink.abort();
      const { acceptedSamples, message } = result.sinkFailure;
      stopped = `backfill stopped: ${message}; ${acceptedSamples.toLocaleString('en-US')} samples were accepted before that`;
      log.error({ acceptedSamples, err: message }, 'backfill stopped: remote write refused');
    } else await sink.finish();
    const retry =
      result.failed.length === 0
        ? undefined
        : retryCommand(
            invokedAs(process.argv[1]),
            tokensOf(config.argv),
            result.failed,
            config.toMs,
            outputOf(config),
            config.upstream.apiKey,
          );
    clearLine = () => undefined;
    process.stderr.write(
      summaryText({
        stats,
        failed: result.failed,
        fromMs: config.fromMs,
        toMs: config.toMs,
        nowMs: Date.now(),
        retry,
        stopped,
      }),
    );
    return result.failed.length === 0 ? 0 : 1;
  } catch (error) {
    progress.stop();
    await interrupted.exiting();
    await sink.abort();
    log.error({ err: (error as Error).message }, `backfill stopped; ${leftBehind(config)}`);
    return 1;
  } finally {
    interrupted.off();
    await upstream.close();
  }
}

/** What a run stopped before its end leaves: standard output may have taken part of the text already. */
function leftBehind(config: BackfillConfig): string {
  if (config.target.kind === 'remote-write') return 'what the receiver accepted before stays there';
  return config.target.path === '-'
    ? 'standard output was cut short, without "# EOF": discard what it wrote'
    : `nothing was written to ${config.target.path}`;
}

const outputOf = (config: BackfillConfig): string | undefined =>
  config.target.kind === 'file' ? config.target.path : undefined;

function tokensOf(argv: readonly string[]): ArgToken[] {
  const { tokens } = parseArgs({
    args: withBareBooleansTrue(argv, BACKFILL_COMMAND_LINE),
    options: flagOptions(BACKFILL_COMMAND_LINE),
    strict: false,
    tokens: true,
  });
  return tokens as ArgToken[];
}

async function open(
  config: BackfillConfig,
  build: BuildFacts,
  log: Log,
  demo: StartDemo | undefined,
): Promise<{ upstream: UpstreamPools<Pools>; sink: Sink }> {
  const sink = await openSink(config, build);
  try {
    return { upstream: await openUpstream(config, build, log, demo), sink };
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

async function openSink(config: BackfillConfig, build: BuildFacts): Promise<Sink> {
  const { target } = config;
  if (target.kind === 'remote-write') {
    const { remoteWriteSink } = await import('./remote-write-sink.js');
    return remoteWriteSink(target, `cityair-exporter/${build.version}`, {
      retries: config.retries,
      maxBackoffMs: config.upstream.maxBackoffMs,
      ...(config.upstream.apiKey ? { secret: config.upstream.apiKey } : {}),
    });
  }
  const problem = (await outputPathProblem(target.path)) ?? (await replacedOutputProblem(target.path));
  if (problem) throw new ConfigError(problem);
  try {
    return await openMetricsSink(target.path);
  } catch (error) {
    throw new ConfigError(
      outputOpenProblem(target.path, (error as NodeJS.ErrnoException).code ?? 'unwritable'),
    );
  }
}

/**
 * The API, or with --demo the built-in simulator, serving the demo's 40 stations and their history: the station
 * list through a pool of its own, the readings through one as wide as --measurements.concurrency (pools.ts).
 */
async function openUpstream(
  config: BackfillConfig,
  build: BuildFacts,
  log: Log,
  demo: StartDemo | undefined,
): Promise<UpstreamPools<Pools>> {
  if (config.demo && !demo) throw new ConfigError('--demo is not available in this build');
  return openApi({
    settings: config.upstream,
    userAgent: `cityair-exporter/${build.version}`,
    sockets: { stations: STATION_SOCKETS, readings: config.readings.concurrency },
    env: process.env,
    log,
    ...(config.demo &&
      demo && {
        simulated: { start: demo, warning: 'demo mode: backfilling SIMULATED readings, not CityAir data' },
      }),
  });
}

/** SIGINT and SIGTERM: remove the partial output, then exit 130 or 143 as shells expect. */
/** `exiting()` never resolves once a signal came: its handler ends the process after cleaning up. */
function onSignals(cleanup: (signal: NodeJS.Signals) => Promise<void>): {
  off: () => void;
  exiting: () => Promise<void>;
} {
  let signalled = false;
  const handler = (signal: NodeJS.Signals): void => {
    signalled = true;
    void cleanup(signal).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return {
    off: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
    exiting: () => (signalled ? new Promise<void>(() => undefined) : Promise.resolve()),
  };
}
