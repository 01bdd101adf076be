// Starts the exporter the way users do (node dist/main.js with flags and env) and reads its JSON log.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root: the first folder above this file with a package.json (also when the bench runs it built). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export const MAIN = join(repoRoot(), 'dist/main.js');

export interface LogLine {
  readonly level: string;
  readonly msg: string;
  readonly [key: string]: unknown;
}

export interface ExporterProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Every log line so far, parsed. */
  readonly logs: () => LogLine[];
  /** Raw stdout + stderr so far. */
  readonly output: () => string;
  readonly waitForLog: (predicate: (l: LogLine) => boolean, timeoutMs?: number) => Promise<LogLine>;
  /** SIGTERM and wait for exit; returns the exit code. */
  readonly stop: () => Promise<number | null>;
}

export interface StartOptions {
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Runs `node` with these arguments before the script (e.g. --cpu-prof). */
  readonly nodeArgs?: readonly string[];
  readonly node?: string;
}

export async function startExporterProcess(options: StartOptions = {}): Promise<ExporterProcess> {
  const args = [
    ...(options.nodeArgs ?? []),
    MAIN,
    '--web.listen-address=127.0.0.1:0',
    ...(options.args ?? []),
  ];
  const child = spawn(options.node ?? process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let raw = '';
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    raw += chunk.toString('utf8');
    const parts = raw.split('\n');
    lines.length = 0;
    for (const p of parts) {
      if (!p.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(p) as LogLine);
      } catch {
        // A partial line: parsed on the next chunk.
      }
    }
    for (const w of waiters) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const waitForLog = (predicate: (l: LogLine) => boolean, timeoutMs = 10_000): Promise<LogLine> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const hit = lines.find(predicate);
        if (hit) {
          cleanup();
          resolve(hit);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`log line not seen within ${timeoutMs} ms; output so far:\n${raw}`));
      }, timeoutMs);
      const onExit = (): void => {
        cleanup();
        reject(new Error(`exporter exited before the log line; output:\n${raw}`));
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
        child.off('exit', onExit);
      };
      waiters.add(check);
      child.once('exit', onExit);
      check();
    });

  const listening = await waitForLog((l) => l.msg === 'cityair-exporter listening');
  return {
    url: String(listening.address),
    child,
    logs: () => [...lines],
    output: () => raw,
    waitForLog,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Runs the exporter to completion (for --help, bad configuration...) and returns what it printed. After timeoutMs
 * it is killed with SIGTERM, and code is null: a start that hangs fails the test instead of the run.
 */
export function runExporter(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  timeoutMs = 30_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    // 'close', not 'exit': standard output is read to its end before the run is judged.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
