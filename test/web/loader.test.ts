import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError } from '../../src/config/config.js';
import { loadWebConfig, secureContextOptions } from '../../src/web/loader.js';
import { TLS13_CIPHERS } from '../../src/web/tls-settings.js';
import { createTestPki } from '../support/certs.js';

describe('loadWebConfig without TLS', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cityair-web-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports an unreadable config file by name', () => {
    const r = loadWebConfig(join(dir, 'nope.yml'));
    expect(!r.ok && r.error.detail).toMatch(/nope\.yml: cannot read \(ENOENT\)$/);
  });

  it('refuses a FIFO or a device without waiting on it, and a file over 1 MiB', () => {
    const fifo = join(dir, 'fifo.yml');
    execFileSync('mkfifo', [fifo]);
    const big = join(dir, 'big.yml');
    writeFileSync(big, `# ${'x'.repeat(1024 * 1024)}\n`);
    for (const [file, why] of [
      [fifo, 'not a regular file'],
      ['/dev/zero', 'not a regular file'],
      [big, 'larger than 1MiB'],
    ] as const) {
      const r = loadWebConfig(file);
      expect(!r.ok && r.error.detail, file).toBe(`${file}: cannot read (${why})`);
    }
  });

  it('says what is wrong and where, as a configuration error that names the flag', () => {
    const file = join(dir, 'web.yml');
    writeFileSync(file, stringify({ basic_auth_users: { alice: 'hunter2' } }));
    const r = loadWebConfig(file);
    if (r.ok) throw new Error('expected a problem');
    expect(r.error).toBeInstanceOf(ConfigError);
    expect(r.error).toMatchObject({ file, key: 'basic_auth_users.alice' });
    expect(r.error.problem).toMatch(/^not a bcrypt hash/);
    expect(r.error.detail).toBe(`${file}: basic_auth_users.alice: ${r.error.problem}`);
    expect(r.error.message).toBe(`invalid --web.config.file (CITYAIR_WEB_CONFIG_FILE): ${r.error.detail}`);
    expect(r.error.message).not.toContain('hunter2');
  });
});

describe('loadWebConfig with TLS', () => {
  const pki = createTestPki();
  afterAll(() => pki.cleanup());
  const server = pki.issue('server', 'server');
  const other = pki.issue('other', 'server');

  const write = (name: string, content: object): string => {
    const file = join(pki.dir, name);
    writeFileSync(file, stringify(content));
    return file;
  };

  it('reads the certificate, key and client CA, and lists every file it read for the watch', () => {
    const file = write('tls.yml', {
      tls_server_config: {
        cert_file: 'server.crt',
        key_file: server.keyFile,
        client_ca_file: 'ca.crt',
        client_auth_type: 'RequireAndVerifyClientCert',
        cipher_suites: ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256'],
        curve_preferences: ['CurveP256', 'X25519'],
      },
    });
    const r = loadWebConfig(file);
    if (!r.ok) throw r.error;
    const tls = r.loaded.tls;
    expect(r.loaded.files).toEqual([file, server.certFile, server.keyFile, pki.ca.certFile]);
    expect(tls?.cert.toString()).toBe(server.cert);
    expect(new Date(tls?.notAfter ?? '').getTime()).toBeGreaterThan(Date.now());
    const options = tls && secureContextOptions(tls);
    expect(options).toMatchObject({
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.3',
      ecdhCurve: 'prime256v1:X25519',
      ciphers: `ECDHE-ECDSA-AES128-GCM-SHA256:${TLS13_CIPHERS.join(':')}`,
    });
    expect(options?.ca?.toString()).toBe(pki.ca.cert);
  });

  it('changes its fingerprint when a named file changes, and only then', () => {
    const file = write('fp.yml', { tls_server_config: { cert_file: 'fp.crt', key_file: 'fp.key' } });
    writeFileSync(join(pki.dir, 'fp.crt'), server.cert);
    writeFileSync(join(pki.dir, 'fp.key'), server.key);
    const first = loadWebConfig(file).fingerprint;
    expect(loadWebConfig(file).fingerprint).toBe(first);
    writeFileSync(join(pki.dir, 'fp.crt'), other.cert);
    writeFileSync(join(pki.dir, 'fp.key'), other.key);
    expect(loadWebConfig(file).fingerprint).not.toBe(first);
  });

  it('refuses a key that is not the certificate’s, and a certificate that is not one, naming the key at fault', () => {
    const mismatch = write('mismatch.yml', {
      tls_server_config: { cert_file: server.certFile, key_file: other.keyFile },
    });
    const r = loadWebConfig(mismatch);
    expect(!r.ok && r.error.detail).toMatch(
      new RegExp(`^${mismatch}: tls_server_config: certificate and key cannot be used: `),
    );
    expect(!r.ok && r.error.detail).not.toContain('PRIVATE KEY');
    const notCert = write('notcert.yml', {
      tls_server_config: { cert_file: server.keyFile, key_file: server.keyFile },
    });
    const n = loadWebConfig(notCert);
    expect(!n.ok && n.error.detail).toBe(
      `${notCert}: tls_server_config.cert_file: ${server.keyFile} is not a PEM certificate`,
    );
    const missing = write('missing.yml', {
      tls_server_config: { cert_file: 'gone.crt', key_file: server.keyFile },
    });
    const m = loadWebConfig(missing);
    expect(!m.ok && m.error.detail).toBe(
      `${missing}: tls_server_config.cert_file: cannot read ${join(pki.dir, 'gone.crt')} (ENOENT)`,
    );
  });
});
