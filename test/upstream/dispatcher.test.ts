import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Agent, EnvHttpProxyAgent } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config.js';
import { createDispatcher, type UpstreamDispatcher } from '../../src/upstream/dispatcher.js';
import { createTestPki } from '../support/certs.js';

const DIRECT = { caFile: undefined, insecureSkipVerify: false };
const pki = createTestPki();
const opened: UpstreamDispatcher[] = [];

const open = (...args: Parameters<typeof createDispatcher>): UpstreamDispatcher => {
  const d = createDispatcher(...args);
  opened.push(d);
  return d;
};

afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.dispatcher.close()));
});
afterAll(() => pki.cleanup());

/** The error line createDispatcher throws for these settings, or 'no error'. */
function errorOf(caFile: string | undefined, env: NodeJS.ProcessEnv): string {
  try {
    open({ caFile, insecureSkipVerify: false }, env);
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('createDispatcher', () => {
  it('goes direct without proxy variables', () => {
    const d = open(DIRECT, {});
    expect(d.dispatcher).toBeInstanceOf(Agent);
    expect(d.proxy).toBeUndefined();
    expect(d.extraCaCertificates).toBe(0);
  });

  it('goes through the proxy, and names it without its credentials', () => {
    const d = open(DIRECT, {
      HTTPS_PROXY: 'http://user:pa55@proxy.example:3128/ignored',
      NO_PROXY: 'localhost',
    });
    expect(d.dispatcher).toBeInstanceOf(EnvHttpProxyAgent);
    expect(d.proxy).toEqual({ https: 'http://***@proxy.example:3128', noProxy: 'localhost' });
    expect(JSON.stringify(d.proxy)).not.toContain('pa55');
  });

  it('reads a proxy without a scheme as http, and the lowercase variable before the uppercase', () => {
    const d = open(DIRECT, { http_proxy: 'low.example:8080', HTTP_PROXY: 'http://up.example:8080' });
    expect(d.proxy).toEqual({ http: 'http://low.example:8080' });
  });

  it('says so in the log when it takes a proxy or extra CA certificates', () => {
    const lines: string[] = [];
    const log = { info: (_fields: object, message: string) => lines.push(message) } as unknown as Logger;
    open({ caFile: pki.ca.certFile, insecureSkipVerify: false }, { HTTPS_PROXY: 'http://p:1' }, { log });
    expect(lines).toEqual([
      'upstream requests go through a proxy',
      'trusting extra CA certificates from --upstream.ca-file',
    ]);
  });

  it('counts the certificates of a CA file', () => {
    const both = join(pki.dir, 'two.pem');
    writeFileSync(both, `${pki.ca.cert}\n${pki.issue('other', 'server').cert}`);
    expect(open({ caFile: both, insecureSkipVerify: false }, {}).extraCaCertificates).toBe(2);
  });

  it('refuses proxy variables that are no proxy, in one line', () => {
    expect(errorOf(undefined, { HTTPS_PROXY: 'socks5://p:1080' })).toBe(
      'invalid HTTPS_PROXY: the proxy must be http:// or https://, not socks5://',
    );
    expect(errorOf(undefined, { HTTP_PROXY: 'http://[bad' })).toBe(
      'invalid HTTP_PROXY: not a URL such as http://proxy.example:3128',
    );
    expect(errorOf(undefined, { HTTPS_PROXY: 'http://u:%E0%A4%A@p:1' })).toBe(
      'invalid HTTPS_PROXY: the user or password is not valid percent-encoding',
    );
  });

  it('refuses a CA file it cannot read, one without a certificate and one with a broken certificate', () => {
    const flag = '--upstream.ca-file (CITYAIR_CA_FILE)';
    const missing = join(pki.dir, 'missing.pem');
    expect(errorOf(missing, {})).toMatch(`invalid ${flag}: cannot read ${missing}`);
    const empty = join(pki.dir, 'empty.pem');
    writeFileSync(empty, 'no certificate here\n');
    expect(errorOf(empty, {})).toBe(`invalid ${flag}: no PEM certificate in ${empty}`);
    const broken = join(pki.dir, 'broken.pem');
    writeFileSync(broken, `${pki.ca.cert}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`);
    expect(errorOf(broken, {})).toBe(`invalid ${flag}: certificate 2 in ${broken} cannot be parsed`);
  });
});
