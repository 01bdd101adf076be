// The settings of `cityair-exporter backfill`: its own (range, destination, labels, retries, remote write) in one
// table written like the exporter's, plus the exporter's upstream and readings settings, taken from that table
// as they are, so a flag means the same thing, with the same default and check, in both commands.
import { z } from 'zod';
import { ConfigError, type ListSettingSpec, readList } from '../config/command-line.js';
import { integerBetween } from '../config/setting-values.js';
import {
  durationSetting,
  HOUR,
  LOG_SETTINGS,
  SECOND,
  setting,
  UPSTREAM_SETTINGS,
} from '../config/settings.js';
import { READINGS_SETTINGS } from '../readings/settings.js';
import { BACKFILL_FAMILIES } from './samples.js';
import { timeSpec } from './time-spec.js';

export type { ListSettingSpec } from '../config/command-line.js';

const path = z.string().min(1, 'must not be empty');

// Label names of the exporter's own series: a --label with one of them would silently replace it.
const RESERVED_LABELS = new Set(BACKFILL_FAMILIES.flatMap((f) => f.labels));

export const labelPair = z.string().transform((text, ctx): readonly [string, string] => {
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  if (eq < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || name.startsWith('__')) {
    ctx.addIssue({
      code: 'custom',
      message: `${JSON.stringify(text.slice(0, 80))} is not name=value with a Prometheus label name (letters, digits, _; not starting with __)`,
    });
    return z.NEVER;
  }
  if (RESERVED_LABELS.has(name)) {
    ctx.addIssue({ code: 'custom', message: `the label ${name} is set by the exporter itself` });
    return z.NEVER;
  }
  // Prometheus treats an empty value as no label at all: the series would silently lack it.
  if (eq === text.length - 1) {
    ctx.addIssue({
      code: 'custom',
      message: `${name}= has an empty value, which Prometheus reads as no label`,
    });
    return z.NEVER;
  }
  return [name, text.slice(eq + 1)];
});

// Headers the protocol itself sets: replacing them would break every request.
const PROTOCOL_HEADERS = new Set([
  'content-type',
  'content-encoding',
  'content-length',
  'host',
  'x-prometheus-remote-write-version',
]);

export const headerPair = z.string().transform((text, ctx): readonly [string, string] => {
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\u0000-\u001f\u007f]/.test(value)) {
    ctx.addIssue({ code: 'custom', message: 'is not "Name: value" with a valid header name and value' });
    return z.NEVER;
  }
  if (PROTOCOL_HEADERS.has(name.toLowerCase())) {
    ctx.addIssue({ code: 'custom', message: `${name} is set by the remote-write protocol itself` });
    return z.NEVER;
  }
  return [name, value];
});

/** An absolute http(s) URL of a service; credentials go in the flags named by `credentialFlags`, not the URL. */
export const serviceUrl = (example: string, credentialFlags: string) =>
  z.string().transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: `is not an absolute URL such as ${example}` });
      return z.NEVER;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: 'must use http or https' });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: `must not carry credentials: use ${credentialFlags}` });
      return z.NEVER;
    }
    return url.href;
  });

const remoteUrl = serviceUrl(
  'http://prometheus:9090/api/v1/write',
  '--remote-write.username and --remote-write.password-file',
);

