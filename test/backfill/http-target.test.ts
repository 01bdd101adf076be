import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import {
  credentialsOf,
  type HttpTarget,
  redact,
  targetHeaders,
  targetTls,
} from '../../src/backfill/http-target.js';
import { Secret } from '../../src/config/secret.js';

const dir = mkdtempSync(join(tmpdir(), 'cityair-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

const TARGET: HttpTarget = {
  url: 'https://vm.example/api/v1/write',
  basicAuth: undefined,
  bearerTokenFile: undefined,
  headers: [['X-Scope-OrgID', 'city']],
  caFile: undefined,
  timeoutMs: 30_000,
};

describe('targetHeaders', () => {
  it('sends the target’s own headers, named in lower case', () => {
    expect(targetHeaders(TARGET)).toEqual({ 'x-scope-orgid': 'city' });
  });

  it('authorizes with the basic password or bearer token read from their files at each call', () => {
    const password = file('password', 's3cret\n');
    const basic = { ...TARGET, basicAuth: { username: 'vm', passwordFile: password } };
    expect(targetHeaders(basic).authorization).toBe(`Basic ${Buffer.from('vm:s3cret').toString('base64')}`);
    const token = file('token', 'tok-1\n');
    const bearer = { ...TARGET, bearerTokenFile: token };
    expect(targetHeaders(bearer).authorization).toBe('Bearer tok-1');
    writeFileSync(token, 'tok-2');
    expect(targetHeaders(bearer).authorization).toBe('Bearer tok-2');
  });
});

describe('targetTls', () => {
  it('adds a private CA to Node’s trust store rather than replacing it', () => {
    expect(targetTls(TARGET)).toEqual({});
    const ca = file('ca.pem', '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n');
    const tls = targetTls({ ...TARGET, caFile: ca });
    expect(tls.ca).toHaveLength(rootCertificates.length + 1);
    expect(tls.ca?.at(-1)).toContain('BEGIN CERTIFICATE');
  });
});

describe('credentialsOf and redact', () => {
  it('takes out the token, the basic password in both its forms and the API key', () => {
    const basic = `Basic ${Buffer.from('vm:pa/ss').toString('base64')}`;
    const secrets = credentialsOf(basic, new Secret('api-key-123'));
    const message = `refused ${basic} for "pa\\/ss" with key api-key-123; user vm`;
    expect(redact(message, secrets)).toBe(
      'refused Basic [REDACTED] for "[REDACTED]" with key [REDACTED]; user vm',
    );
    expect(redact('token tok-9 used', credentialsOf('Bearer tok-9', undefined))).toBe(
      'token [REDACTED] used',
    );
  });

  it('takes a secret that holds another out whole', () => {
    expect(credentialsOf('Bearer abcdef', new Secret('abc'))).toEqual(['abcdef', 'abc']);
    expect(redact('x abcdef y', ['abcdef', 'abc'])).toBe('x [REDACTED] y');
  });

  it('has nothing to take out without credentials', () => {
    expect(credentialsOf(undefined, undefined)).toEqual([]);
  });
});

describe('remote-write messages', () => {
  it('hold no bearer token, basic password or its base64, nor the API key, even echoed', () => {
    const basic = Buffer.from('air:pa55w/rd').toString('base64');
    const key = new Secret('api-key-0123456789abcdef');
    const echo = `bad request; headers: Authorization: Basic ${basic} pw=pa55w\\/rd key=${key.reveal()}`;
    const out = redact(echo, credentialsOf(`Basic ${basic}`, key));
    for (const secret of [basic, 'pa55w', key.reveal().slice(0, 6)]) expect(out).not.toContain(secret);
    expect(redact('Bearer tok-123456 refused', credentialsOf('Bearer tok-123456', undefined))).toBe(
      'Bearer [REDACTED] refused',
    );
  });
});
