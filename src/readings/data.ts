// What the readings collector keeps between rounds: the newest reading per station and what the last round saw.
// Plain data, rendered by text.ts.

import type { FailureReason } from '../upstream/failure.js';
import type { RoundCursor } from './rotation.js';
import type { SkipReason, StationReading } from './schema.js';

export interface ReadingsData {
  /** By station id: the newest known row per station. */
  readonly readings: ReadonlyMap<number, StationReading>;
  /** What the last round saw (health metrics). */
  readonly round: RoundStats;
}

/** Where a station stands after a round: the `state` label of cityair_measurements_stations. */
export const READING_STATES = [
  /** Answered with a row no older than max-age. */
  'fresh',
  /** Answered, but its newest row is older than max-age (the API ignored date__gt, or clocks differ). */
  'stale',
  /** Answered with no row in the window that may be served (none, or only rows dated in the future). */
  'empty',
  /** Its request failed; its previous reading (if any) is kept. */
  'failed',
  /** Not asked this round: the API asked to wait (429, or Retry-After) first; its previous reading is kept. */
  'deferred',
] as const;

export type ReadingState = (typeof READING_STATES)[number];

/** A station that sent rows dated in the future, for one log line per station. */
export interface FutureDated {
  readonly id: number;
  /** The latest such date. */
  readonly atMs: number;
}

/** A field sent in a unit this exporter does not convert, for one log line per field and unit. */
export interface UnknownUnit {
  readonly field: string;
  readonly unit: string;
}

export interface RoundStats {
  /** The round's `nowMs`: when it started. */
  readonly startedAtMs: number;
  readonly durationMs: number;
  /** Every station asked for is in exactly one state. */
  readonly stations: Readonly<Record<ReadingState, number>>;
  /** Fields left out of the newest rows of this round's answers, by reason. */
  readonly skippedFields: Readonly<Record<SkipReason, number>>;
  /** Rows dropped from this round's answers (no ISO date with an offset, or another station's). */
  readonly rejectedRows: number;
  /** Rows of this round's answers dated more than the tolerance ahead of the exporter's clock: not served. */
  readonly futureRows: number;
  /** Stations that sent them, at most 20. */
  readonly futureDated: readonly FutureDated[];
  readonly requests: number;
  readonly failures: Readonly<Record<FailureReason, number>>;
  /** Distinct field and unit pairs not converted in this round, at most 20. */
  readonly unknownUnits: readonly UnknownUnit[];
  /** From the Retry-After of a 429 or 503 that stopped the round: wait at least this long. */
  readonly retryAfterMs: number | undefined;
  /** Where the next round starts: where this one stopped, or where it started when it read every station. */
  readonly resumeAt?: RoundCursor | undefined;
}

/**
 * The last moment a reading may be served: its row's time plus --measurements.max-age. The round counts a station
 * fresh by it, and the metrics and the status page show the reading up to it.
 */
export function readingExpiresAtMs(reading: Pick<StationReading, 'atMs'>, maxAgeMs: number): number {
  return reading.atMs + maxAgeMs;
}
