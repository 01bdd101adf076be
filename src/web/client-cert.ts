// Client certificates: Go's client-auth policies on node:tls, and the Subject Alternative Names checked against
// the toolkit's client_allowed_sans: DNS names, IP addresses, e-mail addresses and URIs, compared exactly (IP
// addresses in canonical form, so ::1 matches 0:0:0:0:0:0:0:1 as Go's net.IP.String() would print it).
import type { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ClientAuthType, TlsSettings } from './tls-settings.js';

// node:crypto renders SANs as `DNS:a, IP Address:1.2.3.4, email:x@y, URI:spiffe://z`, JSON-quoting values that
// contain separators or quotes.
const ENTRY = /(DNS|IP Address|email|URI):("(?:[^"\\]|\\.)*"|[^,]*)(?:, |$)/g;

export function certificateSans(cert: X509Certificate): string[] {
  const text = cert.subjectAltName ?? '';
  const values: string[] = [];
  for (const match of text.matchAll(ENTRY)) {
    const raw = match[2] ?? '';
    let value = raw;
    if (raw.startsWith('"')) {
      try {
        value = JSON.parse(raw) as string;
      } catch {
        continue;
      }
    }
    values.push(match[1] === 'IP Address' ? canonicalIp(value) : value);
  }
  return values;
}

/** Lower-case, compressed IPv6 (the URL parser's canonical form); IPv4 and non-IPs unchanged. */
export function canonicalIp(value: string): string {
  if (isIP(value) !== 6) return value;
  return new URL(`http://[${value}]/`).hostname.slice(1, -1);
}

export function sanAllowed(cert: X509Certificate, allowed: readonly string[]): boolean {
  const wanted = new Set(allowed.map(canonicalIp));
  return certificateSans(cert).some((san) => wanted.has(san));
}

/**
 * Go's five client-auth policies on node:tls. Only RequireAndVerifyClientCert can be enforced inside the
 * handshake by OpenSSL; the others ask for a certificate without failing the handshake, and acceptsPeer()
 * closes the connection right after it when the policy is not met.
 */
export function verifyMode(type: ClientAuthType): { requestCert: boolean; rejectUnauthorized: boolean } {
  return { requestCert: type !== 'NoClientCert', rejectUnauthorized: type === 'RequireAndVerifyClientCert' };
}

export interface PeerPolicy {
  readonly clientAuth: ClientAuthType;
  readonly allowedSans: readonly string[] | undefined;
}

export function policyOf(settings: TlsSettings | undefined): PeerPolicy {
  return { clientAuth: settings?.clientAuth ?? 'NoClientCert', allowedSans: settings?.allowedSans };
}

export function acceptsPeer(policy: PeerPolicy, socket: TLSSocket): boolean {
  const cert = socket.getPeerX509Certificate();
  if (policy.allowedSans && !(cert && sanAllowed(cert, policy.allowedSans))) return false;
  switch (policy.clientAuth) {
    case 'NoClientCert':
    case 'RequestClientCert':
      return true;
    case 'RequireAnyClientCert':
      return cert !== undefined;
    case 'VerifyClientCertIfGiven':
      return cert === undefined || socket.authorized;
    case 'RequireAndVerifyClientCert':
      return cert !== undefined && socket.authorized;
  }
}
