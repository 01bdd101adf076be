// Reaching the API through a real CONNECT proxy and a private CA: an HTTPS simulator whose certificate is signed
// by a CA made here, a proxy written here that counts its tunnels, and the built exporter between them.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStations } from '../../src/demo/stations.js';
import { createTestPki, type TestPki } from '../support/certs.js';
import { type ExporterProcess, runExporter, startExporterProcess } from '../support/exporter-process.js';
import { get, sample } from '../support/http.js';
import { type Simulator, startSimulator } from '../support/simulator.js';

const KEY = 'proxy-test-key-5f4e3d2c1b';
const PROXY_PASSWORD = 'proxy-pa55word';

interface ConnectProxy {
  readonly url: string;
  /** host:port of every CONNECT, in order. */
  readonly tunnels: string[];
  readonly proxyAuthorization: (string | undefined)[];
  readonly close: () => Promise<void>;
}

async function startConnectProxy(): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const proxyAuthorization: (string | undefined)[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    proxyAuthorization.push(req.headers['proxy-authorization']);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    proxyAuthorization,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

let pki: TestPki;
let sim: Simulator;
let proxy: ConnectProxy;

beforeAll(async () => {
  pki = createTestPki('private-api-ca');
  const cert = pki.issue('api', 'server');
  sim = await startSimulator({ posts: demoStations(), apiKey: KEY, tls: { key: cert.key, cert: cert.cert } });
  proxy = await startConnectProxy();
});
afterAll(async () => {
  await sim?.close();
  await proxy?.close();
  pki?.cleanup();
});

const start = (args: readonly string[], env: Record<string, string>): Promise<ExporterProcess> =>
  startExporterProcess({
    // Background refresh: the first attempt happens at start, no scrape needed to trigger it.
    args: [`--upstream.url=${sim.baseUrl}`, '--upstream.refresh-interval=30s', ...args],
    env: { CITYAIR_API_KEY: KEY, ...env },
  });

const failures = (text: string, reason: string): number =>
  sample(text, `cityair_upstream_request_failures_total{reason="${reason}"}`) ?? 0;

describe('HTTPS_PROXY and a private CA', () => {
  it('tunnels through the proxy with CONNECT, trusts the private CA, and never logs the proxy password', async () => {
    const before = proxy.tunnels.length;
    const proxyUrl = proxy.url.replace('http://', `http://scraper:${PROXY_PASSWORD}@`);
    const p = await start([`--upstream.ca-file=${pki.ca.certFile}`], { HTTPS_PROXY: proxyUrl });
    try {
      await p.waitForLog((l) => l.msg === 'first refresh succeeded');
      const metrics = await get(`${p.url}/metrics`);
      expect(sample(metrics.text, 'cityair_up')).toBe(1);
      expect(metrics.text).toMatch(/^cityair_station_online\{/m);
      const simHost = new URL(sim.baseUrl).host;
      expect(proxy.tunnels.slice(before)).toContain(simHost);
      expect(proxy.proxyAuthorization.at(-1)).toBe(
        `Basic ${Buffer.from(`scraper:${PROXY_PASSWORD}`).toString('base64')}`,
      );
      const route = p.logs().find((l) => l.msg === 'upstream requests go through a proxy');
      expect(route?.https_proxy).toBe(`http://***@${new URL(proxy.url).host}`);
      expect(p.output()).not.toContain(PROXY_PASSWORD);
      expect(p.output()).not.toContain(KEY);
      expect(metrics.text).not.toContain(PROXY_PASSWORD);
    } finally {
      await p.stop();
    }
  });

  it('works with a path, query or fragment after the proxy address, as curl does', async () => {
    const before = proxy.tunnels.length;
    const p = await start([`--upstream.ca-file=${pki.ca.certFile}`], {
      HTTPS_PROXY: `${proxy.url}/some/path?x=1#y`,
    });
    try {
      await p.waitForLog((l) => l.msg === 'first refresh succeeded');
      expect(sample((await get(`${p.url}/metrics`)).text, 'cityair_up')).toBe(1);
      expect(proxy.tunnels.length).toBeGreaterThan(before);
    } finally {
      await p.stop();
    }
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    const before = proxy.tunnels.length;
    const p = await start([`--upstream.ca-file=${pki.ca.certFile}`], {
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
    });
    try {
      await p.waitForLog((l) => l.msg === 'first refresh succeeded');
      expect(sample((await get(`${p.url}/metrics`)).text, 'cityair_up')).toBe(1);
      expect(proxy.tunnels.length).toBe(before);
    } finally {
      await p.stop();
    }
  });

  it('fails with reason network without the CA, and succeeds with --upstream.insecure-skip-verify plus a warning', async () => {
    const untrusted = await start([], { https_proxy: proxy.url });
    try {
      const failed = await untrusted.waitForLog((l) =>
        l.msg.startsWith('refresh of the station list failed'),
      );
      expect(failed.reason).toBe('network');
      expect(failed.msg).toMatch(/certificate/i);
      const text = (await get(`${untrusted.url}/metrics`)).text;
      expect(sample(text, 'cityair_up')).toBe(0);
      expect(failures(text, 'network')).toBeGreaterThanOrEqual(1);
    } finally {
      await untrusted.stop();
    }

    const insecure = await start(['--upstream.insecure-skip-verify'], { HTTPS_PROXY: proxy.url });
    try {
      const warning = insecure
        .logs()
        .find((l) => l.level === 'warn' && l.msg.includes('insecure-skip-verify'));
      expect(warning?.msg).toMatch(/not checked/);
      await insecure.waitForLog((l) => l.msg === 'first refresh succeeded');
      expect(sample((await get(`${insecure.url}/metrics`)).text, 'cityair_up')).toBe(1);
    } finally {
      await insecure.stop();
    }
  });

  it('stops with exit 2 on an unreadable, endless or empty CA file and on a proxy that is not a URL', async () => {
    const env = { CITYAIR_API_KEY: KEY };
    const absent = await runExporter([`--upstream.ca-file=${pki.dir}/none.pem`], env);
    expect(absent.code).toBe(2);
    expect(absent.stderr.trim()).toMatch(
      /^cityair-exporter: invalid --upstream\.ca-file \(CITYAIR_CA_FILE\): cannot read .*none\.pem \(ENOENT\)$/,
    );
    const device = await runExporter(['--upstream.ca-file=/dev/zero'], env, 10_000);
    expect(device.code).toBe(2);
    expect(device.stderr.trim()).toBe(
      'cityair-exporter: invalid --upstream.ca-file (CITYAIR_CA_FILE): cannot read /dev/zero (not a regular file)',
    );
    const notPem = await runExporter([`--upstream.ca-file=${pki.dir}/api.key`], env);
    expect(notPem.code).toBe(2);
    expect(notPem.stderr.trim()).toMatch(/no PEM certificate in .*api\.key$/);
    const badProxy = await runExporter([], { ...env, HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    expect(badProxy.code).toBe(2);
    expect(badProxy.stderr.trim()).toMatch(/invalid HTTPS_PROXY: the proxy must be http:\/\/ or https:\/\//);
    const badPassword = await runExporter([], { ...env, HTTPS_PROXY: 'http://user:50%zz@127.0.0.1:3128' });
    expect(badPassword.code).toBe(2);
    expect(badPassword.stderr).toBe(
      'cityair-exporter: invalid HTTPS_PROXY: the user or password is not valid percent-encoding\n',
    );
  });
});
