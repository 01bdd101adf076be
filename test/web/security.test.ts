// The request hook and the reloader in process, with file watches off: the periodic re-read alone must pick up
// changes, and a broken file must be logged once and leave the running configuration in force.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError } from '../../src/config/config.js';
import { createLogger } from '../../src/log/logger.js';
import { createWebSecurity, type WebSecurity } from '../../src/web/security.js';
import { basic, hashOf } from '../security/helpers.js';
import { eventually } from '../support/http.js';

let dir: string;
let file: string;
const logged: Array<{ level: string; msg: string; [k: string]: unknown }> = [];
const log = createLogger(
  { level: 'info', format: 'json' },
  { write: (line) => void logged.push(JSON.parse(line) as { level: string; msg: string }) },
);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cityair-web-'));
  file = join(dir, 'web.yml');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let security: WebSecurity | undefined;
let app: FastifyInstance | undefined;
afterEach(async () => {
  security?.close();
  await app?.close();
});

const write = (content: unknown): void =>
  writeFileSync(file, typeof content === 'string' ? content : stringify(content));

async function serve(): Promise<FastifyInstance> {
  security = createWebSecurity(file, log, { pollIntervalMs: 100, watch: false });
  app = Fastify();
  app.addHook('onRequest', security.onRequest);
  app.get('/metrics', async () => 'metrics\n');
  app.get('/healthz', async () => 'ok\n');
  await app.ready();
  security.attach(app.server);
  return app;
}

const status = async (url: string, authorization?: string): Promise<number> =>
  (await (app as FastifyInstance).inject({ url, headers: authorization ? { authorization } : {} }))
    .statusCode;

describe('createWebSecurity', () => {
  it('throws a ConfigError naming the flag and the problem', () => {
    write({ basic_auth_users: { a: 'plain' } });
    expect(() => createWebSecurity(file, log)).toThrow(ConfigError);
    expect(() => createWebSecurity(file, log)).toThrow(
      /^invalid --web\.config\.file \(CITYAIR_WEB_CONFIG_FILE\): .*web\.yml: basic_auth_users\.a: not a bcrypt hash/,
    );
  });

  it('reloads on the periodic check alone, logs a broken edit once, and keeps the last good configuration', async () => {
    write({ basic_auth_users: { alice: hashOf('one') } });
    await serve();
    expect(await status('/metrics')).toBe(401);
    expect(await status('/metrics', basic('alice', 'one'))).toBe(200);
    expect(await status('/healthz')).toBe(200);

    write({
      basic_auth_users: { bob: hashOf('two') },
      http_server_config: { headers: { 'X-Frame-Options': 'deny' } },
    });
    await eventually(async () =>
      (await status('/metrics', basic('bob', 'two'))) === 200 ? true : undefined,
    );
    expect(await status('/metrics', basic('alice', 'one'))).toBe(401);
    const res = await (app as FastifyInstance).inject({ url: '/healthz' });
    expect(res.headers['x-frame-options']).toBe('deny');

    const before = logged.length;
    write({ basic_auth_users: { bob: 'not-a-hash' } });
    await new Promise((r) => setTimeout(r, 600));
    const errors = logged.slice(before).filter((l) => l.msg.startsWith('web configuration not reloaded'));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.level).toBe('error');
    expect(String(errors[0]?.problem)).toMatch(/basic_auth_users\.bob: not a bcrypt hash/);
    expect(await status('/metrics', basic('bob', 'two'))).toBe(200);

    // rate_limit: the bucket is checked before the password; /healthz is outside it.
    write({ basic_auth_users: { bob: hashOf('two') }, rate_limit: { interval: '1h', burst: 2 } });
    await eventually(async () =>
      logged.some((l) => l.msg === 'web configuration reloaded' && l.rate_limit !== undefined)
        ? true
        : undefined,
    );
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await status('/metrics', basic('bob', 'two')));
    expect(answers).toEqual([200, 200, 429]);
    expect(await status('/metrics', basic('bob', 'wrong'))).toBe(429);
    expect(await status('/healthz')).toBe(200);

    // Removing every user turns basic auth off, as in the toolkit.
    write('');
    await eventually(async () => ((await status('/metrics')) === 200 ? true : undefined));
  });
});
