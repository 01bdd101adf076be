import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import {
  acceptsPeer,
  canonicalIp,
  certificateSans,
  type PeerPolicy,
  policyOf,
  sanAllowed,
  verifyMode,
} from '../../src/web/client-cert.js';
import { createTestPki } from '../support/certs.js';

const pki = createTestPki();
afterAll(() => pki.cleanup());
const server = new X509Certificate(pki.issue('server', 'server').cert);
const client = new X509Certificate(pki.issue('client', 'client', 'scraper.example').cert);

/** A self-signed certificate with an IPv6 address and an e-mail address among its SANs. */
function ipv6Cert(): X509Certificate {
  const out = join(pki.dir, 'v6.crt');
  // biome-ignore format: one flag and its value per line reads better
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(pki.dir, 'v6.key'),
    '-out', out, '-days', '1', '-subj', '/CN=v6', '-addext', 'subjectAltName=IP:2001:DB8:0:0:0:0:0:1,email:ops@example.org',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new X509Certificate(readFileSync(out));
}

/** A finished handshake as node:tls shows it: the peer's certificate, and whether it verified. */
const peer = (cert: X509Certificate | undefined, authorized: boolean): TLSSocket =>
  ({ getPeerX509Certificate: () => cert, authorized }) as unknown as TLSSocket;

describe('certificateSans', () => {
  it('reads DNS names and IP addresses', () => {
    expect(certificateSans(server)).toEqual(['localhost', '127.0.0.1']);
    expect(certificateSans(client)).toEqual(['scraper.example']);
  });
});

describe('canonicalIp', () => {
  it('writes IPv6 compressed and lower-case, as Go prints it, and leaves the rest', () => {
    expect(canonicalIp('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(canonicalIp('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(canonicalIp('10.0.0.1')).toBe('10.0.0.1');
    expect(canonicalIp('Host.Example')).toBe('Host.Example');
  });
});

describe('sanAllowed', () => {
  it('lets in a certificate carrying one of the allowed values exactly', () => {
    expect(sanAllowed(client, ['other.example', 'scraper.example'])).toBe(true);
    expect(sanAllowed(client, ['SCRAPER.example', 'example'])).toBe(false);
    expect(sanAllowed(server, ['127.0.0.1'])).toBe(true);
  });

  it('compares IPv6 addresses in canonical form, however either side writes them', () => {
    const v6 = ipv6Cert();
    expect(certificateSans(v6)).toEqual(['2001:db8::1', 'ops@example.org']);
    expect(sanAllowed(v6, ['2001:0db8:0000:0000:0000:0000:0000:0001'])).toBe(true);
    expect(sanAllowed(v6, ['ops@example.org'])).toBe(true);
  });
});

describe('verifyMode', () => {
  it('asks for a certificate under every policy but NoClientCert, and fails the handshake only for the strictest', () => {
    expect(verifyMode('NoClientCert')).toEqual({ requestCert: false, rejectUnauthorized: false });
    expect(verifyMode('RequestClientCert')).toEqual({ requestCert: true, rejectUnauthorized: false });
    expect(verifyMode('VerifyClientCertIfGiven')).toEqual({ requestCert: true, rejectUnauthorized: false });
    expect(verifyMode('RequireAndVerifyClientCert')).toEqual({ requestCert: true, rejectUnauthorized: true });
  });
});

describe('acceptsPeer', () => {
  const policy = (clientAuth: PeerPolicy['clientAuth'], allowedSans?: string[]): PeerPolicy => ({
    clientAuth,
    allowedSans,
  });

  it.each([
    ['NoClientCert', [true, true, true]],
    ['RequestClientCert', [true, true, true]],
    ['RequireAnyClientCert', [false, true, true]],
    ['VerifyClientCertIfGiven', [true, false, true]],
    ['RequireAndVerifyClientCert', [false, false, true]],
  ] as const)('under %s: no certificate, an unverified one, a verified one → %j', (auth, expected) => {
    const p = policy(auth);
    expect([
      acceptsPeer(p, peer(undefined, false)),
      acceptsPeer(p, peer(client, false)),
      acceptsPeer(p, peer(client, true)),
    ]).toEqual(expected);
  });

  it('closes on a certificate without an allowed SAN, or without a certificate', () => {
    const p = policy('RequireAndVerifyClientCert', ['scraper.example']);
    expect(acceptsPeer(p, peer(client, true))).toBe(true);
    expect(acceptsPeer(p, peer(server, true))).toBe(false);
    expect(acceptsPeer(policy('RequireAnyClientCert', ['x']), peer(undefined, false))).toBe(false);
  });
});

describe('policyOf', () => {
  it('asks nothing of a client without TLS settings', () => {
    expect(policyOf(undefined)).toEqual({ clientAuth: 'NoClientCert', allowedSans: undefined });
  });
});
