// The exporter-toolkit YAML: what it accepts, and the one-line message for each way it can be wrong; the token
// bucket and basic auth. All in process (certificates are in web-config-tls.e2e.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError } from '../../src/config/config.js';
import { createBasicAuth, createSerializer, parseBasic } from '../../src/web/basic-auth.js';
import { parseWebConfig } from '../../src/web/config-file.js';
import { WebConfigError } from '../../src/web/error.js';
import { loadWebConfig } from '../../src/web/loader.js';
import { createTokenBucket } from '../../src/web/rate-limit.js';
import { basic, hashOf } from '../security/helpers.js';

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

describe('token bucket', () => {
  it('allows a burst, then one request per interval', () => {
    let now = 0;
    const bucket = createTokenBucket(1000, 2, () => now);
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
    now = 999;
    expect(bucket.take()).toBe(false);
    now = 1999;
    expect(bucket.take()).toBe(true);
    now = 60_000;
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, false]);
  });
});

describe('basic auth', () => {
  it('parses the Authorization header as RFC 7617 says', () => {
    expect(parseBasic(basic('u', 'p:w'))).toEqual({ user: 'u', password: 'p:w' });
    expect(parseBasic(`bAsIc ${Buffer.from('u:').toString('base64')}`)).toEqual({ user: 'u', password: '' });
    expect(parseBasic('Bearer abc')).toBeUndefined();
    expect(parseBasic(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeUndefined();
    expect(parseBasic(undefined)).toBeUndefined();
  });

  it('accepts the right password, refuses others, and spends a bcrypt comparison on unknown users too', async () => {
    const cost = 8;
    const hash = bcrypt.hashSync('right', cost);
    // Counts bcrypt comparisons: every one goes through the serializer.
    const inner = createSerializer();
    let comparisons = 0;
    const auth = createBasicAuth(new Map([['alice', hash]]), {
      run: (task) => {
        comparisons++;
        return inner.run(task);
      },
    });
    expect(await auth.check(basic('alice', 'right'))).toBe('ok');
    expect(await auth.check(basic('alice', 'wrong'))).toBe('denied');
    expect(await auth.check(undefined)).toBe('denied');

    // An unknown user and a wrong password each cost one bcrypt comparison, as a right password does: the
    // answer's timing cannot tell which users exist. Counted, not timed: timings are noise on a shared machine.
    const counted = comparisons;
    expect(await auth.check(basic('mallory', 'right'))).toBe('denied');
    expect(comparisons).toBe(counted + 1);
    expect(await auth.check(basic('alice', 'wrong2'))).toBe('denied');
    expect(comparisons).toBe(counted + 2);
    // A cached success costs no bcrypt; the cache is keyed on the password, so it cannot help a guess.
    const before = comparisons;
    expect(await auth.check(basic('alice', 'right'))).toBe('ok');
    expect(comparisons).toBe(before);
    expect(await auth.check(basic('alice', 'right '))).toBe('denied');
    expect(await auth.check(basic('mallory', 'right'))).toBe('denied');
    expect(comparisons).toBe(before + 2);
  });

  it('refuses work beyond the queue instead of queueing a flood of guesses', async () => {
    const serializer = createSerializer(2);
    const auth = createBasicAuth(new Map([['a', bcrypt.hashSync('x', 4)]]), serializer);
    const verdicts = await Promise.all([1, 2, 3].map(() => auth.check(basic('a', 'y'))));
    expect(verdicts).toEqual(['denied', 'denied', 'busy']);
  });
});
