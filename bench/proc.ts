// The exporter under test as a separate process, started as users start it (through the tests' own helper), and
// what /proc says about it.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startExporterProcess } from '../test/support/exporter-process.js';
import { imageNodeOptions } from './image-node.js';

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
  const p = await startExporterProcess({
    args: [`--upstream.url=${upstreamUrl}`, ...args],
    env: { CITYAIR_API_KEY: 'bench-key-not-secret', ...imageEnv() },
  });
  running.add(p.child);
  p.child.once('exit', () => running.delete(p.child));
  return {
    url: p.url,
    pid: p.child.pid ?? -1,
    stop: async () => {
      await p.stop();
    },
  };
}

/** NODE_OPTIONS as the image sets it, on the image's Node only (bench/image-node.ts). */
export function imageEnv(): Record<string, string> {
  const options = imageNodeOptions();
  return options === undefined ? {} : { NODE_OPTIONS: options };
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

/** What a child left: its exit code, the tail of its standard error, its peak RSS (bytes) and its CPU (ms). */
export interface ChildFigures {
  readonly code: number | null;
  readonly stderr: string;
  readonly peak: number;
  readonly cpuMs: number;
}

/** Waits for a spawned child to end, reading /proc every 100 ms meanwhile. */
export async function watchChild(child: ChildProcess): Promise<ChildFigures> {
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-20_000);
  });
  let peak = 0;
  let cpu = 0;
  // VmHWM is the peak so far; read until the process is gone (the last reading is within 100 ms of its end).
  const timer = setInterval(() => {
    try {
      // An exiting process's status no longer has VmHWM (NaN): the readings before it stand.
      const now = { peak: memory(child.pid ?? -1).peak, cpu: cpuMs(child.pid ?? -1) };
      if (Number.isFinite(now.peak)) peak = Math.max(peak, now.peak);
      if (Number.isFinite(now.cpu)) cpu = Math.max(cpu, now.cpu);
    } catch {
      // Exited between two readings.
    }
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  return { code, stderr, peak, cpuMs: cpu };
}
