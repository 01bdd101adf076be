// Runs `node dist/main.js backfill ...` as users do, to the end, with all of its output.
import { type ChildProcess, spawn } from 'node:child_process';
import { MAIN } from './exporter-process.js';

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
