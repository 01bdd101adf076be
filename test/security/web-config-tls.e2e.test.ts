// Loading the web configuration's certificates and keys, made here with the openssl CLI (hence .e2e): the
// fingerprint over every byte read, the one-line problems of unusable TLS material, the cipher suites a handshake
// really gets, and the SANs read from a client certificate.
import { X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ConnectionOptions, createServer as createTlsServer, connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { canonicalIp, certificateSans, sanAllowed } from '../../src/web/client-cert.js';
import { loadWebConfig, secureContextOptions } from '../../src/web/loader.js';
import { createTestPki, type IssuedCert, type TestPki } from '../support/certs.js';

describe('loadWebConfig with TLS certificates', () => {
  let pki: TestPki;
  let server: IssuedCert;
  beforeAll(() => {
    pki = createTestPki();
    server = pki.issue('server', 'server');
    pki.issue('other', 'server');
  });
  afterAll(() => pki.cleanup());
  const load = (content: unknown) => {
    const file = join(pki.dir, 'web.yml');
    writeFileSync(file, stringify(content));
    return loadWebConfig(file);
  };

  it('reads the certificate and key next to the file and fingerprints every byte', () => {
    const a = load({ tls_server_config: { cert_file: 'server.crt', key_file: 'server.key' } });
    if (!a.ok) throw a.error;
    expect(a.loaded.tls?.cert.toString()).toBe(server.cert);
    expect(a.loaded.files).toEqual([join(pki.dir, 'web.yml'), server.certFile, server.keyFile]);
    const same = loadWebConfig(join(pki.dir, 'web.yml'));
    expect(same.fingerprint).toBe(a.fingerprint);
    pki.issue('server', 'server');
    expect(loadWebConfig(join(pki.dir, 'web.yml')).fingerprint).not.toBe(a.fingerprint);
  });

  it('refuses a key that is not the certificate’s, a non-PEM certificate and a missing file', () => {
    const mismatch = load({ tls_server_config: { cert_file: 'server.crt', key_file: 'other.key' } });
    expect(!mismatch.ok && mismatch.error.detail).toMatch(
      /web\.yml: tls_server_config: certificate and key cannot be used: .*mismatch/,
    );
    const notPem = load({ tls_server_config: { cert_file: 'web.yml', key_file: 'server.key' } });
    expect(!notPem.ok && notPem.error.detail).toMatch(
      /tls_server_config\.cert_file: .*web\.yml is not a PEM certificate$/,
    );
    const absent = load({ tls_server_config: { cert_file: 'gone.crt', key_file: 'server.key' } });
    expect(!absent.ok && absent.error.detail).toMatch(
      /web\.yml: tls_server_config\.cert_file: cannot read .*gone\.crt \(ENOENT\)$/,
    );
    const key = load({ tls_server_config: { cert_file: 'server.crt', key_file: 'server.key' } });
    // The key file's content never appears in a message.
    expect(JSON.stringify(mismatch)).not.toContain(server.key.split('\n')[1]);
    expect(key.ok).toBe(true);
  });

  it('limits TLS 1.2 to the cipher_suites given and leaves TLS 1.3 as it is', async () => {
    const r = load({
      tls_server_config: {
        cert_file: 'server.crt',
        key_file: 'server.key',
        cipher_suites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384'],
      },
    });
    if (!r.ok || !r.loaded.tls) throw new Error('expected TLS');
    const server = createTlsServer(secureContextOptions(r.loaded.tls), (s) => s.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const handshake = (options: ConnectionOptions): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = tlsConnect({ host: '127.0.0.1', port, ca: pki.ca.cert, ...options }, () => {
          resolve(`${socket.getProtocol()} ${socket.getCipher().standardName}`);
          socket.destroy();
        });
        socket.on('error', reject);
      });
    try {
      expect(await handshake({ maxVersion: 'TLSv1.2' })).toBe(
        'TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
      );
      await expect(
        handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' }),
      ).rejects.toThrow();
      expect(await handshake({})).toMatch(/^TLSv1\.3 TLS_/);
    } finally {
      server.close();
    }
  });
});

describe('client certificate SANs', () => {
  it('reads DNS and IP SANs and compares IPv6 in canonical form', () => {
    const pki = createTestPki();
    try {
      const cert = new X509Certificate(pki.issue('server', 'server').cert);
      expect(certificateSans(cert)).toEqual(['localhost', '127.0.0.1']);
      expect(sanAllowed(cert, ['127.0.0.1'])).toBe(true);
      expect(sanAllowed(cert, ['LOCALHOST', '127.0.0.2'])).toBe(false);
      expect(canonicalIp('0:0:0:0:0:0:0:1')).toBe('::1');
      expect(canonicalIp('FE80:0:0:0:0:0:0:1')).toBe('fe80::1');
    } finally {
      pki.cleanup();
    }
  });
});
