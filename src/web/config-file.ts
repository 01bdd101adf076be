// The exporter-toolkit web configuration file (the YAML Prometheus and the Go exporters read with
// --web.config.file), parsed into typed settings. Like the toolkit, unknown keys are errors: a misspelt
// `basic_auth_user` must not silently leave /metrics open.
import { isAbsolute, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { parseDurationMs } from '../boundaries/units.js';

export const CLIENT_AUTH_TYPES = [
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

/**
 * The toolkit lets only these headers be set, some only to fixed values, so that a web config cannot be used
 * to smuggle arbitrary headers (or break the exposition format's Content-Type).
 */
export const ALLOWED_HEADERS: Readonly<Record<string, readonly string[] | undefined>> = {
  'Strict-Transport-Security': undefined,
  'X-Content-Type-Options': ['nosniff'],
  'X-Frame-Options': ['deny', 'sameorigin'],
  'X-XSS-Protection': undefined,
  'Content-Security-Policy': undefined,
};

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

export interface WebConfig {
  /** undefined: plain HTTP. */
  readonly tls: TlsSettings | undefined;
  /** user name → bcrypt hash; empty: no basic auth. */
  readonly users: ReadonlyMap<string, string>;
  /** Extra response headers (blank values dropped, as the toolkit does). */
  readonly headers: ReadonlyMap<string, string>;
  /** Requests allowed: one per intervalMs, up to burst at once; undefined: no limit. */
  readonly rateLimit: { readonly intervalMs: number; readonly burst: number } | undefined;
}

export type WebConfigResult =
  | { readonly ok: true; readonly config: WebConfig }
  | { readonly ok: false; readonly message: string };

const text = z.string({ error: 'must be a string' });
// bcrypt in modular crypt format: $2a$, $2b$ or $2y$ (htpasswd), two-digit cost, 53 characters of salt+hash.
const BCRYPT = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;

const tlsSchema = z
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

const fileSchema = z
  .strictObject({
    tls_server_config: tlsSchema,
    http_server_config: z
      .strictObject({
        // HTTP/2 is accepted for compatibility with existing files; we always serve HTTP/1.1.
        http2: z.boolean({ error: 'must be true or false' }).optional(),
        headers: z.record(z.string(), z.string({ error: 'must be a string' }).nullable()).nullish(),
      })
      .nullish(),
    basic_auth_users: z
      .record(z.string(), z.string({ error: 'must be a bcrypt hash string' }).nullable())
      .nullish(),
    rate_limit: z
      .strictObject({
        // A duration such as 100ms or 1s; 0 turns the limiter off, as in the toolkit.
        interval: z
          .union([text, z.literal(0)], { error: 'must be a duration such as 100ms or 1s' })
          .optional(),
        burst: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0).optional(),
      })
      .nullish(),
  })
  .nullish();

type RawFile = z.infer<typeof fileSchema>;
type RawTls = NonNullable<z.infer<typeof tlsSchema>>;

/** Parses the YAML text; relative paths are resolved against `dir` (the config file's directory). */
export function parseWebConfig(yamlText: string, dir: string): WebConfigResult {
  const doc = parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError) return { ok: false, message: `not valid YAML: ${yamlError.message.split('\n')[0]}` };
  const raw = fileSchema.safeParse(doc.toJS({ maxAliasCount: 50 }));
  if (!raw.success) return { ok: false, message: describeIssue(raw.error.issues[0]) };
  return assemble(raw.data, dir);
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'invalid file';
  const at = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (at ? `${at}.${k}` : k));
    return `unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.path.length === 0) return 'the file must be a YAML mapping';
  if (issue.code === 'invalid_type' && issue.expected === 'object') return `${at}: must be a mapping`;
  return at ? `${at}: ${issue.message}` : issue.message;
}

function assemble(raw: RawFile, dir: string): WebConfigResult {
  const users = new Map<string, string>();
  for (const [user, hash] of Object.entries(raw?.basic_auth_users ?? {})) {
    // A colon cannot be sent in a basic-auth user name: the first colon ends it.
    if (user === '' || user.includes(':')) {
      return {
        ok: false,
        message: `basic_auth_users: user name ${JSON.stringify(user)} is empty or has a colon`,
      };
    }
    if (hash === null || !BCRYPT.test(hash.trim())) {
      return {
        ok: false,
        message: `basic_auth_users.${user}: not a bcrypt hash (make one with: htpasswd -nBC 10 "" | tr -d ':\\n')`,
      };
    }
    users.set(user, hash.trim());
  }

  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(raw?.http_server_config?.headers ?? {})) {
    if (!(name in ALLOWED_HEADERS)) {
      return {
        ok: false,
        message: `http_server_config.headers: header "${name}" cannot be configured; allowed: ${Object.keys(ALLOWED_HEADERS).join(', ')}`,
      };
    }
    if (value === null || value === '') continue;
    const allowed = ALLOWED_HEADERS[name];
    if (allowed && !allowed.includes(value)) {
      return {
        ok: false,
        message: `http_server_config.headers.${name}: must be one of ${allowed.join(', ')}`,
      };
    }
    // CR, LF or other controls would split the response.
    if (!/^[\t\x20-\x7e]*$/.test(value)) {
      return {
        ok: false,
        message: `http_server_config.headers.${name}: value has control or non-ASCII characters`,
      };
    }
    headers.set(name, value);
  }

  let rateLimit: WebConfig['rateLimit'];
  const limit = raw?.rate_limit;
  const intervalMs = limit?.interval === undefined ? 0 : parseDurationMs(String(limit.interval).trim());
  if (intervalMs === undefined)
    return { ok: false, message: 'rate_limit.interval: must be a duration such as 100ms or 1s' };
  if (intervalMs > 0) {
    const burst = limit?.burst ?? 0;
    // Go's limiter with a burst of 0 refuses every request: surely not what was meant.
    if (burst < 1)
      return { ok: false, message: 'rate_limit.burst: must be at least 1 when rate_limit.interval is set' };
    rateLimit = { intervalMs, burst };
  }

  const tls = raw?.tls_server_config
    ? assembleTls(raw.tls_server_config, dir)
    : { ok: true as const, tls: undefined };
  if (!tls.ok) return tls;
  return { ok: true, config: { tls: tls.tls, users, headers, rateLimit } };
}

function assembleTls(
  t: RawTls,
  dir: string,
): { ok: true; tls: TlsSettings | undefined } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message: `tls_server_config: ${message}` });
  const enabled = [
    t.cert,
    t.key,
    t.cert_file,
    t.key_file,
    t.client_ca,
    t.client_ca_file,
    t.client_auth_type,
  ].some((v) => v !== undefined && v !== '');
  if (!enabled) return { ok: true, tls: undefined };

  const cert = pemSource(t.cert, t.cert_file, 'cert', dir);
  if (cert === undefined) return fail('missing cert or cert_file');
  if (typeof cert === 'string') return fail(cert);
  const key = pemSource(t.key, t.key_file, 'key', dir);
  if (key === undefined) return fail('missing key or key_file');
  if (typeof key === 'string') return fail(key);
  const clientCa = pemSource(t.client_ca, t.client_ca_file, 'client_ca', dir);
  if (typeof clientCa === 'string') return fail(clientCa);

  // "RequireClientCert" is the toolkit's old spelling, kept there for compatibility.
  const authText = t.client_auth_type ?? '';
  const clientAuth: ClientAuthType =
    authText === '' ? 'NoClientCert' : authText === 'RequireClientCert' ? 'RequireAnyClientCert' : authText;
  if (clientCa && clientAuth === 'NoClientCert') {
    return fail('client_ca_file is set but client_auth_type is NoClientCert; set client_auth_type too');
  }
  if (
    !clientCa &&
    (clientAuth === 'VerifyClientCertIfGiven' || clientAuth === 'RequireAndVerifyClientCert')
  ) {
    return fail(`client_auth_type ${clientAuth} needs client_ca_file to verify client certificates against`);
  }

  const allowedSans = t.client_allowed_sans ?? undefined;
  if (allowedSans && clientAuth !== 'RequireAnyClientCert' && clientAuth !== 'RequireAndVerifyClientCert') {
    // Other policies let a client in without a certificate, leaving no SAN to check.
    return fail(
      'client_allowed_sans needs client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert',
    );
  }

  const minVersion = tlsVersion(t.min_version, 'TLSv1.2');
  if (minVersion === undefined)
    return fail(`min_version: unknown TLS version "${t.min_version}"; ${VERSION_HELP}`);
  const maxVersion = tlsVersion(t.max_version, 'TLSv1.3');
  if (maxVersion === undefined)
    return fail(`max_version: unknown TLS version "${t.max_version}"; ${VERSION_HELP}`);
  if (VERSION_ORDER.indexOf(minVersion) > VERSION_ORDER.indexOf(maxVersion)) {
    return fail('min_version is above max_version');
  }

  let curves: string[] | undefined;
  if (t.curve_preferences && t.curve_preferences.length > 0) {
    curves = [];
    for (const name of t.curve_preferences) {
      const curve = CURVES[name];
      if (!curve)
        return fail(`curve_preferences: unknown curve "${name}"; one of ${Object.keys(CURVES).join(', ')}`);
      curves.push(curve);
    }
  }

  let cipherSuites: string[] | undefined;
  if (t.cipher_suites && t.cipher_suites.length > 0) {
    cipherSuites = [];
    for (const name of t.cipher_suites) {
      const openssl = TLS12_CIPHERS[name];
      if (openssl) cipherSuites.push(openssl);
      else if (!TLS13_CIPHERS.includes(name)) {
        return fail(
          `cipher_suites: unknown or insecure cipher suite "${name}"; one of ${Object.keys(TLS12_CIPHERS).join(', ')}`,
        );
      }
    }
    if (cipherSuites.length === 0 && VERSION_ORDER.indexOf(minVersion) < VERSION_ORDER.indexOf('TLSv1.3')) {
      return fail(
        'cipher_suites lists only TLS 1.3 suites, which cannot be chosen; list TLS 1.2 suites or set min_version: TLS13',
      );
    }
  }

  return {
    ok: true,
    tls: {
      cert,
      key,
      clientCa,
      clientAuth,
      minVersion,
      maxVersion,
      curves,
      honorCipherOrder: t.prefer_server_cipher_suites ?? true,
      cipherSuites,
      allowedSans,
    },
  };
}

const VERSION_HELP = `one of ${Object.keys(TLS_VERSIONS).join(', ')}`;

function tlsVersion(value: string | undefined, fallback: TlsVersion): TlsVersion | undefined {
  if (value === undefined || value === '') return fallback;
  return TLS_VERSIONS[value];
}

/** A PEM source, undefined when neither form is given, or a message when both are. */
function pemSource(
  inline: string | undefined,
  file: string | undefined,
  name: string,
  dir: string,
): PemSource | string | undefined {
  const hasInline = inline !== undefined && inline !== '';
  const hasFile = file !== undefined && file !== '';
  if (hasInline && hasFile) return `set only one of ${name} and ${name}_file`;
  if (hasFile) return { file: isAbsolute(file) ? file : resolve(dir, file) };
  if (hasInline) return { inline };
  return undefined;
}
