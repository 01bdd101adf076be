// Shared plumbing for the real Prometheus and Alertmanager processes the tests start: where the binaries are,
// a free loopback port, a temp dir, and a child process whose output is kept for failure messages.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Path of a Debian-packaged binary. Locally a missing binary returns undefined so the test can skip; under CI=true
 * (where .ci/run installs the packages) it is an error, so a broken install never passes as a skip.
 */
export function binaryPath(name: string, debianPackage: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  if (process.env.CI === 'true')
    throw new Error(`${name} is required under CI=true (apt-get install ${debianPackage})`);
  return undefined;
}

/** A port that was free a moment ago on 127.0.0.1; the daemons need a number in their flags, not port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export interface Daemon {
  readonly child: ChildProcess;
  readonly output: () => string;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
  readonly stop: () => Promise<void>;
}

export function startDaemon(binary: string, args: readonly string[], cleanupDir: string): Daemon {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer): void => {
    // Both daemons log a lot at start; the tail is what explains a failure.
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      await rm(cleanupDir, { recursive: true, force: true });
    },
  };
}

/** Polls until check() returns a value other than undefined; the error carries the daemon's output tail. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  daemon?: Daemon,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    if (daemon && daemon.child.exitCode !== null) {
      throw new Error(`${what}: the process exited (${daemon.child.exitCode}); output:\n${daemon.output()}`);
    }
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const tail = daemon ? `\noutput:\n${daemon.output().slice(-4000)}` : '';
  throw new Error(
    `${what}: not within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}${tail}`,
  );
}

/** Waits for a Prometheus-style `/-/ready`; a daemon that never gets there is stopped before the error is thrown. */
export async function waitUntilReady(name: string, url: string, daemon: Daemon): Promise<void> {
  try {
    await waitFor(
      `${name} ready`,
      async () => ((await fetch(`${url}/-/ready`)).ok ? true : undefined),
      15_000,
      daemon,
    );
  } catch (error) {
    await daemon.stop();
    throw error;
  }
}

/**
 * A VictoriaMetrics on a free loopback port with its data in a new temporary directory (`dir`, removed when it
 * stops), ready (`/health`); one that never gets there is stopped before the error is thrown.
 */
export async function startVictoriaMetrics(
  binary: string,
  retention: string,
  prefix: string,
): Promise<{ readonly url: string; readonly daemon: Daemon; readonly dir: string }> {
  const dir = await makeTempDir(prefix);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [
    `-storageDataPath=${dir}`,
    `-httpListenAddr=127.0.0.1:${port}`,
    `-retentionPeriod=${retention}`,
    '-loggerLevel=ERROR',
  ];
  const daemon = startDaemon(binary, args, dir);
  try {
    await waitFor(
      'VictoriaMetrics ready',
      async () => ((await fetch(`${url}/health`)).ok ? true : undefined),
      15_000,
      daemon,
    );
  } catch (error) {
    await daemon.stop();
    throw error;
  }
  return { url, daemon, dir };
}
