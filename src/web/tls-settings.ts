// The tls_server_config section of the web configuration file: Go's names (versions, curves, cipher suites,
// client-auth policies) checked and mapped to what node:tls understands.
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { WebConfigError } from './error.js';

const CLIENT_AUTH_TYPES = [
  'NoClientCert',
  'RequestClientCert',
  'RequireAnyClientCert',
  'VerifyClientCertIfGiven',
  'RequireAndVerifyClientCert',
] as const;
export type ClientAuthType = (typeof CLIENT_AUTH_TYPES)[number];

export type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
const TLS_VERSIONS: Readonly<Record<string, TlsVersion>> = {
  TLS10: 'TLSv1',
  TLS11: 'TLSv1.1',
  TLS12: 'TLSv1.2',
  TLS13: 'TLSv1.3',
};
const VERSION_ORDER: readonly TlsVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];
const VERSION_HELP = `one of ${Object.keys(TLS_VERSIONS).join(', ')}`;

// Go's curve names mapped to OpenSSL's.
const CURVES: Readonly<Record<string, string>> = {
  CurveP256: 'prime256v1',
  CurveP384: 'secp384r1',
  CurveP521: 'secp521r1',
  X25519: 'X25519',
};

// Go's names of the cipher suites it accepts (tls.CipherSuites()), mapped to OpenSSL's for TLS 1.2 and below.
// The TLS 1.3 names are accepted and, as in Go, have no effect: TLS 1.3 suites are not configurable there.
const TLS12_CIPHERS: Readonly<Record<string, string>> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
};
export const TLS13_CIPHERS: readonly string[] = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
];

/** PEM text given inline in the YAML, or a file (already resolved against the config file's directory). */
export type PemSource = { readonly file: string } | { readonly inline: string };

export interface TlsSettings {
  readonly cert: PemSource;
  readonly key: PemSource;
  readonly clientCa: PemSource | undefined;
  readonly clientAuth: ClientAuthType;
  readonly minVersion: TlsVersion;
  readonly maxVersion: TlsVersion;
  /** OpenSSL curve names, in preference order; undefined keeps Node's default. */
  readonly curves: readonly string[] | undefined;
  readonly honorCipherOrder: boolean;
  /** OpenSSL names of the TLS 1.2 suites allowed, in order; undefined keeps Node's default. */
  readonly cipherSuites: readonly string[] | undefined;
  /** Client certificates must carry one of these SAN values (DNS, IP, e-mail or URI); undefined: any. */
  readonly allowedSans: readonly string[] | undefined;
}

const text = z.string({ error: 'must be a string' });

export const tlsSchema = z
  .strictObject({
    cert: text.optional(),
    key: text.optional(),
    client_ca: text.optional(),
    cert_file: text.optional(),
    key_file: text.optional(),
    client_auth_type: z
      .enum([...CLIENT_AUTH_TYPES, 'RequireClientCert', ''], {
        error: (issue) =>
          `unknown client_auth_type ${JSON.stringify(issue.input)}; one of ${CLIENT_AUTH_TYPES.join(', ')}`,
      })
      .optional(),
    client_ca_file: text.optional(),
    min_version: text.optional(),
    max_version: text.optional(),
    curve_preferences: z.array(text).nullish(),
    prefer_server_cipher_suites: z.boolean({ error: 'must be true or false' }).optional(),
    cipher_suites: z.array(text).nullish(),
    client_allowed_sans: z.array(text).nullish(),
  })
  .nullish();

type RawTls = NonNullable<z.infer<typeof tlsSchema>>;

const SECTION = 'tls_server_config';
const wrong = (problem: string, key?: string): WebConfigError =>
  new WebConfigError(problem, { key: key === undefined ? SECTION : `${SECTION}.${key}` });

