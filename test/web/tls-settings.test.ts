import { describe, expect, it } from 'vitest';
import { WebConfigError } from '../../src/web/error.js';
import { tlsSchema, tlsSettings } from '../../src/web/tls-settings.js';

type Raw = Parameters<typeof tlsSettings>[0];
const BASE: Raw = { cert_file: 'server.crt', key_file: '/keys/server.key' };

/** The problem as the reload log shows it. */
function problem(raw: Raw): string {
  try {
    tlsSettings(raw, '/etc/cityair');
  } catch (error) {
    if (error instanceof WebConfigError) return error.detail;
    throw error;
  }
  return 'no problem';
}

describe('tlsSettings', () => {
  it('turns nothing on for an empty section', () => {
    expect(tlsSettings({}, '/etc')).toBeUndefined();
    expect(tlsSettings({ cert: '', min_version: 'TLS13' }, '/etc')).toBeUndefined();
  });

  it('resolves files against the config file’s directory, with Go’s defaults', () => {
    expect(tlsSettings(BASE, '/etc/cityair')).toEqual({
      cert: { file: '/etc/cityair/server.crt' },
      key: { file: '/keys/server.key' },
      clientCa: undefined,
      clientAuth: 'NoClientCert',
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.3',
      curves: undefined,
      honorCipherOrder: true,
      cipherSuites: undefined,
      allowedSans: undefined,
    });
  });

  it('maps Go’s names of versions, curves and cipher suites to OpenSSL’s', () => {
    const s = tlsSettings(
      {
        ...BASE,
        min_version: 'TLS11',
        max_version: 'TLS12',
        curve_preferences: ['X25519', 'CurveP384'],
        cipher_suites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256'],
        prefer_server_cipher_suites: false,
      },
      '/',
    );
    expect(s).toMatchObject({
      minVersion: 'TLSv1.1',
      maxVersion: 'TLSv1.2',
      curves: ['X25519', 'secp384r1'],
      cipherSuites: ['ECDHE-RSA-AES128-GCM-SHA256'],
      honorCipherOrder: false,
    });
  });

  it('reads the toolkit’s old RequireClientCert as RequireAnyClientCert', () => {
    expect(tlsSettings({ ...BASE, client_auth_type: 'RequireClientCert' }, '/')?.clientAuth).toBe(
      'RequireAnyClientCert',
    );
  });

  it.each([
    [{ key_file: 'k' }, 'tls_server_config: missing cert or cert_file'],
    [{ cert: 'x', cert_file: 'c', key: 'k' }, 'tls_server_config: set only one of cert and cert_file'],
    [
      { ...BASE, client_ca_file: 'ca' },
      'tls_server_config: client_ca_file is set but client_auth_type is NoClientCert; set client_auth_type too',
    ],
    [
      { ...BASE, client_auth_type: 'RequireAndVerifyClientCert' },
      'tls_server_config: client_auth_type RequireAndVerifyClientCert needs client_ca_file to verify client certificates against',
    ],
    [
      { ...BASE, client_allowed_sans: ['a'], client_auth_type: 'RequestClientCert' },
      'tls_server_config: client_allowed_sans needs client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert',
    ],
    [
      { ...BASE, min_version: 'TLS14' },
      'tls_server_config.min_version: unknown TLS version "TLS14"; one of TLS10, TLS11, TLS12, TLS13',
    ],
    [
      { ...BASE, min_version: 'TLS13', max_version: 'TLS12' },
      'tls_server_config: min_version is above max_version',
    ],
    [
      { ...BASE, curve_preferences: ['P256'] },
      'tls_server_config.curve_preferences: unknown curve "P256"; one of CurveP256, CurveP384, CurveP521, X25519',
    ],
    [
      { ...BASE, cipher_suites: ['TLS_RSA_WITH_RC4_128_SHA'] },
      /^tls_server_config\.cipher_suites: unknown or insecure cipher suite "TLS_RSA_WITH_RC4_128_SHA"/,
    ],
    [
      { ...BASE, cipher_suites: ['TLS_AES_128_GCM_SHA256'] },
      /^tls_server_config: cipher_suites lists only TLS 1\.3 suites/,
    ],
  ] as [Raw, string | RegExp][])('refuses %j', (raw, expected) => {
    expect(problem(raw)).toMatch(expected);
  });

  it('takes only TLS 1.3 suites when TLS 1.3 is the least version', () => {
    expect(
      tlsSettings({ ...BASE, min_version: 'TLS13', cipher_suites: ['TLS_AES_128_GCM_SHA256'] }, '/')
        ?.cipherSuites,
    ).toEqual([]);
  });
});

describe('tlsSchema', () => {
  it('refuses keys the toolkit does not have, and an unknown client_auth_type by name', () => {
    expect(tlsSchema.safeParse({ cert_fil: 'x' }).success).toBe(false);
    const r = tlsSchema.safeParse({ client_auth_type: 'Always' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/^unknown client_auth_type "Always"; one of NoClientCert/);
  });
});
