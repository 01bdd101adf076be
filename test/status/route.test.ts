// GET / through the real server (fastify inject): headers a browser enforces, and the filter in the URL.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { demoStations } from '../../src/demo/stations.js';
import { createStationsCollector } from '../../src/stations/collector.js';
import { parseStationList, type StationList } from '../../src/stations/schema.js';
import type { Result } from '../../src/upstream/failure.js';
import { createWebSecurity, type WebSecurity } from '../../src/web/security.js';
import { basic, hashOf } from '../security/helpers.js';
import { inProcessServer } from '../support/in-process.js';

const stopped: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stopped.splice(0)) await stop();
});

async function server(outcome: () => Result<StationList>, webConfig?: unknown) {
  let web: WebSecurity | undefined;
  if (webConfig !== undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-status-route-'));
    writeFileSync(join(dir, 'web.yml'), stringify(webConfig));
    web = createWebSecurity(join(dir, 'web.yml'), pino({ level: 'silent' }), { watch: false });
    stopped.push(async () => {
      web?.close();
      rmSync(dir, { recursive: true, force: true });
    });
  }
  const upstream = { getJsonElements: async <T>() => outcome() as Result<T> };
  const { app, stations } = inProcessServer({
    build: { version: '9.9.9', revision: 'feedbee' },
    collectors: (config, registry, log) => ({
      stations: createStationsCollector({ config, upstream, registry, log }),
    }),
    web,
  });
  stations.start();
  await stations.source.beforeScrape?.(1000);
  stopped.push(async () => {
    await app.close();
    await stations.stop();
  });
  return app;
}

const demoList = (): Result<StationList> => parseStationList(demoStations());

describe('GET /', () => {
  it('serves HTML under a strict Content-Security-Policy that admits only the inline style and script', async () => {
    const app = await server(demoList);
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const csp = String(res.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    for (const [directive, tag] of [
      ['script-src', 'script'],
      ['style-src', 'style'],
    ] as const) {
      const values = directives.get(directive) ?? [];
      expect(values).toHaveLength(1);
      expect(values[0]).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
      // The hash is that of the one inline element of its kind, so the browser runs exactly that.
      const inline = [...res.body.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))];
      expect(inline).toHaveLength(1);
      const digest = createHash('sha256')
        .update(inline[0]?.[1] ?? '')
        .digest('base64');
      expect(values[0]).toBe(`'sha256-${digest}'`);
    }
    expect(res.body).toContain('<dt>Version</dt><dd>9.9.9</dd><dt>Revision</dt><dd>feedbee</dd>');
    expect(res.body).toContain('40 stations: 35 online, 5 offline.');
  });

  it('filters by ?q= on the server and shows the query back in the form', async () => {
    const app = await server(demoList);
    const res = await app.inject({ method: 'GET', url: `/?q=${encodeURIComponent('Kathmandu')}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('4 of 40 stations match “Kathmandu”.');
    expect(res.body).toContain('value="Kathmandu"');
    expect(res.body.match(/<tr[ >]/g)).toHaveLength(1 + 4);
    const repeated = await app.inject({ method: 'GET', url: '/?q=Kathmandu&q=Mumbai' });
    expect(repeated.body).toContain('4 of 40 stations match “Kathmandu”.');
  });

  it('shows the reason of a failed first refresh and no station table', async () => {
    const app = await server(() => ({ ok: false, reason: 'auth', message: 'the API answered 401' }));
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<code>auth</code>');
    expect(res.body).toContain('No station data is being served: there has been no successful refresh yet.');
    expect(res.body).not.toContain('<table');
  });

  it('asks for credentials, and leaves a policy from the web config file in force', async () => {
    const app = await server(demoList, {
      basic_auth_users: { operator: hashOf('route-secret') },
      http_server_config: { headers: { 'Content-Security-Policy': "default-src 'none'" } },
    });
    const refused = await app.inject({ method: 'GET', url: '/?q=x' });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).not.toContain('stations');
    const res = await app.inject({
      method: 'GET',
      url: '/',
      headers: { authorization: basic('operator', 'route-secret') },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    expect(res.body).toContain('40 stations: 35 online, 5 offline.');
  });
});
