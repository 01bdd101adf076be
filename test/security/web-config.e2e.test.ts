// --web.config.file end to end: the built exporter serving real TLS with certificates made here, basic auth,
// the configured headers, client certificates, and reloads of users, certificates and policy without restart.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createTestPki, type IssuedCert, type TestPki } from '../support/certs.js';
import { type ExporterProcess, runExporter, startExporterProcess } from '../support/exporter-process.js';
import { eventually } from '../support/http.js';
import { basic, fingerprintOf, hashOf, httpsGet, servedFingerprint } from './helpers.js';

let pki: TestPki;
let server: IssuedCert;
let client: IssuedCert;
let otherClient: IssuedCert;
let foreignPki: TestPki;
let foreignClient: IssuedCert;

beforeAll(() => {
  pki = createTestPki();
  server = pki.issue('server', 'server');
  client = pki.issue('prometheus', 'client');
  otherClient = pki.issue('grafana', 'client');
  foreignPki = createTestPki('someone-else-ca');
  foreignClient = foreignPki.issue('intruder', 'client');
});
afterAll(() => {
  pki.cleanup();
  foreignPki.cleanup();
});

const writeWebConfig = (name: string, content: unknown): string => {
  const file = join(pki.dir, name);
  writeFileSync(file, typeof content === 'string' ? content : stringify(content));
  return file;
};

const startWith = (file: string): Promise<ExporterProcess> =>
  startExporterProcess({ args: ['--demo', `--web.config.file=${file}`] });

describe('TLS, basic auth and headers', () => {
  it('serves HTTPS, demands credentials on /metrics, sends the headers, and reloads users and certificates', async () => {
    const file = writeWebConfig('web.yml', {
      // Relative paths are relative to the config file's directory, as in the Go toolkit.
      tls_server_config: { cert_file: 'server.crt', key_file: 'server.key' },
      basic_auth_users: { prometheus: hashOf('scrape-secret') },
      http_server_config: { headers: { 'X-Frame-Options': 'deny', 'X-Content-Type-Options': 'nosniff' } },
    });
    const p = await startWith(file);
    try {
      expect(p.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const ca = { ca: pki.ca.cert };

      const ok = await httpsGet(`${p.url}/metrics`, ca, {
        authorization: basic('prometheus', 'scrape-secret'),
      });
      expect(ok.status).toBe(200);
      expect(ok.text).toMatch(/^cityair_up 1$/m);
      expect(ok.headers['x-frame-options']).toBe('deny');
      expect(ok.headers['x-content-type-options']).toBe('nosniff');
      const notFound = await httpsGet(`${p.url}/nope`, ca, {
        authorization: basic('prometheus', 'scrape-secret'),
      });
      expect(notFound.status).toBe(404);
      expect(notFound.headers['x-frame-options']).toBe('deny');

      const wrong = await httpsGet(`${p.url}/metrics`, ca, { authorization: basic('prometheus', 'guess') });
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic realm="cityair-exporter"/);
      expect(wrong.text).not.toContain('cityair_');
      expect(wrong.headers['x-frame-options']).toBe('deny');
      const unknownUser = await httpsGet(`${p.url}/metrics`, ca, {
        authorization: basic('root', 'scrape-secret'),
      });
      expect(unknownUser.status).toBe(401);
      const missing = await httpsGet(`${p.url}/metrics`, ca);
      expect(missing.status).toBe(401);
      expect(missing.headers['www-authenticate']).toMatch(/^Basic /);
      expect((await httpsGet(`${p.url}/`, ca)).status).toBe(401);
      expect((await httpsGet(`${p.url}/readyz`, ca)).status).toBe(401);
      // Liveness probes carry no credentials; the answer is only "ok".
      const health = await httpsGet(`${p.url}/healthz`, ca);
      expect(health.status).toBe(200);
      expect(health.headers['x-content-type-options']).toBe('nosniff');

      // Not trusted without the test CA; plain HTTP on the TLS port gets nothing.
      await expect(httpsGet(`${p.url}/healthz`, {})).rejects.toThrow();
      await expect(fetch(`${p.url.replace('https:', 'http:')}/healthz`)).rejects.toThrow();

      // New users take effect without a restart; the old password stops working at once.
      writeWebConfig('web.yml', {
        tls_server_config: { cert_file: 'server.crt', key_file: 'server.key' },
        basic_auth_users: { prometheus: hashOf('rotated-secret') },
        http_server_config: { headers: { 'X-Frame-Options': 'sameorigin' } },
      });
      await p.waitForLog((l) => l.msg === 'web configuration reloaded');
      const rotated = await httpsGet(`${p.url}/metrics`, ca, {
        authorization: basic('prometheus', 'rotated-secret'),
      });
      expect(rotated.status).toBe(200);
      expect(rotated.headers['x-frame-options']).toBe('sameorigin');
      expect(rotated.headers['x-content-type-options']).toBeUndefined();
      const old = await httpsGet(`${p.url}/metrics`, ca, {
        authorization: basic('prometheus', 'scrape-secret'),
      });
      expect(old.status).toBe(401);

      // A broken edit is refused and logged; the running configuration stays.
      writeWebConfig('web.yml', 'basic_auth_users: [not, a, map\n');
      const refused = await p.waitForLog((l) => l.msg.startsWith('web configuration not reloaded'));
      expect(String(refused.problem)).toContain('not valid YAML');
      expect(
        (await httpsGet(`${p.url}/metrics`, ca, { authorization: basic('prometheus', 'rotated-secret') }))
          .status,
      ).toBe(200);
      writeWebConfig('web.yml', {
        tls_server_config: { cert_file: 'server.crt', key_file: 'server.key' },
        basic_auth_users: { prometheus: hashOf('rotated-secret') },
      });

      // Certificate renewal replaces only the cert and key files: the new certificate is served.
      expect(await servedFingerprint(p.url, pki.ca.cert)).toBe(fingerprintOf(server.cert));
      const renewed = pki.issue('server', 'server');
      expect(fingerprintOf(renewed.cert)).not.toBe(fingerprintOf(server.cert));
      await eventually(async () =>
        (await servedFingerprint(p.url, pki.ca.cert)) === fingerprintOf(renewed.cert) ? true : undefined,
      );
      expect(p.child.exitCode).toBeNull();
    } finally {
      await p.stop();
    }
  });
});

