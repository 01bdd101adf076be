// Where the samples go: an OpenMetrics file (or standard output), or remote write. A sink takes one station's new
// rows at a time, in increasing time for that station, and resolves when it can take more: that is the whole
// backpressure between reading the API and writing, and what keeps memory bounded.
import type { RowReading } from '../readings/schema.js';
import type { Station } from '../stations/schema.js';
import type { Label } from './samples.js';

export interface StationWriter {
  /** Writes the rows' samples; resolves to their number once the sink can take more. */
  readonly write: (rows: readonly RowReading[]) => Promise<number>;
  /**
   * A sink that can fail after part of the run is written (remote write): the earliest time of this station's
   * samples it has been given and not had accepted, if any. A file sink has none: it keeps all or nothing.
   */
  readonly unwrittenFromMs?: () => number | undefined;
}

export interface Sink {
  /** A writer for one station's rows, its series labelled with the station's own labels and `labels`. */
  readonly station: (station: Station, labels: readonly Label[]) => StationWriter;
  /** Everything written: flush, and for a file, make it appear under its name. */
  readonly finish: () => Promise<void>;
  /** Interrupted: leave nothing behind under the output's name. Safe to call more than once. */
  readonly abort: () => Promise<void>;
  /** Samples the destination has accepted so far, where some can be kept while the run fails (remote write). */
  readonly acceptedSamples?: () => number;
}
