// The OpenMetrics output: each family whole, HELP and TYPE then every sample of it (timestamps in seconds), the
// families one after the other, then `# EOF`, as OpenMetrics 1.0 requires; each series' samples in increasing
// time, as `promtool tsdb create-blocks-from openmetrics` needs (it keeps the first of samples out of order and
// silently drops the others). Stations are read side by side, so the samples of a family arrive mixed with the
// others': the first family's go straight to the output, each other family's to a spool file of its own, and
// at the end the spools are copied in after it, in order. Memory holds a few chunks, whatever the range.
//
// A file is written under a temporary name next to it, with its spools (unlinked at once, see spool.ts), and
// renamed at the end, so an interrupted run never leaves a half file under the output's name; `-` writes to
// standard output, its spools in the temporary directory.
import { close as closeFd, fsync, open as openFd } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { promisify } from 'node:util';
import type { MetricSpec } from '../exposition/catalog.js';
import { escapeLabelValue } from '../exposition/escape.js';
import { familyHeader } from '../exposition/gauge-text.js';
import { armTimer } from '../runtime/timers.js';
import { MAX_NUMBER_BYTES, writeNumber } from './number-bytes.js';
import { BACKFILL_FAMILIES, forEachSample, type Series, stationSeries } from './samples.js';
import type { Sink, StationWriter } from './sink.js';
import {
  closeSpool,
  type Destination,
  drainSpool,
  fileDestination,
  flushLanes,
  type Lanes,
  newLanes,
  openSpool,
  reserve,
  streamDestination,
  whenWritable,
} from './spool.js';

export function seriesPrefix(series: Series): string {
  const labels = series.labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',');
  return `${series.family.name}{${labels}} `;
}

/** A series as this output writes it: its family's lane, and `name{labels} ` as UTF-8. */
interface EncodedSeries {
  readonly lane: number;
  readonly prefix: Uint8Array;
}

const LANE_OF = new Map(BACKFILL_FAMILIES.map((f, i) => [f, i]));
const SPACE = 0x20;
const NEWLINE = 0x0a;

/** Writes one station's rows, line by line, into the lanes' chunks: no string per sample. */
function stationWriter(
  lanes: Lanes,
  of: Parameters<Sink['station']>[0],
  labels: Parameters<Sink['station']>[1],
) {
  const series = stationSeries(
    of,
    labels,
    (s): EncodedSeries => ({
      lane: LANE_OF.get(s.family) ?? 0,
      prefix: Buffer.from(seriesPrefix(s), 'utf8'),
    }),
  );
  let samples = 0;
  // " <timestamp>\n" of the row being written, the same for its dozen samples: formatted once per row.
  const ending = new Uint8Array(MAX_NUMBER_BYTES + 2);
  let endingLength = 0;
  let endingAtMs = Number.NaN;
  const visit = (s: EncodedSeries, value: number, atMs: number): void => {
    const lane = lanes.lanes[s.lane];
    if (lane === undefined) return;
    if (atMs !== endingAtMs) {
      ending[0] = SPACE;
      endingLength = writeNumber(ending, 1, atMs / 1000);
      ending[endingLength++] = NEWLINE;
      endingAtMs = atMs;
    }
    reserve(lanes, lane, s.prefix.length + MAX_NUMBER_BYTES + endingLength);
    const chunk = lane.chunk;
    chunk.set(s.prefix, lane.at);
    let at = writeNumber(chunk, lane.at + s.prefix.length, value);
    for (let i = 0; i < endingLength; i++) chunk[at++] = ending[i] as number;
    lane.at = at;
    samples++;
  };
  const writer: StationWriter = {
    write: async (rows) => {
      if (lanes.failed) throw lanes.failed;
      samples = 0;
      for (const { reading } of rows) forEachSample(reading, series, visit);
      const written = samples;
      await whenWritable(lanes);
      return written;
    },
  };
  return writer;
}

const text = (t: string): Uint8Array => Buffer.from(t, 'utf8');

/** `-` writes to standard output (not atomic: a pipe has no name to rename). */
export async function openMetricsSink(path: string, stdout: Writable = process.stdout): Promise<Sink> {
  const toStdout = path === '-';
  const temp = toStdout ? undefined : join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  // A descriptor of our own, so the file can be flushed to disk before the rename.
  const fd = temp === undefined ? undefined : await promisify(openFd)(temp, 'wx', 0o644);
  const output: Destination = fd === undefined ? streamDestination(stdout) : fileDestination(fd);
  const spoolDir = toStdout ? tmpdir() : dirname(path);
  const spoolName = `.${toStdout ? 'cityair-backfill' : basename(path)}.${process.pid}`;
  // The spools not yet copied in, and whether the file is still open: what an abort has to close.
  const spools: number[] = [];
  let fileOpen = fd !== undefined;
  const removeTemp = async (): Promise<void> => {
    await Promise.all(spools.splice(0).map(closeSpool));
    if (fd !== undefined && fileOpen) await promisify(closeFd)(fd).catch(() => undefined);
    fileOpen = false;
    if (temp !== undefined) await rm(temp, { force: true });
  };
  try {
    for (let i = 1; i < BACKFILL_FAMILIES.length; i++)
      spools.push(await openSpool(spoolDir, `${spoolName}.${i}.spool`));
  } catch (error) {
    await removeTemp();
    throw error;
  }
  const lanes = newLanes([output, ...spools.map(fileDestination)]);
  const first = BACKFILL_FAMILIES[0] as MetricSpec;
  const header = text(familyHeader(first, 'openmetrics'));
  const lane0 = lanes.lanes[0];
  if (lane0) {
    reserve(lanes, lane0, header.length);
    lane0.chunk.set(header, 0);
    lane0.at = header.length;
  }
  let aborted = false;

  return {
    station: (of, labels) => stationWriter(lanes, of, labels),
    finish: async () => {
      await flushLanes(lanes);
      for (const family of BACKFILL_FAMILIES.slice(1)) {
        await output(text(familyHeader(family, 'openmetrics')));
        // Closed by drainSpool, whatever happens.
        const spool = spools.shift();
        if (spool !== undefined) await drainSpool(spool, output);
      }
      await output(text('# EOF\n'));
      if (temp === undefined || fd === undefined) return;
      // On disk before it takes the output's name, so a crash right after the rename cannot leave it empty.
      await promisify(fsync)(fd);
      fileOpen = false;
      await promisify(closeFd)(fd);
      await rename(temp, path);
    },
    abort: async () => {
      if (aborted) return;
      aborted = true;
      lanes.failed ??= new Error('aborted');
      // Writes already handed to the system end first (a descriptor closed under them could be reused); a pipe
      // nobody reads may never take its last chunk, so this waits a second at most.
      const settled = Promise.all(lanes.lanes.map((l) => l.tail));
      let cancel = (): void => undefined;
      await Promise.race([settled, new Promise<void>((resolve) => (cancel = armTimer(resolve, 1000)))]);
      cancel();
      await removeTemp();
    },
  };
}