/** The backfill's own settings: order is the order of `backfill --help`. */
export const BACKFILL_SETTINGS = {
  from: setting({
    flag: 'from',
    env: 'CITYAIR_BACKFILL_FROM',
    default: undefined,
    help: 'Start of the range (required): an RFC 3339 time (2026-10-01T00:00:00Z, any offset) or a duration before now (30d, 36h).',
    schema: timeSpec,
  }),
  to: setting({
    flag: 'to',
    env: 'CITYAIR_BACKFILL_TO',
    default: undefined,
    help: 'End of the range, excluded; same forms as --from. Unset: now.',
    schema: timeSpec,
  }),
  output: setting({
    flag: 'output',
    env: 'CITYAIR_BACKFILL_OUTPUT',
    default: undefined,
    help: 'Write OpenMetrics (timestamps in seconds, # EOF) to this file, or - for standard output: the input of promtool tsdb create-blocks-from openmetrics.',
    schema: path,
  }),
  retries: setting({
    flag: 'retries',
    env: 'CITYAIR_BACKFILL_RETRIES',
    default: '5',
    help: 'Retries of a failed request (timeout, network, 5xx, 429, not JSON), 0 to 20, with backoff up to --upstream.max-backoff.',
    schema: integerBetween(0, 20),
  }),
  remoteWriteUrl: setting({
    flag: 'remote-write.url',
    env: 'CITYAIR_REMOTE_WRITE_URL',
    default: undefined,
    help: 'Send the samples with Prometheus remote write 1.0 to this URL instead of writing a file.',
    schema: remoteUrl,
  }),
  remoteWriteUsername: setting({
    flag: 'remote-write.username',
    env: 'CITYAIR_REMOTE_WRITE_USERNAME',
    default: undefined,
    help: 'Basic auth user name for remote write (with --remote-write.password-file).',
    schema: z.string().min(1, 'must not be empty'),
  }),
  remoteWritePasswordFile: setting({
    flag: 'remote-write.password-file',
    env: 'CITYAIR_REMOTE_WRITE_PASSWORD_FILE',
    default: undefined,
    help: 'File holding the basic auth password for remote write.',
    schema: path,
  }),
  remoteWriteBearerTokenFile: setting({
    flag: 'remote-write.bearer-token-file',
    env: 'CITYAIR_REMOTE_WRITE_BEARER_TOKEN_FILE',
    default: undefined,
    help: 'File holding a bearer token for remote write.',
    schema: path,
  }),
  remoteWriteCaFile: setting({
    flag: 'remote-write.ca-file',
    env: 'CITYAIR_REMOTE_WRITE_CA_FILE',
    default: undefined,
    help: 'PEM file of extra CA certificates to trust for the remote-write URL.',
    schema: path,
  }),
  remoteWriteTimeout: durationSetting({
    flag: 'remote-write.timeout',
    env: 'CITYAIR_REMOTE_WRITE_TIMEOUT',
    default: '30s',
    help: 'Deadline of one remote-write request.',
    range: [SECOND, HOUR],
  }),
  remoteWriteBatch: setting({
    flag: 'remote-write.max-samples-per-send',
    env: 'CITYAIR_REMOTE_WRITE_MAX_SAMPLES_PER_SEND',
    default: '10000',
    help: 'Samples per remote-write request at most (100 to 100000).',
    schema: integerBetween(100, 100_000),
  }),
} as const;

/** The --label pairs of a command (the backfill's, the report's), each checked, no name given twice. */
export function readLabels(
  spec: ListSettingSpec<readonly [string, string]>,
  texts: readonly string[],
): (readonly [string, string])[] {
  const labels = readList(spec, texts);
  const names = labels.map(([name]) => name);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated) throw new ConfigError(`invalid --${spec.flag}: ${repeated} is given twice`);
  return labels;
}

/** Flags that may repeat. */
export const BACKFILL_LISTS = {
  labels: {
    flag: 'label',
    help: 'name=value added to every series (repeatable), e.g. --label job=cityair --label instance=exporter:9610.',
    item: labelPair,
  } satisfies ListSettingSpec<readonly [string, string]>,
  headers: {
    flag: 'remote-write.header',
    help: '"Name: value" header sent with every remote-write request (repeatable), e.g. X-Scope-OrgID: air.',
    item: headerPair,
  } satisfies ListSettingSpec<readonly [string, string]>,
} as const;

/**
 * The exporter's settings that the backfill uses, exactly as the exporter defines them and under the same keys,
 * so that config.ts assembles them with the exporter's own functions.
 */
export const SHARED_SETTINGS = {
  url: UPSTREAM_SETTINGS.url,
  apiKeyFile: UPSTREAM_SETTINGS.apiKeyFile,
  apiKey: UPSTREAM_SETTINGS.apiKey,
  timeout: UPSTREAM_SETTINGS.timeout,
  maxBackoff: UPSTREAM_SETTINGS.maxBackoff,
  maxBodySize: UPSTREAM_SETTINGS.maxBodySize,
  maxStations: UPSTREAM_SETTINGS.maxStations,
  caFile: UPSTREAM_SETTINGS.caFile,
  insecureSkipVerify: UPSTREAM_SETTINGS.insecureSkipVerify,
  demo: UPSTREAM_SETTINGS.demo,
  readingsInterval: READINGS_SETTINGS.readingsInterval,
  readingsStations: READINGS_SETTINGS.readingsStations,
  readingsConcurrency: READINGS_SETTINGS.readingsConcurrency,
  readingsMaxBodySize: READINGS_SETTINGS.readingsMaxBodySize,
  logLevel: LOG_SETTINGS.logLevel,
  logFormat: LOG_SETTINGS.logFormat,
} as const;
