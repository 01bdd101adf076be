// The OpenMetrics output: every family's HELP and TYPE once at the top, then each answer's samples as they come
// (timestamps in seconds), then `# EOF`. Stations are read side by side, so their lines interleave; each series
// still has its samples in increasing time, which is what `promtool tsdb create-blocks-from openmetrics` needs
// (it keeps the first of samples out of order and silently drops the others). A file is written under a
// temporary name next to it and renamed at the end, so an interrupted run never leaves a half file under the
// output's name.
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
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

/** The text of some rows of one station; `prefixes` caches each series' `name{labels} `. */
export function renderRows(
  rows: readonly RowReading[],
  series: Parameters<typeof forEachSample>[1],
  prefixes: Map<Series, string>,
): { text: string; samples: number } {
  let text = '';
  let samples = 0;
  for (const { reading } of rows) {
    const ts = ` ${reading.atMs / 1000}\n`;
    forEachSample(reading, series, (s, value) => {
      let prefix = prefixes.get(s);
      if (prefix === undefined) {
        prefix = seriesPrefix(s);
        prefixes.set(s, prefix);
      }
      text += prefix + String(value) + ts;
      samples++;
    });
  }
  return { text, samples };
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
  const out: Writable = temp === undefined ? stdout : createWriteStream(temp, { flags: 'wx', mode: 0o644 });
  let failed: Error | undefined;
  out.on('error', (error) => {
    failed ??= error;
  });
  if (temp !== undefined) await once(out as WriteStream, 'open');
  const write = async (text: string): Promise<void> => {
    if (failed) throw failed;
    if (!out.write(text)) await drained(out);
    if (failed) throw failed;
  };
  await write(openMetricsHeader());
  let aborted = false;

  const station = (series: Parameters<Sink['station']>[0]): StationWriter => {
    const prefixes = new Map<Series, string>();
    return {
      write: async (rows) => {
        const { text, samples } = renderRows(rows, series, prefixes);
        if (text !== '') await write(text);
        return samples;
      },
    };
  };

  return {
    station,
    finish: async () => {
      await write('# EOF\n');
      if (temp === undefined) return;
      const file = out as WriteStream;
      file.end();
      await once(file, 'finish');
      await new Promise<void>((resolve, reject) =>
        file.close((error) => (error ? reject(error) : resolve())),
      );
      if (failed) throw failed;
      await rename(temp, path);
    },
    abort: async () => {
      if (aborted || temp === undefined) return;
      aborted = true;
      (out as WriteStream).destroy();
      await rm(temp, { force: true });
    },
  };
}
