// The exporter-toolkit web configuration file (the YAML Prometheus and the Go exporters read with
// --web.config.file), parsed into typed settings. Like the toolkit, unknown keys are errors: a misspelt
// `basic_auth_user` must not silently leave /metrics open.
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { parseDurationMs } from '../config/units.js';
import { WebConfigError } from './error.js';
import { type TlsSettings, tlsSchema, tlsSettings } from './tls-settings.js';

/**
 * The toolkit lets only these headers be set, some only to fixed values, so that a web config cannot be used
 * to smuggle arbitrary headers (or break the exposition format's Content-Type).
 */
const ALLOWED_HEADERS: Readonly<Record<string, readonly string[] | undefined>> = {
  'Strict-Transport-Security': undefined,
  'X-Content-Type-Options': ['nosniff'],
  'X-Frame-Options': ['deny', 'sameorigin'],
  'X-XSS-Protection': undefined,
  'Content-Security-Policy': undefined,
};

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

const text = z.string({ error: 'must be a string' });
// bcrypt in modular crypt format: $2a$, $2b$ or $2y$ (htpasswd), two-digit cost, 53 characters of salt+hash.
const BCRYPT = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;

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

type Raw = NonNullable<z.infer<typeof fileSchema>>;

/**
 * Parses the YAML text; relative paths are resolved against `dir` (the config file's directory).
 * Throws WebConfigError naming the key at fault (the loader adds the file).
 */
export function parseWebConfig(yamlText: string, dir: string): WebConfig {
  const doc = parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError) throw new WebConfigError(`not valid YAML: ${yamlError.message.split('\n')[0]}`);
  const raw = fileSchema.safeParse(doc.toJS({ maxAliasCount: 50 }));
  if (!raw.success) throw schemaError(raw.error.issues[0]);
  const sections = raw.data;
  // Checked in this order, so that of several problems the same one is reported every time.
  const config = {
    users: users(sections?.basic_auth_users),
    headers: headers(sections?.http_server_config?.headers),
    rateLimit: rateLimit(sections?.rate_limit),
  };
  const tls = sections?.tls_server_config ? tlsSettings(sections.tls_server_config, dir) : undefined;
  return { ...config, tls };
}

function schemaError(issue: z.core.$ZodIssue | undefined): WebConfigError {
  if (!issue) return new WebConfigError('invalid file');
  const key = issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  if (issue.code === 'unrecognized_keys') {
    // The key is not one the file may have: named in full in the problem, not as its place.
    const keys = issue.keys.map((k) => (key ? `${key}.${k}` : k));
    return new WebConfigError(
      `unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`,
    );
  }
  if (issue.code === 'invalid_type' && key === undefined) {
    return new WebConfigError('the file must be a YAML mapping');
  }
  if (issue.code === 'invalid_type' && issue.expected === 'object') {
    return new WebConfigError('must be a mapping', { key });
  }
  return new WebConfigError(issue.message, { key });
}

function users(raw: Raw['basic_auth_users']): Map<string, string> {
  const result = new Map<string, string>();
  for (const [user, hash] of Object.entries(raw ?? {})) {
    // A colon cannot be sent in a basic-auth user name: the first colon ends it.
    if (user === '' || user.includes(':')) {
      throw new WebConfigError(`user name ${JSON.stringify(user)} is empty or has a colon`, {
        key: 'basic_auth_users',
      });
    }
    if (hash === null || !BCRYPT.test(hash.trim())) {
      throw new WebConfigError(`not a bcrypt hash (make one with: htpasswd -nBC 10 "" | tr -d ':\\n')`, {
        key: `basic_auth_users.${user}`,
      });
    }
    result.set(user, hash.trim());
  }
  return result;
}

function headers(raw: NonNullable<Raw['http_server_config']>['headers']): Map<string, string> {
  const result = new Map<string, string>();
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (!(name in ALLOWED_HEADERS)) {
      throw new WebConfigError(
        `header "${name}" cannot be configured; allowed: ${Object.keys(ALLOWED_HEADERS).join(', ')}`,
        { key: 'http_server_config.headers' },
      );
    }
    if (value === null || value === '') continue;
    const key = `http_server_config.headers.${name}`;
    const allowed = ALLOWED_HEADERS[name];
    if (allowed && !allowed.includes(value)) {
      throw new WebConfigError(`must be one of ${allowed.join(', ')}`, { key });
    }
    // CR, LF or other controls would split the response.
    if (!/^[\t\x20-\x7e]*$/.test(value)) {
      throw new WebConfigError('value has control or non-ASCII characters', { key });
    }
    result.set(name, value);
  }
  return result;
}

function rateLimit(raw: Raw['rate_limit']): WebConfig['rateLimit'] {
  const intervalMs = raw?.interval === undefined ? 0 : parseDurationMs(String(raw.interval).trim());
  if (intervalMs === undefined) {
    throw new WebConfigError('must be a duration such as 100ms or 1s', { key: 'rate_limit.interval' });
  }
  if (intervalMs <= 0) return undefined;
  const burst = raw?.burst ?? 0;
  // Go's limiter with a burst of 0 refuses every request: surely not what was meant.
  if (burst < 1) {
    throw new WebConfigError('must be at least 1 when rate_limit.interval is set', {
      key: 'rate_limit.burst',
    });
  }
  return { intervalMs, burst };
}
