// Runs the built exporter the way the image does (the Dockerfile's command line, environment and working
// directory) as PID 1 of its own PID namespace, then probes it with the Dockerfile's exact HEALTHCHECK
// command and stops it like `docker stop`. PID 1 gets no default signal actions from the kernel: a Node
// program that does not handle SIGTERM ignores it there, and docker stop would SIGKILL it after 10 s.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  finalStage,
  healthcheck,
  REPO_ROOT,
  readRepoDockerfile,
  stageEnv,
  startCommand,
} from './dockerfile.js';

const runtime = finalStage(readRepoDockerfile());
const hc = healthcheck(runtime);
const UNSHARE = ['--pid', '--fork', '--mount-proc', '--kill-child'];
const SHUTDOWN_LIMIT_MS = 5000;

const unshareWorks = spawnSync('unshare', [...UNSHARE, 'true']).status === 0;
const skip = !unshareWorks && process.env.CI !== 'true';
if (skip) {
  console.warn(
    'pid1.e2e.test.ts: `unshare --pid --fork --mount-proc` is unavailable here (needs root or user namespaces); ' +
      'the PID 1 tests are skipped. CI runs them.',
  );
}

/** The image runs `node`; here that is whichever Node runs the suite, so a Node 26 run tests Node 26. */
function localArgv(argv: readonly string[]): [string, ...string[]] {
  const [first, ...rest] = argv;
  if (first !== 'node') throw new Error(`expected a command starting with node, got ${JSON.stringify(argv)}`);
  return [process.execPath, ...rest];
}

/** The environment the container has: PATH, the final stage's ENV, and what `docker run -e` adds. */
function containerEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', ...stageEnv(runtime), ...extra };
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

interface Pid1Process {
  readonly unshare: ChildProcess;
  /** Host PID of the process that is PID 1 inside the namespace: what docker stop signals. */
  readonly hostPid: number;
  readonly output: () => string;
  readonly exited: Promise<Exit>;
  readonly waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
}

const started: Pid1Process[] = [];

function parentOf(pid: string): number | undefined {
  try {
    // The command name in field 2 may contain spaces; it ends at the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

async function childOf(parent: number, timeoutMs = 5000): Promise<number> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const child = readdirSync('/proc').find((p) => /^\d+$/.test(p) && parentOf(p) === parent);
    if (child) return Number(child);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`unshare (pid ${parent}) forked no child within ${timeoutMs} ms`);
}

