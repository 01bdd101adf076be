// The OpenMetrics output: every family's HELP and TYPE once at the top, then each answer's samples as they come
// (timestamps in seconds), then `# EOF`. Stations are read side by side, so their lines interleave; each series
// still has its samples in increasing time, which is what `promtool tsdb create-blocks-from openmetrics` needs
// (it keeps the first of samples out of order and silently drops the others). A file is written under a
// temporary name next to it and renamed at the end, so an interrupted run never leaves a half file under the
// output's name.
import { close as closeFd, createWriteStream, fsync, open as openFd } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { escapeHelp, escapeLabelValue } from '../exposition/escape.js';
import type { RowReading } from '../readings/schema.js';
import { BACKFILL_FAMILIES, forEachSample, type Series } from './samples.js';
import type { Sink, StationWriter } from './sink.js';

export function openMetricsHeader(): string {
  let text = '';
  for (const f of BACKFILL_FAMILIES) {
    // OpenMetrics escapes quotes in HELP too (text 0.0.4 does not).
    text += `# HELP ${f.name} ${escapeHelp(f.help).replace(/"/g, '\\"')}\n# TYPE ${f.name} ${f.type}\n`;
  }
  return text;
}

export function seriesPrefix(series: Series): string {
  const labels = series.labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',');
  return `${series.family.name}{${labels}} `;
}

/**
 * The bytes of some rows of one station; `prefixes` caches each series' `name{labels} ` as UTF-8. Written straight
 * into one buffer per answer: strings per line would be garbage by the million, and a second copy when written.
 */
export function renderRows(
  rows: readonly RowReading[],
  series: Parameters<typeof forEachSample>[1],
  prefixes: Map<Series, Buffer>,
): { bytes: Buffer; samples: number } {
  let buf = Buffer.allocUnsafe(rows.length * 2048 + 1024);
  let at = 0;
  let samples = 0;
  const ensure = (n: number): void => {
    if (at + n <= buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, at + n));
    buf.copy(bigger, 0, 0, at);
    buf = bigger;
  };
  for (const { reading } of rows) {
    const ts = ` ${reading.atMs / 1000}\n`;
    forEachSample(reading, series, (s, value) => {
      let prefix = prefixes.get(s);
      if (prefix === undefined) {
        prefix = Buffer.from(seriesPrefix(s), 'utf8');
        prefixes.set(s, prefix);
      }
      const number = String(value);
      ensure(prefix.length + number.length + ts.length);
      at += prefix.copy(buf, at);
      // Numbers and timestamps are ASCII.
      at += buf.write(number, at, 'latin1');
      at += buf.write(ts, at, 'latin1');
      samples++;
    });
  }
  return { bytes: buf.subarray(0, at), samples };
}

/** Resolves on 'drain', or on an error (which the caller then finds in `failed`); leaves no listener behind. */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('error', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('error', done);
    out.on('close', done);
  });
}

/** `-` writes to standard output (not atomic: a pipe has no name to rename). */
export async function openMetricsSink(path: string, stdout: Writable = process.stdout): Promise<Sink> {
  const temp = path === '-' ? undefined : join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  // A descriptor of our own (not the stream's), so it can be flushed to disk before the rename.
  const fd = temp === undefined ? undefined : await promisify(openFd)(temp, 'wx', 0o644);
  const out: Writable = fd === undefined ? stdout : createWriteStream('', { fd, autoClose: false });
  let failed: Error | undefined;
  out.on('error', (error) => {
    failed ??= error;
  });
  const write = async (text: string | Buffer): Promise<void> => {
    if (failed) throw failed;
    if (!out.write(text)) await drained(out);
    if (failed) throw failed;
  };
  await write(openMetricsHeader());
  let aborted = false;

  const station = (series: Parameters<Sink['station']>[0]): StationWriter => {
    const prefixes = new Map<Series, Buffer>();
    return {
      write: async (rows) => {
        const { bytes, samples } = renderRows(rows, series, prefixes);
        if (bytes.length > 0) await write(bytes);
        return samples;
      },
    };
  };

  return {
    station,
    finish: async () => {
      await write('# EOF\n');
      if (temp === undefined || fd === undefined) return;
      await new Promise<void>((resolve) => out.end(resolve));
      if (failed) throw failed;
      // On disk before it takes the output's name, so a crash right after the rename cannot leave it empty.
      await promisify(fsync)(fd);
      await promisify(closeFd)(fd);
      await rename(temp, path);
    },
    abort: async () => {
      if (aborted || temp === undefined) return;
      aborted = true;
      out.destroy();
      if (fd !== undefined) await promisify(closeFd)(fd).catch(() => undefined);
      await rm(temp, { force: true });
    },
  };
}
