// What the status page at / shows, as plain data: the adapter builds it from the collectors, the page renders it.
// Nothing here knows how refreshes work.
import type { CollectorHealth } from '../collector/contract.js';
import type { StatusReading } from '../readings/status-html.js';

export interface StatusView {
  readonly version: string;
  readonly revision: string;
  /** Where station data comes from: the API's base URL, or the simulator in demo mode. */
  readonly upstream: string;
  readonly demo: boolean;
  readonly mode: 'on-demand' | 'background';
  readonly telemetryPath: string;
  readonly nowMs: number;
  /** Every collector's health, station list first. */
  readonly collectors: readonly CollectorHealth[];
  /** Other slices' sections, already HTML (each slice escapes its own text). */
  readonly sections?: readonly string[];
  /**
   * undefined while no station data may be served. The page caches its station table per array object, so the
   * same data must come as the same array (and a new array only with new data).
   */
  readonly stations: readonly StatusStation[] | undefined;
  /**
   * The readings' legend (readings/status-html.ts) while the readings collector is on: the table then has the
   * readings' columns. undefined when it is off.
   */
  readonly readingsLegend: string | undefined;
}

export interface StatusStation {
  readonly id: number;
  readonly name: string;
  /** IANA time zone name, '' when unknown. */
  readonly tz: string;
  readonly online: boolean;
  /** Only with the readings collector on and a fresh reading: the readings' fragment (readings/status-html.ts). */
  readonly reading?: StatusReading;
}

export type { StatusQuery } from './query.js';
