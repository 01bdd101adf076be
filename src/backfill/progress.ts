// A person watching a long backfill: on a terminal, one line redrawn in place; otherwise (a pipe, a log
// collector) a log line every 10 seconds. Both say the same: stations done of total, rows, samples, requests and
// failures, rate, elapsed time and an estimate of what is left.
import type { BackfillStats } from './stats.js';

export interface ProgressFigures {
  readonly stations: string;
  readonly rows: number;
  readonly samples: number;
  readonly requests: number;
  readonly failures: number;
  readonly rowsPerSecond: number;
  readonly elapsedSeconds: number;
  /** Undefined until something is covered. */
  readonly etaSeconds: number | undefined;
}

export function progressFigures(stats: BackfillStats, nowMs: number, spanMs: number): ProgressFigures {
  const elapsedSeconds = Math.max(0, (nowMs - stats.startedAtMs) / 1000);
  const total = stats.stationsTotal * spanMs;
  const done = Math.min(1, total > 0 ? stats.coveredMs / total : 0);
  return {
    stations: `${stats.stationsDone}/${stats.stationsTotal}`,
    rows: stats.rows,
    samples: stats.samples,
    requests: stats.requests,
    failures: stats.failedRequests,
    rowsPerSecond: elapsedSeconds > 0 ? Math.round(stats.rows / elapsedSeconds) : 0,
    elapsedSeconds: Math.round(elapsedSeconds),
    etaSeconds: done > 0 ? Math.round((elapsedSeconds * (1 - done)) / done) : undefined,
  };
}

const count = (n: number): string => n.toLocaleString('en-US');

/** 3725 → 1h2m5s, as Prometheus writes durations. */
export function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}

export function progressLine(f: ProgressFigures): string {
  const eta = f.etaSeconds === undefined ? '?' : clock(f.etaSeconds);
  return (
    `stations ${f.stations}  rows ${count(f.rows)}  samples ${count(f.samples)}  ` +
    `requests ${count(f.requests)} (${count(f.failures)} failed)  ${count(f.rowsPerSecond)} rows/s  ` +
    `elapsed ${clock(f.elapsedSeconds)}  ETA ${eta}`
  );
}

export interface ProgressOptions {
  readonly stats: BackfillStats;
  readonly spanMs: number;
  readonly now: () => number;
  /** The terminal to redraw on; undefined: log every `logEveryMs`. */
  readonly tty: { write(text: string): void; readonly columns?: number } | undefined;
  readonly log: (figures: ProgressFigures) => void;
}

/** Off a terminal, a log line this often; on one, the line is redrawn four times a second. */
const LOG_EVERY_MS = 10_000;
const REDRAW_EVERY_MS = 250;

export interface Progress {
  /** Clears the live line (before a log line or the summary is written). */
  readonly clear: () => void;
  readonly redraw: () => void;
  readonly stop: () => void;
}

export function startProgress(options: ProgressOptions): Progress {
  const { tty } = options;
  let shown = false;
  const figures = (): ProgressFigures => progressFigures(options.stats, options.now(), options.spanMs);
  const redraw = (): void => {
    if (!tty) return;
    // A terminal that does not say its width (0 under some wrappers) gets a usual one.
    const width = Math.max(20, (tty.columns || 120) - 1);
    tty.write(`\r\x1b[K${progressLine(figures()).slice(0, width)}`);
    shown = true;
  };
  const clear = (): void => {
    if (tty && shown) tty.write('\r\x1b[K');
    shown = false;
  };
  const timer = tty
    ? setInterval(redraw, REDRAW_EVERY_MS)
    : setInterval(() => options.log(figures()), LOG_EVERY_MS);
  timer.unref();
  return {
    clear,
    redraw,
    stop: () => {
      clearInterval(timer);
      clear();
    },
  };
}