/** undefined when the section turns nothing on (plain HTTP); throws WebConfigError. */
export function tlsSettings(t: RawTls, dir: string): TlsSettings | undefined {
  const given = [t.cert, t.key, t.cert_file, t.key_file, t.client_ca, t.client_ca_file, t.client_auth_type];
  if (!given.some((v) => v !== undefined && v !== '')) return undefined;

  const cert = pemSource(t.cert, t.cert_file, 'cert', dir);
  if (cert === undefined) throw wrong('missing cert or cert_file');
  const key = pemSource(t.key, t.key_file, 'key', dir);
  if (key === undefined) throw wrong('missing key or key_file');
  const clientCa = pemSource(t.client_ca, t.client_ca_file, 'client_ca', dir);

  // "RequireClientCert" is the toolkit's old spelling, kept there for compatibility.
  const authText = t.client_auth_type ?? '';
  const clientAuth: ClientAuthType =
    authText === '' ? 'NoClientCert' : authText === 'RequireClientCert' ? 'RequireAnyClientCert' : authText;
  if (clientCa && clientAuth === 'NoClientCert') {
    throw wrong('client_ca_file is set but client_auth_type is NoClientCert; set client_auth_type too');
  }
  if (
    !clientCa &&
    (clientAuth === 'VerifyClientCertIfGiven' || clientAuth === 'RequireAndVerifyClientCert')
  ) {
    throw wrong(`client_auth_type ${clientAuth} needs client_ca_file to verify client certificates against`);
  }

  const allowedSans = t.client_allowed_sans ?? undefined;
  if (allowedSans && clientAuth !== 'RequireAnyClientCert' && clientAuth !== 'RequireAndVerifyClientCert') {
    // Other policies let a client in without a certificate, leaving no SAN to check.
    throw wrong(
      'client_allowed_sans needs client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert',
    );
  }

  const minVersion = tlsVersion(t.min_version, 'TLSv1.2', 'min_version');
  const maxVersion = tlsVersion(t.max_version, 'TLSv1.3', 'max_version');
  if (VERSION_ORDER.indexOf(minVersion) > VERSION_ORDER.indexOf(maxVersion)) {
    throw wrong('min_version is above max_version');
  }

  return {
    cert,
    key,
    clientCa,
    clientAuth,
    minVersion,
    maxVersion,
    curves: curves(t.curve_preferences),
    honorCipherOrder: t.prefer_server_cipher_suites ?? true,
    cipherSuites: cipherSuites(t.cipher_suites, minVersion),
    allowedSans,
  };
}

function tlsVersion(value: string | undefined, fallback: TlsVersion, key: string): TlsVersion {
  if (value === undefined || value === '') return fallback;
  const version = TLS_VERSIONS[value];
  if (version === undefined) throw wrong(`unknown TLS version "${value}"; ${VERSION_HELP}`, key);
  return version;
}

function curves(names: readonly string[] | null | undefined): string[] | undefined {
  if (!names || names.length === 0) return undefined;
  return names.map((name) => {
    const curve = CURVES[name];
    if (!curve) {
      throw wrong(`unknown curve "${name}"; one of ${Object.keys(CURVES).join(', ')}`, 'curve_preferences');
    }
    return curve;
  });
}

function cipherSuites(
  names: readonly string[] | null | undefined,
  minVersion: TlsVersion,
): string[] | undefined {
  if (!names || names.length === 0) return undefined;
  const suites: string[] = [];
  for (const name of names) {
    const openssl = TLS12_CIPHERS[name];
    if (openssl) suites.push(openssl);
    else if (!TLS13_CIPHERS.includes(name)) {
      throw wrong(
        `unknown or insecure cipher suite "${name}"; one of ${Object.keys(TLS12_CIPHERS).join(', ')}`,
        'cipher_suites',
      );
    }
  }
  if (suites.length === 0 && VERSION_ORDER.indexOf(minVersion) < VERSION_ORDER.indexOf('TLSv1.3')) {
    throw wrong(
      'cipher_suites lists only TLS 1.3 suites, which cannot be chosen; list TLS 1.2 suites or set min_version: TLS13',
    );
  }
  return suites;
}

/** A PEM source, or undefined when neither form is given; both at once is an error. */
function pemSource(
  inline: string | undefined,
  file: string | undefined,
  name: string,
  dir: string,
): PemSource | undefined {
  const hasInline = inline !== undefined && inline !== '';
  const hasFile = file !== undefined && file !== '';
  if (hasInline && hasFile) throw wrong(`set only one of ${name} and ${name}_file`);
  if (hasFile) return { file: isAbsolute(file) ? file : resolve(dir, file) };
  if (hasInline) return { inline };
  return undefined;
}