async function startAsPid1(argv: readonly string[], env: Record<string, string>): Promise<Pid1Process> {
  const unshare = spawn('unshare', [...UNSHARE, '--', ...localArgv(argv)], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let raw = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    raw += chunk.toString('utf8');
    for (const l of listeners) l();
  };
  unshare.stdout?.on('data', onData);
  unshare.stderr?.on('data', onData);
  const exited = new Promise<Exit>((resolve) =>
    unshare.on('exit', (code, signal) => resolve({ code, signal })),
  );
  if (unshare.pid === undefined) throw new Error('unshare did not start');
  const hostPid = await childOf(unshare.pid);
  const proc: Pid1Process = {
    unshare,
    hostPid,
    output: () => raw,
    exited,
    waitForOutput: (pattern, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!pattern.test(raw)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${pattern} not seen within ${timeoutMs} ms; output:\n${raw}`));
        }, timeoutMs);
        const onExit = (): void => {
          done();
          reject(new Error(`exited before ${pattern}; output:\n${raw}`));
        };
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
          unshare.off('exit', onExit);
        };
        listeners.add(check);
        unshare.once('exit', onExit);
        check();
      }),
  };
  started.push(proc);
  return proc;
}

function nsPid(hostPid: number): string | undefined {
  return /^NSpid:\s+(.*)$/m
    .exec(readFileSync(`/proc/${hostPid}/status`, 'utf8'))?.[1]
    ?.trim()
    .split(/\s+/)
    .at(-1);
}

/** Runs the HEALTHCHECK command as Docker would: same env and working directory, exit status is the verdict. */
function runHealthcheck(env: Record<string, string>): Promise<{ code: number | null; ms: number }> {
  if (!hc?.argv) throw new Error('no exec-form HEALTHCHECK in the Dockerfile');
  const [cmd, ...args] = localArgv(hc.argv);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, ms: performance.now() - t0 }));
  });
}

async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

afterEach(async () => {
  for (const p of started.splice(0)) {
    if (p.unshare.exitCode !== null || p.unshare.signalCode !== null) continue;
    try {
      process.kill(p.hostPid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await withinMs(p.exited, 2000);
  }
});

describe.skipIf(skip)('the image command as PID 1', () => {
  beforeAll(() => {
    if (!unshareWorks) {
      throw new Error(
        '`unshare --pid --fork --mount-proc` does not work here; CI needs it (root or user namespaces)',
      );
    }
  });

  it('reproduces PID 1: a node without a SIGTERM handler survives SIGTERM there', async () => {
    // Without this, the test below could pass for the wrong reason (signalling something that is not PID 1).
    const p = await startAsPid1(
      ['node', '-e', 'console.log("up");setInterval(()=>{},1000)'],
      containerEnv({}),
    );
    await p.waitForOutput(/up/);
    expect(nsPid(p.hostPid)).toBe('1');
    process.kill(p.hostPid, 'SIGTERM');
    expect(await withinMs(p.exited, 700)).toBe('timeout');
  });

  it('serves /healthz to the exact HEALTHCHECK command and exits 0 on SIGTERM within 5 s', async () => {
    const [command, script, ...flags] = startCommand(runtime);
    expect([command, script]).toEqual(['node', 'dist/main.js']);
    const port = await freePort();
    // Flags are what `docker run IMAGE --demo` appends; the port moves through the variable the
    // healthcheck also reads, as docs/container.md tells users to do.
    const env = containerEnv({ CITYAIR_LISTEN_ADDRESS: `127.0.0.1:${port}` });
    const p = await startAsPid1(['node', 'dist/main.js', ...flags, '--demo'], env);
    await p.waitForOutput(/"msg":"cityair-exporter listening"/);
    expect(nsPid(p.hostPid)).toBe('1');
    expect(p.output()).toContain(`"address":"http://127.0.0.1:${port}"`);

    const probe = await runHealthcheck(env);
    expect(probe.code, 'HEALTHCHECK exit status while running').toBe(0);
    // Docker counts a probe slower than --timeout as failed.
    expect(probe.ms).toBeLessThan(Number.parseInt(hc?.instruction.flags.timeout ?? '0', 10) * 1000);

    const t0 = performance.now();
    process.kill(p.hostPid, 'SIGTERM');
    const exit = await withinMs(p.exited, SHUTDOWN_LIMIT_MS);
    const ms = performance.now() - t0;
    expect(exit, `not stopped within ${SHUTDOWN_LIMIT_MS} ms; output:\n${p.output()}`).toEqual({
      code: 0,
      signal: null,
    });
    expect(ms).toBeLessThan(SHUTDOWN_LIMIT_MS);
    const logs = p
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; signal?: string; level?: unknown });
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'shutting down', signal: 'SIGTERM' }));
    expect(logs.filter((l) => l.msg === 'in-flight work did not finish in time; exiting anyway')).toEqual([]);

    expect((await runHealthcheck(env)).code, 'HEALTHCHECK exit status once stopped').not.toBe(0);
  });
});

describe('the HEALTHCHECK command', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  async function serve(status: number, host: string, tls?: { key: string; cert: string }): Promise<number> {
    const handler: RequestListener = (req, res) => {
      res.statusCode = req.url === '/healthz' ? status : 404;
      res.end();
    };
    server = tls ? createHttpsServer(tls, handler) : createServer(handler);
    const s = server;
    await new Promise<void>((resolve) => s.listen(0, host, resolve));
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return address.port;
  }

  /** A self-signed certificate, as an operator's --web.config.file might name. */
  function selfSigned(): { key: string; cert: string } {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-hc-'));
    try {
      // biome-ignore format: one option and its value per line reads better
      const result = spawnSync('openssl', [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
        '-subj', '/CN=cityair-exporter', '-days', '1',
      ], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`openssl failed: ${result.error ?? result.stderr}`);
      return {
        key: readFileSync(join(dir, 'key.pem'), 'utf8'),
        cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('defaults to port 9610 and probes 127.0.0.1 for a wildcard listen address', async () => {
    expect(hc?.argv?.join(' ')).toContain("':9610'");
    const port = await serve(200, '127.0.0.1');
    for (const address of [`:${port}`, `0.0.0.0:${port}`, `[::]:${port}`, ` 127.0.0.1:${port} `]) {
      expect((await runHealthcheck(containerEnv({ CITYAIR_LISTEN_ADDRESS: address }))).code, address).toBe(0);
    }
  });

  it('fails on a status other than 200 and when nothing listens', async () => {
    const port = await serve(503, '127.0.0.1');
    expect((await runHealthcheck(containerEnv({ CITYAIR_LISTEN_ADDRESS: `:${port}` }))).code).toBe(1);
    const closed = await freePort();
    expect((await runHealthcheck(containerEnv({ CITYAIR_LISTEN_ADDRESS: `:${closed}` }))).code).toBe(1);
  });

  const opensslMissing = spawnSync('openssl', ['version']).status !== 0 && process.env.CI !== 'true';
  it.skipIf(opensslMissing)(
    'falls back to HTTPS when the exporter serves TLS (--web.config.file)',
    async () => {
      const tls = selfSigned();
      const up = await serve(200, '127.0.0.1', tls);
      expect((await runHealthcheck(containerEnv({ CITYAIR_LISTEN_ADDRESS: `:${up}` }))).code).toBe(0);
      await new Promise((resolve) => server?.close(resolve));
      const failing = await serve(503, '127.0.0.1', tls);
      expect((await runHealthcheck(containerEnv({ CITYAIR_LISTEN_ADDRESS: `:${failing}` }))).code).toBe(1);
    },
  );
});