describe('client certificates', () => {
  it('refuses a scrape without a certificate from the client CA, accepts one with it, and reloads the policy', async () => {
    const tls = { cert_file: 'server.crt', key_file: 'server.key', client_ca_file: 'ca.crt' };
    const file = writeWebConfig('mtls.yml', {
      tls_server_config: { ...tls, client_auth_type: 'RequireAndVerifyClientCert' },
    });
    const p = await startWith(file);
    try {
      const url = `${p.url}/metrics`;
      const withCert = await httpsGet(url, { ca: pki.ca.cert, cert: client.cert, key: client.key });
      expect(withCert.status).toBe(200);
      expect(withCert.text).toMatch(/^cityair_up 1$/m);
      await expect(httpsGet(url, { ca: pki.ca.cert })).rejects.toThrow();
      await expect(
        httpsGet(url, { ca: pki.ca.cert, cert: foreignClient.cert, key: foreignClient.key }),
      ).rejects.toThrow();

      // VerifyClientCertIfGiven: no certificate is fine, a certificate from another CA is not.
      writeWebConfig('mtls.yml', {
        tls_server_config: { ...tls, client_auth_type: 'VerifyClientCertIfGiven' },
      });
      await p.waitForLog((l) => l.msg === 'web configuration reloaded');
      expect((await httpsGet(url, { ca: pki.ca.cert })).status).toBe(200);
      expect((await httpsGet(url, { ca: pki.ca.cert, cert: client.cert, key: client.key })).status).toBe(200);
      await expect(
        httpsGet(url, { ca: pki.ca.cert, cert: foreignClient.cert, key: foreignClient.key }),
      ).rejects.toThrow();

      // client_allowed_sans: of two certificates from the right CA, only the one with an allowed SAN gets in.
      writeWebConfig('mtls.yml', {
        tls_server_config: {
          ...tls,
          client_auth_type: 'RequireAndVerifyClientCert',
          client_allowed_sans: ['prometheus'],
        },
      });
      await p.waitForLog(
        (l) => l.msg === 'web configuration reloaded' && l.client_auth === 'RequireAndVerifyClientCert',
      );
      expect((await httpsGet(url, { ca: pki.ca.cert, cert: client.cert, key: client.key })).status).toBe(200);
      await expect(
        httpsGet(url, { ca: pki.ca.cert, cert: otherClient.cert, key: otherClient.key }),
      ).rejects.toThrow();
      await expect(httpsGet(url, { ca: pki.ca.cert })).rejects.toThrow();
    } finally {
      await p.stop();
    }
  });
});

// Every message is covered by web-config-file.test.ts; here, that the process stops with exit 2 and one line.
describe('invalid web configuration files', () => {
  const cases: ReadonlyArray<readonly [string, unknown, RegExp]> = [
    ['a misspelt key', { basic_auth_user: { a: hashOf('x') } }, /bad\.yml: unknown key "basic_auth_user"$/],
    [
      'a key that does not match its certificate',
      { tls_server_config: { cert_file: 'server.crt', key_file: 'prometheus.key' } },
      /certificate and key cannot be used: .*key values mismatch/,
    ],
  ];
  it.each(cases)('stops the start with exit 2 and one line naming %s', async (_what, content, pattern) => {
    const file = writeWebConfig('bad.yml', content);
    const run = await runExporter([
      '--demo',
      '--web.listen-address=127.0.0.1:0',
      `--web.config.file=${file}`,
    ]);
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cityair-exporter: invalid --web\.config\.file \(CITYAIR_WEB_CONFIG_FILE\): /);
    expect(lines[0]).toMatch(pattern);
  });
});
