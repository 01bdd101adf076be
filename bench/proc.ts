// The exporter under test as a separate process, started as users start it, and what /proc says about it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const LISTENING = 'cityair-exporter listening';

export interface ExporterUnderTest {
  readonly url: string;
  readonly pid: number;
  readonly stop: () => Promise<void>;
}

// Exporters still running when the bench dies (a CI timeout, Ctrl-C) would otherwise outlive it, listening.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export async function startExporter(
  upstreamUrl: string,
  args: readonly string[],
): Promise<ExporterUnderTest> {
  const child = spawn(
    process.execPath,
    [MAIN, '--web.listen-address=127.0.0.1:0', `--upstream.url=${upstreamUrl}`, ...args],
    { env: { PATH: process.env.PATH ?? '', CITYAIR_API_KEY: 'bench' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  const url = await listeningAddress(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    pid: child.pid ?? -1,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function listeningAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    let done = false;
    const onExit = (code: number | null): void => fail(`exited with ${code}`);
    const fail = (why: string): void => {
      clearTimeout(timer);
      done = true;
      child.kill('SIGKILL');
      reject(new Error(`exporter ${why}; output:\n${seen.slice(-2000)}`));
    };
    const timer = setTimeout(() => fail('did not log that it listens within 15 s'), 15_000);
    child.once('exit', onExit);
    // Keeps draining stderr after the address is known, so a chatty exporter never blocks on a full pipe.
    child.stderr?.on('data', (chunk: Buffer) => {
      if (done) return;
      seen += chunk.toString('utf8');
      const line = seen.split('\n').find((l) => l.includes(LISTENING) && l.endsWith('}'));
      if (line === undefined) return;
      done = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(String((JSON.parse(line) as { address?: unknown }).address));
    });
  });
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** User + system CPU time of a process so far, in milliseconds (clock-tick resolution, usually 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses; the fields after the last ')' are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** VmRSS (now) and VmHWM (peak) in bytes. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
