// Runs `node dist/main.js backfill ...` as users do, to the end, with all of its output; and loads its history into
// TSDB blocks for a Prometheus to start on.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { makeTempDir } from './daemon.js';
import { MAIN } from './exporter-process.js';
import { promtoolPath } from './promtool.js';

export interface BackfillRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function spawnBackfill(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  /** A descriptor to write standard output to, instead of a pipe read into `stdout`. */
  stdoutFd?: number,
): { child: ChildProcess; done: Promise<BackfillRun>; stderr: () => string } {
  const child = spawn(process.execPath, [MAIN, 'backfill', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  // 'close', not 'exit': every byte of both pipes has been read by then.
  const done = new Promise<BackfillRun>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done, stderr: () => stderr };
}

export function runBackfill(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<BackfillRun> {
  return spawnBackfill(args, env).done;
}

/**
 * History as docs/backfill.md's first path loads it: each backfill (its arguments, without --output) run side by
 * side into a file, and every file turned into TSDB blocks by promtool, all in one directory for startPrometheus's
 * `blocksFrom`. Prometheus merges the blocks of several runs where their times overlap.
 */
export async function backfillBlocks(
  runs: readonly (readonly string[])[],
  env: Readonly<Record<string, string>> = {},
): Promise<string> {
  const promtool = promtoolPath();
  if (!promtool) throw new Error('promtool is not installed; check promtoolPath() first and skip');
  const dir = await makeTempDir('cityair-history-');
  const files = runs.map((_, i) => join(dir, `history-${i}.om`));
  const results = await Promise.all(
    runs.map((args, i) => runBackfill([...args, `--output=${files[i]}`], env)),
  );
  const failed = results.find((r) => r.code !== 0);
  if (failed) throw new Error(`backfill exited ${failed.code}: ${failed.stderr}`);
  const blocks = join(dir, 'blocks');
  for (const file of files) {
    const made = spawnSync(
      promtool,
      ['tsdb', 'create-blocks-from', 'openmetrics', '--max-block-duration=744h', file, blocks],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`promtool: ${made.stderr}`);
  }
  return blocks;
}
