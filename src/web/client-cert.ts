// Subject Alternative Names of a client certificate, for the toolkit's client_allowed_sans: DNS names, IP
// addresses, e-mail addresses and URIs, compared exactly (IP addresses in canonical form, so ::1 matches
// 0:0:0:0:0:0:0:1 as Go's net.IP.String() would print it).
import type { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

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
