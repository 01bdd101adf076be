// A Prometheus-compatible HTTP endpoint the commands talk to (a remote-write receiver, a query API): its
// credentials, extra headers and CA, and the secrets a message about it must never show. One place, so the
// backfill's writes and the report's queries authenticate, trust and redact alike.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { Secret } from '../config/secret.js';

export interface HttpTarget {
  readonly url: string;
  readonly basicAuth: { readonly username: string; readonly passwordFile: string } | undefined;
  readonly bearerTokenFile: string | undefined;
  readonly headers: readonly (readonly [string, string])[];
  readonly caFile: string | undefined;
  readonly timeoutMs: number;
}

/** The target's own headers and its authorization; files are read at each call, so a rotated token is picked up. */
export function targetHeaders(target: HttpTarget): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of target.headers) headers[name.toLowerCase()] = value;
  if (target.basicAuth) {
    const password = readFileSync(target.basicAuth.passwordFile, 'utf8').trim();
    headers.authorization = `Basic ${Buffer.from(`${target.basicAuth.username}:${password}`).toString('base64')}`;
  }
  if (target.bearerTokenFile)
    headers.authorization = `Bearer ${readFileSync(target.bearerTokenFile, 'utf8').trim()}`;
  return headers;
}

export function targetTls(target: HttpTarget): { ca?: string[] } {
  if (target.caFile === undefined) return {};
  // An explicit `ca` replaces Node's trust store instead of adding to it, so the defaults go in first.
  return { ca: [...rootCertificates, readFileSync(target.caFile, 'utf8')] };
}

/** What a message must never show: the bearer token, the basic password and its base64 form, the API key. */
export function credentialsOf(authorization: string | undefined, apiKey: Secret | undefined): string[] {
  const found = [apiKey?.reveal()];
  const [scheme, value] = (authorization ?? '').split(' ', 2);
  if (value && scheme === 'Bearer') found.push(value);
  if (value && scheme === 'Basic') {
    found.push(value);
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    found.push(decoded.slice(decoded.indexOf(':') + 1));
  }
  // Longest first, so a secret that holds another is taken out whole.
  return found.filter((s): s is string => !!s).sort((a, b) => b.length - a.length);
}

/** Every occurrence of each secret, also as a JSON string spells a `/` (`\\/`), replaced. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    out = out.split(secret).join('[REDACTED]');
    if (secret.includes('/')) out = out.split(secret.replaceAll('/', '\\/')).join('[REDACTED]');
  }
  return out;
}
