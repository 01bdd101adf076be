// The exporter-toolkit YAML: what it accepts, and the one-line message for each way it can be wrong. All in process
// (certificates are in web-config-tls.e2e.test.ts; the loader, token bucket and basic auth have their own files).
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseWebConfig } from '../../src/web/config-file.js';
import { WebConfigError } from '../../src/web/error.js';
import { hashOf } from '../security/helpers.js';

const HASH = hashOf('pw');
const parse = (content: unknown) =>
  parseWebConfig(typeof content === 'string' ? content : stringify(content), '/etc/x');
/** The place and the problem, as the reload log shows them. */
const problem = (content: unknown): string => {
  try {
    parse(content);
  } catch (error) {
    if (error instanceof WebConfigError) return error.detail;
    throw error;
  }
  throw new Error('expected a problem');
};

describe('parseWebConfig', () => {
  it('accepts an empty file: plain HTTP, no auth', () => {
    for (const text of ['', '---\n', '{}', 'basic_auth_users:\n']) {
      const config = parse(text);
      expect(config.tls === undefined && config.users.size === 0).toBe(true);
    }
  });

  it('reads the toolkit example: TLS with relative paths, users (htpasswd $2y$ too), headers, http2', () => {
    const config = parse({
      tls_server_config: {
        cert_file: 'tls/server.crt',
        key_file: '/abs/server.key',
        client_auth_type: 'RequireAndVerifyClientCert',
        client_ca_file: 'ca.crt',
        min_version: 'TLS13',
        curve_preferences: ['X25519', 'CurveP256'],
      },
      http_server_config: {
        http2: true,
        headers: { 'Strict-Transport-Security': 'max-age=31536000', 'X-XSS-Protection': '' },
      },
      basic_auth_users: { alice: HASH, bob: HASH.replace(/^\$2[ab]\$/, '$2y$') },
    });
    expect(config.tls).toMatchObject({
      cert: { file: '/etc/x/tls/server.crt' },
      key: { file: '/abs/server.key' },
      clientCa: { file: '/etc/x/ca.crt' },
      clientAuth: 'RequireAndVerifyClientCert',
      minVersion: 'TLSv1.3',
      maxVersion: 'TLSv1.3',
      curves: ['X25519', 'prime256v1'],
    });
    expect([...config.users.keys()]).toEqual(['alice', 'bob']);
    // A blank value means "unset", as in the toolkit.
    expect([...config.headers]).toEqual([['Strict-Transport-Security', 'max-age=31536000']]);
  });

  it('reads rate_limit; an interval of 0 turns it off', () => {
    const on = parse({ rate_limit: { interval: '100ms', burst: 5 } });
    expect(on.rateLimit).toEqual({ intervalMs: 100, burst: 5 });
    const off = parse({ rate_limit: { interval: 0, burst: 5 } });
    expect(off.rateLimit).toBeUndefined();
  });

  it('keeps the toolkit defaults: TLS 1.2 to 1.3, no client certificates; RequireClientCert is the old name', () => {
    const config = parse({
      tls_server_config: { cert: 'PEM', key: 'PEM', client_auth_type: 'RequireClientCert' },
    });
    expect(config.tls).toMatchObject({
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.3',
      clientAuth: 'RequireAnyClientCert',
    });
  });

  const wrong: ReadonlyArray<readonly [string, unknown, string | RegExp]> = [
    ['YAML syntax', 'basic_auth_users: [a, b\n', /^not valid YAML: /],
    ['duplicate keys', 'basic_auth_users: {}\nbasic_auth_users: {}\n', /^not valid YAML: .*unique/i],
    ['a list at the top', '- a\n', 'the file must be a YAML mapping'],
    ['a top-level typo', { basic_auth_user: {} }, 'unknown key "basic_auth_user"'],
    ['a nested typo', { tls_server_config: { certfile: 'a' } }, 'unknown key "tls_server_config.certfile"'],
    ['a section that is not a mapping', { tls_server_config: 'yes' }, 'tls_server_config: must be a mapping'],
    ['a plain password', { basic_auth_users: { a: 'secret' } }, /^basic_auth_users\.a: not a bcrypt hash/],
    [
      'a user name with a colon',
      { basic_auth_users: { 'a:b': HASH } },
      /user name "a:b" is empty or has a colon/,
    ],
    [
      'a forbidden header',
      { http_server_config: { headers: { 'Access-Control-Allow-Origin': '*' } } },
      /header "Access-Control-Allow-Origin" cannot be configured; allowed: Strict-Transport-Security/,
    ],
    [
      'a wrong fixed value',
      { http_server_config: { headers: { 'X-Frame-Options': 'allow' } } },
      'http_server_config.headers.X-Frame-Options: must be one of deny, sameorigin',
    ],
    [
      'a header with a newline',
      { http_server_config: { headers: { 'Content-Security-Policy': 'a\r\nSet-Cookie: x' } } },
      /control or non-ASCII/,
    ],
    [
      'TLS without a key',
      { tls_server_config: { cert_file: 'a' } },
      'tls_server_config: missing key or key_file',
    ],
    [
      'cert and cert_file',
      { tls_server_config: { cert: 'x', cert_file: 'a', key_file: 'b' } },
      'tls_server_config: set only one of cert and cert_file',
    ],
    [
      'a client CA without a policy',
      { tls_server_config: { cert_file: 'a', key_file: 'b', client_ca_file: 'c' } },
      /client_ca_file is set but client_auth_type is NoClientCert/,
    ],
    [
      'verification without a CA',
      {
        tls_server_config: { cert_file: 'a', key_file: 'b', client_auth_type: 'RequireAndVerifyClientCert' },
      },
      /needs client_ca_file/,
    ],
    [
      'an unknown policy',
      { tls_server_config: { cert_file: 'a', key_file: 'b', client_auth_type: 'Always' } },
      /unknown client_auth_type "Always"; one of NoClientCert, /,
    ],
    [
      'an unknown TLS version',
      { tls_server_config: { cert_file: 'a', key_file: 'b', min_version: 'TLS1.2' } },
      /min_version: unknown TLS version "TLS1.2"; one of TLS10/,
    ],
    [
      'min above max',
      { tls_server_config: { cert_file: 'a', key_file: 'b', min_version: 'TLS13', max_version: 'TLS12' } },
      /min_version is above max_version/,
    ],
    [
      'an unknown curve',
      { tls_server_config: { cert_file: 'a', key_file: 'b', curve_preferences: ['P256'] } },
      /unknown curve "P256"/,
    ],
    [
      'an unknown or insecure cipher suite',
      { tls_server_config: { cert_file: 'a', key_file: 'b', cipher_suites: ['TLS_RSA_WITH_RC4_128_SHA'] } },
      /cipher_suites: unknown or insecure cipher suite "TLS_RSA_WITH_RC4_128_SHA"; one of TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256/,
    ],
    [
      'only TLS 1.3 suites with TLS 1.2 allowed',
      { tls_server_config: { cert_file: 'a', key_file: 'b', cipher_suites: ['TLS_AES_128_GCM_SHA256'] } },
      /cipher_suites lists only TLS 1.3 suites/,
    ],
    [
      'client_allowed_sans with a policy that lets clients in without a certificate',
      {
        tls_server_config: {
          cert_file: 'a',
          key_file: 'b',
          client_ca_file: 'c',
          client_auth_type: 'VerifyClientCertIfGiven',
          client_allowed_sans: ['x'],
        },
      },
      /client_allowed_sans needs client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert/,
    ],
    [
      'a rate limit that is not a duration',
      { rate_limit: { interval: 'often', burst: 1 } },
      'rate_limit.interval: must be a duration such as 100ms or 1s',
    ],
    [
      'a rate limit without a burst',
      { rate_limit: { interval: '1s' } },
      'rate_limit.burst: must be at least 1 when rate_limit.interval is set',
    ],
    [
      'a fractional burst',
      { rate_limit: { interval: '1s', burst: 1.5 } },
      'rate_limit.burst: must be a whole number',
    ],
    [
      'http2 as a string',
      { http_server_config: { http2: 'yes' } },
      'http_server_config.http2: must be true or false',
    ],
  ];
  it.each(wrong)('names the problem: %s', (_what, content, expected) => {
    const message = problem(content);
    if (typeof expected === 'string') expect(message).toBe(expected);
    else expect(message).toMatch(expected);
  });

  it('never echoes a hash or password back in a message', () => {
    expect(problem({ basic_auth_users: { a: 'hunter2' } })).not.toContain('hunter2');
  });
});
