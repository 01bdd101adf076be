// What a run has done so far: plain counters, updated as answers come in, read by the progress line, the
// periodic log line and the final summary.
import { type RowReading, SKIP_REASONS, type SkipReason } from '../readings/schema.js';

export interface BackfillStats {
  readonly startedAtMs: number;
  stationsTotal: number;
  stationsDone: number;
  stationsFailed: number;
  rows: number;
  samples: number;
  requests: number;
  failedRequests: number;
  rejectedRows: number;
  readonly skipped: Record<SkipReason, number>;
  /** Distinct field and unit pairs not converted, at most MAX_UNKNOWN_UNITS. */
  readonly unknownUnits: Map<string, { readonly field: string; readonly unit: string }>;
  firstRowMs: number | undefined;
  lastRowMs: number | undefined;
  /** Of every station's [from, to), the time already walked, summed: what the ETA is made from. */
  coveredMs: number;
}

const MAX_UNKNOWN_UNITS = 20;

export function newStats(startedAtMs: number): BackfillStats {
  return {
    startedAtMs,
    stationsTotal: 0,
    stationsDone: 0,
    stationsFailed: 0,
    rows: 0,
    samples: 0,
    requests: 0,
    failedRequests: 0,
    rejectedRows: 0,
    skipped: Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>,
    unknownUnits: new Map(),
    firstRowMs: undefined,
    lastRowMs: undefined,
    coveredMs: 0,
  };
}

/** Counts the rows written from one answer: rows, fields left out by reason, the span they cover. */
export function countRows(stats: BackfillStats, rows: readonly RowReading[], samples: number): void {
  stats.rows += rows.length;
  stats.samples += samples;
  for (const { reading, skipped } of rows) {
    if (stats.firstRowMs === undefined || reading.atMs < stats.firstRowMs) stats.firstRowMs = reading.atMs;
    if (stats.lastRowMs === undefined || reading.atMs > stats.lastRowMs) stats.lastRowMs = reading.atMs;
    for (const skip of skipped) {
      stats.skipped[skip.reason]++;
      if (skip.reason !== 'unknown_unit' || skip.unit === undefined) continue;
      const key = `${skip.field}\u0000${skip.unit}`;
      if (stats.unknownUnits.size < MAX_UNKNOWN_UNITS && !stats.unknownUnits.has(key))
        stats.unknownUnits.set(key, { field: skip.field, unit: skip.unit });
    }
  }
}
