// The settings, in-process: argv and environment in, the whole Config (or the exact error line) out. The spawned
// checks of exit codes and --help live in cli.e2e.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Config, ConfigError, helpText, parseCli, SETTINGS } from '../../src/cli.js';
import { demoOf, engineWarnings, INSECURE_WARNING } from '../../src/config/config.js';
import { formatDuration } from '../../src/config/units.js';
import { RECORD_SETTINGS } from '../../src/record/settings.js';
import { TIMER_LIMIT_MS } from '../../src/runtime/timers.js';

type Env = Readonly<Record<string, string>>;
type SettingKey = keyof typeof SETTINGS;
/**
 * The settings this file reads alone: the record's are valid only together (a remote-write URL, the readings on)
 * and have their own tests (test/record/config.test.ts); its lookback is a span of the store, not a timer.
 */
const OWN_KEYS = (Object.keys(SETTINGS) as SettingKey[]).filter(
  (name) => !Object.hasOwn(RECORD_SETTINGS, name),
);

/** Config with the key revealed, so that two configurations compare as plain data. */
// The record is off (no key) without --record.remote-write.url; test/record/config.test.ts reads it on.
type PlainConfig = Omit<Config, 'upstream' | 'record'> & {
  readonly upstream: Omit<Config['upstream'], 'apiKey'> & { readonly apiKey: string | undefined };
};
type Changes = { readonly [K in keyof PlainConfig]?: Partial<PlainConfig[K]> };

const KEY: Env = { CITYAIR_API_KEY: 'config-test-key-0123456789' };

/** What the exporter runs with when only a key is given. */
const DEFAULTS: PlainConfig = {
  upstream: {
    baseUrl: 'https://mycityair.ru',
    apiKey: 'config-test-key-0123456789',
    timeoutMs: 8000,
    minIntervalMs: 30_000,
    refreshIntervalMs: 0,
    maxAgeMs: 600_000,
    maxBackoffMs: 60_000,
    maxBodyBytes: 64 * 1024 * 1024,
    maxStations: 20_000,
    caFile: undefined,
    insecureSkipVerify: false,
  },
  demo: false,
  readings: {
    enabled: false,
    interval: '5m',
    refreshIntervalMs: 300_000,
    maxAgeMs: 1_800_000,
    stations: undefined,
    concurrency: 2,
    maxBodyBytes: 2 * 1024 * 1024,
  },
  web: {
    host: undefined,
    port: 9610,
    telemetryPath: '/metrics',
    configFile: undefined,
    timeoutOffsetMs: 500,
  },
  log: { level: 'info', format: 'json' },
};

function withChanges(changes: Changes): PlainConfig {
  return {
    upstream: { ...DEFAULTS.upstream, ...changes.upstream },
    demo: changes.demo ?? DEFAULTS.demo,
    readings: { ...DEFAULTS.readings, ...changes.readings },
    web: { ...DEFAULTS.web, ...changes.web },
    log: { ...DEFAULTS.log, ...changes.log },
  };
}

function run(argv: readonly string[], env: Env): { config: PlainConfig; warnings: string[] } {
  const action = parseCli(argv, env);
  if (action.kind !== 'run') throw new Error(`expected a run, got ${action.kind}`);
  const { config } = action;
  return {
    config: { ...config, upstream: { ...config.upstream, apiKey: config.upstream.apiKey?.reveal() } },
    warnings: action.warnings,
  };
}

/** The ConfigError's message for these inputs; fails the test when there is none. */
function errorOf(argv: readonly string[], env: Env): string {
  try {
    parseCli(argv, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const flagOf = (name: SettingKey): string => {
  const flag = SETTINGS[name].flag;
  if (flag === undefined) throw new Error(`${name} has no flag`);
  return `--${flag}`;
};
const isBoolean = (name: SettingKey): boolean => 'boolean' in SETTINGS[name];

describe('settings: defaults', () => {
  it('runs with the defaults of the table when only a key is given, without warnings', () => {
    expect(run([], KEY)).toStrictEqual({ config: DEFAULTS, warnings: [] });
  });

  it('answers --help and --version before reading any setting, so a broken one does not hide them', () => {
    const broken = { CITYAIR_TIMEOUT: 'soon' };
    expect(parseCli(['--help'], broken)).toStrictEqual({ kind: 'help' });
    expect(parseCli(['--version', '--upstream.timeout=soon'], {})).toStrictEqual({ kind: 'version' });
  });
});

// One row per setting (the key settings have their own tests below): the text given, and what changes in Config.
// A boolean setting's flag takes no value; its row gives the environment's text.
const GIVEN: ReadonlyArray<readonly [SettingKey, string, Changes]> = [
  ['url', 'http://127.0.0.1:8080/harvester/v2/Posts/', { upstream: { baseUrl: 'http://127.0.0.1:8080' } }],
  ['timeout', '2s', { upstream: { timeoutMs: 2000 } }],
  ['minInterval', '0', { upstream: { minIntervalMs: 0 } }],
  ['refreshInterval', '1m', { upstream: { refreshIntervalMs: 60_000 } }],
  ['maxAge', '1h30m', { upstream: { maxAgeMs: 5_400_000 } }],
  ['maxBackoff', '2m', { upstream: { maxBackoffMs: 120_000 } }],
  ['maxBodySize', '512KiB', { upstream: { maxBodyBytes: 524_288 } }],
  ['maxStations', '150000', { upstream: { maxStations: 150_000 } }],
  ['caFile', '/etc/ssl/corp-ca.pem', { upstream: { caFile: '/etc/ssl/corp-ca.pem' } }],
  ['insecureSkipVerify', 'true', { upstream: { insecureSkipVerify: true } }],
  // The key is not read in demo mode, and the readings collector follows demo.
  ['demo', 'true', { demo: true, upstream: { apiKey: undefined }, readings: { enabled: true } }],
  ['readings', 'true', { readings: { enabled: true } }],
  ['readingsInterval', '1h', { readings: { interval: '1h' } }],
  ['readingsRefreshInterval', '10m', { readings: { refreshIntervalMs: 600_000 } }],
  ['readingsMaxAge', '2h', { readings: { maxAgeMs: 7_200_000 } }],
  ['readingsStations', ' 7, 3 ,7,101 ', { readings: { stations: [7, 3, 101] } }],
  ['readingsConcurrency', '16', { readings: { concurrency: 16 } }],
  ['readingsMaxBodySize', '64KiB', { readings: { maxBodyBytes: 65_536 } }],
  ['listenAddress', '127.0.0.1:9999', { web: { host: '127.0.0.1', port: 9999 } }],
  ['telemetryPath', '/probe/cityair', { web: { telemetryPath: '/probe/cityair' } }],
  ['webConfigFile', 'web.yml', { web: { configFile: 'web.yml' } }],
  ['timeoutOffset', '1s', { web: { timeoutOffsetMs: 1000 } }],
  ['logLevel', 'debug', { log: { level: 'debug' } }],
  ['logFormat', 'logfmt', { log: { format: 'logfmt' } }],
];
const WARNS: Partial<Record<SettingKey, string[]>> = {
  insecureSkipVerify: [
    '--upstream.insecure-skip-verify is on: the TLS certificate of the API is not checked, so anyone in the path can read the API key',
  ],
};

describe('settings: every setting from a flag and from the environment', () => {
  it('has a row for every setting of the table except the key, which has its own tests', () => {
    const covered = new Set<string>([...GIVEN.map(([name]) => name), 'apiKey', 'apiKeyFile']);
    expect([...covered].sort()).toStrictEqual(OWN_KEYS.slice().sort());
  });

  it.each(GIVEN)('%s from its flag', (name, text, changes) => {
    expect(run([`${flagOf(name)}=${text}`], KEY)).toStrictEqual({
      config: withChanges(changes),
      warnings: WARNS[name] ?? [],
    });
  });

  it.each(GIVEN.filter(([name]) => isBoolean(name)))(
    '%s from its flag alone, as true',
    (name, _, changes) => {
      expect(run([flagOf(name)], KEY)).toStrictEqual({
        config: withChanges(changes),
        warnings: WARNS[name] ?? [],
      });
    },
  );

  it.each(GIVEN)('%s from its environment variable', (name, text, changes) => {
    const env = { ...KEY, [SETTINGS[name].env]: text };
    expect(run([], env)).toStrictEqual({ config: withChanges(changes), warnings: WARNS[name] ?? [] });
  });

  it.each([
    [
      ['--upstream.url=https://example.org/api/'],
      {
        upstream: {
          baseUrl: 'https://example.org/api',
        },
      },
    ],
    [['--upstream.url=https://example.org/harvester/v2'], { upstream: { baseUrl: 'https://example.org' } }],
    [['--upstream.max-body-size=2048'], { upstream: { maxBodyBytes: 2048 } }],
    [['--upstream.max-body-size=10MB'], { upstream: { maxBodyBytes: 10_000_000 } }],
    [['--web.listen-address=:9611'], { web: { host: undefined, port: 9611 } }],
    [['--web.listen-address=[::1]:0'], { web: { host: '::1', port: 0 } }],
    [['--web.timeout-offset=0'], { web: { timeoutOffsetMs: 0 } }],
    [['--measurements.interval=5m'], { readings: { interval: '5m' } }],
    [['--measurements.interval=20m'], { readings: { interval: '20m' } }],
    [['--measurements.interval= 1d '], { readings: { interval: '1d' } }],
    [['--measurements.refresh-interval=1m'], { readings: { refreshIntervalMs: 60_000 } }],
    [['--measurements.stations=42'], { readings: { stations: [42] } }],
    [['--measurements.stations=9007199254740991'], { readings: { stations: [9_007_199_254_740_991] } }],
    [['--measurements.concurrency=1'], { readings: { concurrency: 1 } }],
    [['--upstream.max-backoff=1s'], { upstream: { maxBackoffMs: 1000 } }],
  ] satisfies ReadonlyArray<readonly [string[], Changes]>)('accepts %j', (argv, changes) => {
    expect(run(argv, KEY).config).toStrictEqual(withChanges(changes));
  });

  const BOOLEAN_WORDS: ReadonlyArray<readonly [string, boolean]> = [
    ['1', true],
    ['yes', true],
    ['on', true],
    [' TRUE ', true],
    ['0', false],
    ['false', false],
    ['no', false],
    ['Off', false],
    ['', false],
  ];
  it.each(BOOLEAN_WORDS)('reads %j after = in a boolean flag as %s', (text, value) => {
    const argv = [`--upstream.insecure-skip-verify=${text}`, `--collector.measurements=${text}`];
    const config = run(argv, KEY).config;
    expect([config.upstream.insecureSkipVerify, config.readings.enabled]).toStrictEqual([value, value]);
  });

  it.each([
    [['--demo=true'], {}, { demo: true, readings: true }],
    [['--demo=true', '--collector.measurements=false'], {}, { demo: true, readings: false }],
    [['--demo', '--collector.measurements=false'], {}, { demo: true, readings: false }],
    [['--collector.measurements=false'], { CITYAIR_DEMO: 'true' }, { demo: true, readings: false }],
    [['--demo=false'], { CITYAIR_DEMO: 'true' }, { demo: false, readings: false }],
    [[], { CITYAIR_DEMO: 'true', CITYAIR_MEASUREMENTS: 'false' }, { demo: true, readings: false }],
    [['--demo=false', '--demo'], {}, { demo: true, readings: true }],
    [['--demo', '--demo=off'], {}, { demo: false, readings: false }],
  ] satisfies ReadonlyArray<readonly [string[], Env, { demo: boolean; readings: boolean }]>)(
    'reads %j with %j as the runbook writes them',
    (argv, env, want) => {
      const config = run(argv, { ...KEY, ...env }).config;
      expect({ demo: config.demo, readings: config.readings.enabled }).toStrictEqual(want);
    },
  );

  it.each(BOOLEAN_WORDS)('reads %j in a boolean variable as %s', (text, value) => {
    const config = run([], { ...KEY, CITYAIR_INSECURE_SKIP_VERIFY: text, CITYAIR_MEASUREMENTS: text }).config;
    expect([config.upstream.insecureSkipVerify, config.readings.enabled]).toStrictEqual([value, value]);
  });
});

describe('settings: a flag wins over the environment', () => {
  it.each([
    [
      ['--web.telemetry-path=/from-flag'],
      { CITYAIR_TELEMETRY_PATH: '/from-env' },
      { web: { telemetryPath: '/from-flag' } },
    ],
    [['--upstream.timeout=2s'], { CITYAIR_TIMEOUT: '3s' }, { upstream: { timeoutMs: 2000 } }],
    [['--upstream.max-backoff=5m'], { CITYAIR_MAX_BACKOFF: '10s' }, { upstream: { maxBackoffMs: 300_000 } }],
    [
      ['--measurements.stations=1'],
      { CITYAIR_MEASUREMENTS_STATIONS: '2,3' },
      { readings: { stations: [1] } },
    ],
    [
      ['--measurements.concurrency=4'],
      { CITYAIR_MEASUREMENTS_CONCURRENCY: '8' },
      { readings: { concurrency: 4 } },
    ],
    [
      ['--measurements.interval=1d'],
      { CITYAIR_MEASUREMENTS_INTERVAL: '20m' },
      { readings: { interval: '1d' } },
    ],
    [['--collector.measurements'], { CITYAIR_MEASUREMENTS: 'false' }, { readings: { enabled: true } }],
    [
      ['--upstream.insecure-skip-verify'],
      { CITYAIR_INSECURE_SKIP_VERIFY: 'no' },
      { upstream: { insecureSkipVerify: true } },
    ],
    // The environment's value is not even read when the flag is given.
    [['--log.level=warn'], { CITYAIR_LOG_LEVEL: 'verbose' }, { log: { level: 'warn' } }],
  ] satisfies ReadonlyArray<readonly [string[], Env, Changes]>)('%j over %j', (argv, env, changes) => {
    expect(run(argv, { ...KEY, ...env }).config).toStrictEqual(withChanges(changes));
  });

  it('takes the last of a repeated flag', () => {
    expect(run(['--upstream.timeout=2s', '--upstream.timeout=3s'], KEY).config.upstream.timeoutMs).toBe(3000);
  });
});

// The exact line main prints after "cityair-exporter: ", for each invalid value. Every row is tried from the flag
// and from the environment (a boolean's flag takes no value, so only from the environment).
const INVALID: ReadonlyArray<readonly [SettingKey, string, string]> = [
  ['url', 'ftp://x', 'invalid --upstream.url (CITYAIR_BASE_URL): must use http or https'],
  [
    'url',
    'mycityair.ru',
    'invalid --upstream.url (CITYAIR_BASE_URL): "mycityair.ru" is not an absolute URL such as https://mycityair.ru',
  ],
  [
    'url',
    'https://u:p@x.org',
    'invalid --upstream.url (CITYAIR_BASE_URL): must not carry credentials, a query or a fragment',
  ],
  [
    'url',
    'https://x.org/?a=1',
    'invalid --upstream.url (CITYAIR_BASE_URL): must not carry credentials, a query or a fragment',
  ],
  [
    'timeout',
    '5',
    'invalid --upstream.timeout (CITYAIR_TIMEOUT): "5" is not a duration such as 500ms, 30s, 5m or 1h',
  ],
  ['timeout', '0', 'invalid --upstream.timeout (CITYAIR_TIMEOUT): must be at least 1ms'],
  [
    'timeout',
    '',
    'invalid --upstream.timeout (CITYAIR_TIMEOUT): "" is not a duration such as 500ms, 30s, 5m or 1h',
  ],
  [
    'minInterval',
    'soon',
    'invalid --upstream.min-interval (CITYAIR_MIN_INTERVAL): "soon" is not a duration such as 500ms, 30s, 5m or 1h',
  ],
  [
    'refreshInterval',
    '1.5m',
    'invalid --upstream.refresh-interval (CITYAIR_REFRESH_INTERVAL): "1.5m" is not a duration such as 500ms, 30s, 5m or 1h',
  ],
  ['maxAge', '999ms', 'invalid --upstream.max-age (CITYAIR_MAX_AGE): must be at least 1s'],
  ['maxBackoff', '999ms', 'invalid --upstream.max-backoff (CITYAIR_MAX_BACKOFF): must be at least 1s'],
  [
    'maxBackoff',
    'later',
    'invalid --upstream.max-backoff (CITYAIR_MAX_BACKOFF): "later" is not a duration such as 500ms, 30s, 5m or 1h',
  ],
  [
    'maxBodySize',
    'lots',
    'invalid --upstream.max-body-size (CITYAIR_MAX_BODY_SIZE): "lots" is not a size of at least 1KiB such as 512KiB or 64MiB',
  ],
  [
    'maxBodySize',
    '1000',
    'invalid --upstream.max-body-size (CITYAIR_MAX_BODY_SIZE): "1000" is not a size of at least 1KiB such as 512KiB or 64MiB',
  ],
  [
    'maxStations',
    '0',
    'invalid --upstream.max-stations (CITYAIR_MAX_STATIONS): "0" is not a whole number from 1 to 1000000',
  ],
  [
    'maxStations',
    '2000000',
    'invalid --upstream.max-stations (CITYAIR_MAX_STATIONS): "2000000" is not a whole number from 1 to 1000000',
  ],
  [
    'readingsMaxBodySize',
    '1KB',
    'invalid --measurements.max-body-size (CITYAIR_MEASUREMENTS_MAX_BODY_SIZE): "1KB" is not a size of at least 1KiB such as 512KiB or 64MiB',
  ],
  ['caFile', '', 'invalid --upstream.ca-file (CITYAIR_CA_FILE): must not be empty'],
  [
    'insecureSkipVerify',
    'maybe',
    'invalid --upstream.insecure-skip-verify (CITYAIR_INSECURE_SKIP_VERIFY): "maybe" is not a boolean: true, false, 1, 0, yes, no, on or off',
  ],
  [
    'demo',
    'maybe',
    'invalid --demo (CITYAIR_DEMO): "maybe" is not a boolean: true, false, 1, 0, yes, no, on or off',
  ],
  [
    'readings',
    'enabled',
    'invalid --collector.measurements (CITYAIR_MEASUREMENTS): "enabled" is not a boolean: true, false, 1, 0, yes, no, on or off',
  ],
  [
    'readingsInterval',
    '10m',
    'invalid --measurements.interval (CITYAIR_MEASUREMENTS_INTERVAL): "10m" is not an averaging interval of the API: 5m, 20m, 1h, 1d',
  ],
  [
    'readingsInterval',
    '60m',
    'invalid --measurements.interval (CITYAIR_MEASUREMENTS_INTERVAL): "60m" is not an averaging interval of the API: 5m, 20m, 1h, 1d',
  ],
  [
    'readingsInterval',
    '1H',
    'invalid --measurements.interval (CITYAIR_MEASUREMENTS_INTERVAL): "1H" is not an averaging interval of the API: 5m, 20m, 1h, 1d',
  ],
  [
    'readingsInterval',
    '',
    'invalid --measurements.interval (CITYAIR_MEASUREMENTS_INTERVAL): "" is not an averaging interval of the API: 5m, 20m, 1h, 1d',
  ],
  [
    'readingsRefreshInterval',
    '59s',
    'invalid --measurements.refresh-interval (CITYAIR_MEASUREMENTS_REFRESH_INTERVAL): must be at least 1m',
  ],
  [
    'readingsRefreshInterval',
    '0',
    'invalid --measurements.refresh-interval (CITYAIR_MEASUREMENTS_REFRESH_INTERVAL): must be at least 1m',
  ],
  [
    'readingsRefreshInterval',
    'hourly',
    'invalid --measurements.refresh-interval (CITYAIR_MEASUREMENTS_REFRESH_INTERVAL): "hourly" is not a duration such as 500ms, 30s, 5m or 1h',
  ],
  [
    'readingsMaxAge',
    '0',
    'invalid --measurements.max-age (CITYAIR_MEASUREMENTS_MAX_AGE): must be at least 1s',
  ],
  [
    'readingsMaxAge',
    '30',
    'invalid --measurements.max-age (CITYAIR_MEASUREMENTS_MAX_AGE): "30" is not a duration such as 500ms, 30s, 5m or 1h',
  ],
  [
    'readingsStations',
    '',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): must list at least one station id, such as 101,102',
  ],
  [
    'readingsStations',
    ' , ',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): must list at least one station id, such as 101,102',
  ],
  [
    'readingsStations',
    '1,,2',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '1,2,',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '0',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "0" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '5,-3',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "-3" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '1.5',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "1.5" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '+1',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "+1" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '1e3',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "1e3" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '1;2',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "1;2" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '1 2',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "1 2" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '12,abc',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "abc" is not a station id (a positive whole number)',
  ],
  [
    'readingsStations',
    '9007199254740993',
    'invalid --measurements.stations (CITYAIR_MEASUREMENTS_STATIONS): "9007199254740993" is not a station id (a positive whole number)',
  ],
  [
    'readingsConcurrency',
    '0',
    'invalid --measurements.concurrency (CITYAIR_MEASUREMENTS_CONCURRENCY): "0" is not a whole number from 1 to 16',
  ],
  [
    'readingsConcurrency',
    '17',
    'invalid --measurements.concurrency (CITYAIR_MEASUREMENTS_CONCURRENCY): "17" is not a whole number from 1 to 16',
  ],
  [
    'readingsConcurrency',
    '1.5',
    'invalid --measurements.concurrency (CITYAIR_MEASUREMENTS_CONCURRENCY): "1.5" is not a whole number from 1 to 16',
  ],
  [
    'readingsConcurrency',
    '-2',
    'invalid --measurements.concurrency (CITYAIR_MEASUREMENTS_CONCURRENCY): "-2" is not a whole number from 1 to 16',
  ],
  [
    'readingsConcurrency',
    'two',
    'invalid --measurements.concurrency (CITYAIR_MEASUREMENTS_CONCURRENCY): "two" is not a whole number from 1 to 16',
  ],
  [
    'readingsConcurrency',
    '',
    'invalid --measurements.concurrency (CITYAIR_MEASUREMENTS_CONCURRENCY): "" is not a whole number from 1 to 16',
  ],
  [
    'listenAddress',
    '9610',
    'invalid --web.listen-address (CITYAIR_LISTEN_ADDRESS): "9610" is not host:port, :port or [ipv6]:port',
  ],
  [
    'listenAddress',
    ':70000',
    'invalid --web.listen-address (CITYAIR_LISTEN_ADDRESS): ":70000" is not host:port, :port or [ipv6]:port',
  ],
  [
    'listenAddress',
    '::1:9610',
    'invalid --web.listen-address (CITYAIR_LISTEN_ADDRESS): "::1:9610" is not host:port, :port or [ipv6]:port',
  ],
  [
    'telemetryPath',
    'metrics',
    'invalid --web.telemetry-path (CITYAIR_TELEMETRY_PATH): must be a path starting with / (letters, digits, ._~-/)',
  ],
  [
    'telemetryPath',
    '/metrics?x',
    'invalid --web.telemetry-path (CITYAIR_TELEMETRY_PATH): must be a path starting with / (letters, digits, ._~-/)',
  ],
  [
    'telemetryPath',
    '/',
    'invalid --web.telemetry-path (CITYAIR_TELEMETRY_PATH): must not be /, /healthz or /readyz',
  ],
  [
    'telemetryPath',
    '/healthz',
    'invalid --web.telemetry-path (CITYAIR_TELEMETRY_PATH): must not be /, /healthz or /readyz',
  ],
  [
    'telemetryPath',
    '/readyz',
    'invalid --web.telemetry-path (CITYAIR_TELEMETRY_PATH): must not be /, /healthz or /readyz',
  ],
  ['webConfigFile', '', 'invalid --web.config.file (CITYAIR_WEB_CONFIG_FILE): must not be empty'],
  [
    'timeoutOffset',
    '-1s',
    'invalid --web.timeout-offset (CITYAIR_TIMEOUT_OFFSET): "-1s" is not a duration such as 500ms, 30s, 5m or 1h',
  ],
  [
    'logLevel',
    'verbose',
    'invalid --log.level (CITYAIR_LOG_LEVEL): "verbose" is not a log level: debug, info, warn, error',
  ],
  [
    'logFormat',
    'text',
    'invalid --log.format (CITYAIR_LOG_FORMAT): "text" is not a log format: json, logfmt',
  ],
];

describe('settings: invalid values stop the start with one line naming the setting', () => {
  it.each(INVALID)('%s = %j from its flag', (name, text, line) => {
    expect(errorOf([`${flagOf(name)}=${text}`], KEY)).toBe(line);
  });

  it.each(INVALID)('%s = %j from its environment variable', (name, text, line) => {
    expect(errorOf([], { ...KEY, [SETTINGS[name].env]: text })).toBe(line);
  });

  it('has an invalid value for every setting that can have one', () => {
    const covered = new Set<string>([...INVALID.map(([name]) => name), 'apiKey', 'apiKeyFile']);
    expect([...covered].sort()).toStrictEqual(OWN_KEYS.slice().sort());
  });

  it('keeps the line one line when the value holds a newline', () => {
    expect(errorOf([], { ...KEY, CITYAIR_TIMEOUT: '5s\nrm -rf' })).toBe(
      'invalid --upstream.timeout (CITYAIR_TIMEOUT): "5s\\nrm -rf" is not a duration such as 500ms, 30s, 5m or 1h',
    );
  });

  it.each([
    [['--no-such-flag'], "Unknown option '--no-such-flag' (see --help)"],
    [['extra'], "Unexpected argument 'extra'. This command does not take positional arguments (see --help)"],
    [['--upstream.timeout'], "Option '--upstream.timeout <value>' argument missing (see --help)"],
    [
      ['--demo', 'false'],
      "Unexpected argument 'false'. This command does not take positional arguments (see --help)",
    ],
    [['--upstream.api-key=k'], "Unknown option '--upstream.api-key' (see --help)"],
  ])('refuses the command line %j', (argv, line) => {
    expect(errorOf(argv, KEY)).toBe(line);
  });
});

describe('settings: every duration has a ceiling below the timer limit', () => {
  // Found by what the schema says of a non-duration, not by a list: a new duration without a range fails here.
  const durations = OWN_KEYS.filter((name) =>
    SETTINGS[name].schema.safeParse('soon').error?.issues[0]?.message.includes('is not a duration'),
  );

  it('finds the duration settings', () => {
    expect(durations.length).toBeGreaterThanOrEqual(8);
  });

  it.each(durations)('%s has a range whose ceiling a timer can wait', (name) => {
    const range = SETTINGS[name].range;
    expect(range).toBeDefined();
    expect(range?.[1]).toBeLessThanOrEqual(TIMER_LIMIT_MS);
  });

  it.each(durations)('%s refuses 30d from its flag and its variable, naming the ceiling', (name) => {
    const max = formatDuration(SETTINGS[name].range?.[1] ?? 0);
    const line = `invalid ${flagOf(name)} (${SETTINGS[name].env}): must be at most ${max}`;
    expect(errorOf([`${flagOf(name)}=30d`], KEY)).toBe(line);
    expect(errorOf([], { ...KEY, [SETTINGS[name].env]: '30d' })).toBe(line);
  });

  it.each(durations)('%s accepts its ceiling and refuses a millisecond more', (name) => {
    const max = SETTINGS[name].range?.[1] ?? 0;
    expect(() => parseCli([`${flagOf(name)}=${formatDuration(max)}`], KEY)).not.toThrow();
    expect(errorOf([`${flagOf(name)}=${formatDuration(max + 1)}`], KEY)).toMatch(/must be at most/);
  });

  it('shows each range in --help', () => {
    const help = helpText('1.0.0');
    expect(help).toContain('How often a round of readings requests runs. From 1m to 1d.');
    expect(help).toContain('At most 1m. (default: 500ms)');
    for (const name of durations) {
      const row = help.split('\n').find((l) => l.includes(`${flagOf(name)} `));
      expect(row, name).toContain(formatDuration(SETTINGS[name].range?.[1] ?? 0));
    }
  });
});

describe('settings: the API key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cityair-config-'));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const keyFile = file('key', '  file-key-0123456789abcdef\n');
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const KEY_HELP =
    'an API key is required: create one in your CityAir personal account (Settings → API access keys), then put it in a file named by --upstream.api-key-file (CITYAIR_API_KEY_FILE) or in CITYAIR_API_KEY; or try --demo';
  const HEADER = 'the API key contains spaces or characters that cannot go into an HTTP header';
  const BOTH = 'set only one of --upstream.api-key-file (CITYAIR_API_KEY_FILE) and CITYAIR_API_KEY';

  it.each([
    [
      'CITYAIR_API_KEY, trimmed',
      [],
      { CITYAIR_API_KEY: '  env-key-0123456789abcdef \n' },
      'env-key-0123456789abcdef',
    ],
    [
      'a file from the flag, trimmed',
      [`--upstream.api-key-file=${keyFile}`],
      {},
      'file-key-0123456789abcdef',
    ],
    ['a file from the environment', [], { CITYAIR_API_KEY_FILE: keyFile }, 'file-key-0123456789abcdef'],
    [
      'a file when CITYAIR_API_KEY is empty',
      [`--upstream.api-key-file=${keyFile}`],
      { CITYAIR_API_KEY: '' },
      'file-key-0123456789abcdef',
    ],
    [
      'a key file of 4KiB, the most it reads',
      [`--upstream.api-key-file=${file('largest', `${'k'.repeat(4095)}\n`)}`],
      {},
      'k'.repeat(4095),
    ],
    ['no key at all with --demo', ['--demo'], {}, undefined],
    ['no key with --demo even when one is given', ['--demo'], { CITYAIR_API_KEY: 'ignored' }, undefined],
    [
      'no key with --demo, and does not read the file',
      [`--upstream.api-key-file=${join(dir, 'nope')}`],
      { CITYAIR_DEMO: '1' },
      undefined,
    ],
  ] satisfies ReadonlyArray<readonly [string, string[], Env, string | undefined]>)(
    'takes %s',
    (_, argv, env, key) => {
      expect(run(argv, env).config.upstream.apiKey).toBe(key);
    },
  );

  it.each([
    ['no key', [], {}, KEY_HELP],
    ['an empty CITYAIR_API_KEY', [], { CITYAIR_API_KEY: '' }, KEY_HELP],
    ['a blank CITYAIR_API_KEY', [], { CITYAIR_API_KEY: ' \t\n' }, KEY_HELP],
    ['a key file holding only whitespace', [`--upstream.api-key-file=${file('blank', ' \n')}`], {}, KEY_HELP],
    [
      'both a file and CITYAIR_API_KEY',
      [`--upstream.api-key-file=${keyFile}`],
      { CITYAIR_API_KEY: 'k' },
      BOTH,
    ],
    ['both from the environment', [], { CITYAIR_API_KEY_FILE: keyFile, CITYAIR_API_KEY: 'k' }, BOTH],
    [
      'a missing key file',
      [`--upstream.api-key-file=${join(dir, 'nope')}`],
      {},
      `invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read the file it names (ENOENT)`,
    ],
    [
      'a directory as key file',
      [`--upstream.api-key-file=${dir}`],
      {},
      `invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read the file it names (EISDIR)`,
    ],
    [
      'a FIFO as key file, without waiting for a writer',
      [`--upstream.api-key-file=${fifo}`],
      {},
      `invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read the file it names (not a regular file)`,
    ],
    [
      '/dev/zero as key file',
      ['--upstream.api-key-file=/dev/zero'],
      {},
      'invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read the file it names (not a regular file)',
    ],
    [
      'a key file of more than 4KiB',
      [`--upstream.api-key-file=${file('big', `${'k'.repeat(4097)}\n`)}`],
      {},
      `invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read the file it names (larger than 4KiB)`,
    ],
    [
      'an empty key file name',
      [],
      { CITYAIR_API_KEY_FILE: '' },
      'invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): must not be empty',
    ],
    ['a key with a space', [], { CITYAIR_API_KEY: 'secret part' }, HEADER],
    [
      'a key file with two lines',
      [`--upstream.api-key-file=${file('two-lines', 'secret\npart\n')}`],
      {},
      HEADER,
    ],
    ['a key outside ASCII', [], { CITYAIR_API_KEY: 'ключ-secret' }, HEADER],
    [
      'a one-character key',
      [],
      { CITYAIR_API_KEY: 'k' },
      'the API key is too short to be real (1 of at least 16 characters): was all of it copied?',
    ],
    [
      'a key of 15 characters in a file',
      [`--upstream.api-key-file=${file('short', '0123456789abcde\n')}`],
      {},
      'the API key is too short to be real (15 of at least 16 characters): was all of it copied?',
    ],
  ] satisfies ReadonlyArray<readonly [string, string[], Env, string]>)('refuses %s', (_, argv, env, line) => {
    expect(errorOf(argv, env)).toBe(line);
  });

  it('keeps the key out of the error', () => {
    expect(errorOf([], { CITYAIR_API_KEY: 'secret part' })).not.toContain('secret');
  });

  it('does not echo the key file name: the key itself given in its place would be printed', () => {
    const key = 'supersecretkey-ABCDEFGHIJ0123456789';
    expect(errorOf([`--upstream.api-key-file=${key}`], {})).toBe(
      'invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read the file it names (ENOENT)',
    );
  });
});

describe('settings: the readings collector follows --demo unless told', () => {
  it.each([
    ['neither demo nor the setting', [], KEY, false],
    ['--demo', ['--demo'], {}, true],
    ['CITYAIR_DEMO=true', [], { CITYAIR_DEMO: 'true' }, true],
    ['CITYAIR_DEMO=false', [], { ...KEY, CITYAIR_DEMO: 'false' }, false],
    ['--demo with CITYAIR_MEASUREMENTS=false', ['--demo'], { CITYAIR_MEASUREMENTS: 'false' }, false],
    ['--demo with CITYAIR_MEASUREMENTS=0', ['--demo'], { CITYAIR_MEASUREMENTS: '0' }, false],
    // An empty variable is a given "false", not an absent one.
    ['--demo with CITYAIR_MEASUREMENTS empty', ['--demo'], { CITYAIR_MEASUREMENTS: '' }, false],
    ['--demo with --collector.measurements', ['--demo', '--collector.measurements'], {}, true],
    ['--collector.measurements without demo', ['--collector.measurements'], KEY, true],
    ['CITYAIR_MEASUREMENTS=on without demo', [], { ...KEY, CITYAIR_MEASUREMENTS: 'on' }, true],
  ] satisfies ReadonlyArray<readonly [string, string[], Env, boolean]>)('%s: %s', (_, argv, env, enabled) => {
    expect(run(argv, env).config.readings.enabled).toBe(enabled);
  });
});

describe('settings: warnings', () => {
  const INSECURE =
    '--upstream.insecure-skip-verify is on: the TLS certificate of the API is not checked, so anyone in the path can read the API key';
  it.each([
    [['--upstream.refresh-interval=9m59s'], []],
    [
      ['--upstream.refresh-interval=10m', '--upstream.max-age=10m'],
      [
        '--upstream.refresh-interval (10m) is not below --upstream.max-age (10m): data will expire between refreshes',
      ],
    ],
    [
      ['--upstream.refresh-interval=1h'],
      [
        '--upstream.refresh-interval (1h) is not below --upstream.max-age (10m): data will expire between refreshes',
      ],
    ],
    // On demand (0s) refreshes on every scrape, so it never lets data expire.
    [['--upstream.refresh-interval=0s', '--upstream.max-age=1s'], []],
    [['--collector.measurements', '--measurements.refresh-interval=29m'], []],
    [
      ['--collector.measurements', '--measurements.refresh-interval=30m'],
      [
        '--measurements.refresh-interval (30m) is not below --measurements.max-age (30m): readings will expire between rounds',
      ],
    ],
    [
      ['--collector.measurements', '--measurements.max-age=1m'],
      [
        '--measurements.refresh-interval (5m) is not below --measurements.max-age (1m): readings will expire between rounds',
        '--measurements.max-age (1m) is not above --measurements.interval (5m): most readings will be too old to export',
      ],
    ],
    // Hourly rows are dated an hour apart: the default 30m max-age would hide most of them.
    [
      ['--collector.measurements', '--measurements.interval=1h'],
      [
        '--measurements.max-age (30m) is not above --measurements.interval (1h): most readings will be too old to export',
      ],
    ],
    [['--collector.measurements', '--measurements.interval=1h', '--measurements.max-age=2h'], []],
    // With the collector off, its timing does not matter.
    [['--measurements.max-age=1m'], []],
    [['--upstream.insecure-skip-verify'], [INSECURE]],
    [
      [
        '--upstream.insecure-skip-verify',
        '--upstream.refresh-interval=1h',
        '--collector.measurements',
        '--measurements.max-age=1m',
      ],
      [
        INSECURE,
        '--upstream.refresh-interval (1h) is not below --upstream.max-age (10m): data will expire between refreshes',
        '--measurements.refresh-interval (5m) is not below --measurements.max-age (1m): readings will expire between rounds',
        '--measurements.max-age (1m) is not above --measurements.interval (5m): most readings will be too old to export',
      ],
    ],
  ])('%j warns %j', (argv, warnings) => {
    expect(run(argv, KEY).warnings).toStrictEqual(warnings);
  });

  it('warns in demo mode as well, where the collector is on by default', () => {
    expect(run(['--demo', '--measurements.max-age=5m'], {}).warnings).toStrictEqual([
      '--measurements.refresh-interval (5m) is not below --measurements.max-age (5m): readings will expire between rounds',
      '--measurements.max-age (5m) is not above --measurements.interval (5m): most readings will be too old to export',
    ]);
  });
});

describe('settings: --help', () => {
  const text = helpText('1.2.3');
  const lines = text.split('\n');

  it('says what the exporter covers', () => {
    expect(lines[0]).toBe(
      "cityair-exporter 1.2.3: Prometheus exporter for the CityAir station list and (opt-in) the stations' readings",
    );
  });

  it('lists every setting once, in the order of the table, with its variable and default', () => {
    const rows = Object.values(SETTINGS).map((s) => {
      const row = lines.filter((l) => l.includes(` ${s.env} `));
      expect(row, s.env).toHaveLength(1);
      return row[0] ?? '';
    });
    expect(rows.map((r) => lines.indexOf(r))).toStrictEqual(
      rows.map((r) => lines.indexOf(r)).sort((a, b) => a - b),
    );
    for (const [i, s] of Object.values(SETTINGS).entries()) {
      expect(rows[i]).toMatch(
        s.flag ? new RegExp(`^ +--${s.flag.replaceAll('.', '\\.')} `) : /^ +\(env only\) /,
      );
      if (s.default === undefined) expect(rows[i]).not.toContain('(default:');
    }
  });

  it.each([
    ['CITYAIR_MEASUREMENTS ', '(default: false; true with --demo)'],
    ['CITYAIR_MAX_BACKOFF ', '(default: 1m)'],
    ['CITYAIR_MEASUREMENTS_INTERVAL ', '(default: 5m)'],
    ['CITYAIR_MEASUREMENTS_REFRESH_INTERVAL ', '(default: 5m)'],
    ['CITYAIR_MEASUREMENTS_MAX_AGE ', '(default: 30m)'],
    ['CITYAIR_MEASUREMENTS_CONCURRENCY ', '(default: 2)'],
    ['CITYAIR_LISTEN_ADDRESS ', '(default: :9610)'],
  ])('shows the default of %s as %s', (env, dflt) => {
    expect(lines.find((l) => l.includes(env))?.endsWith(dflt)).toBe(true);
  });

  it('aligns the variables and the help in columns', () => {
    const rows = lines.filter((l) => l.startsWith('  -') || l.startsWith('  ('));
    const envColumns = new Set(
      Object.values(SETTINGS).map((s) => rows.find((r) => r.includes(` ${s.env} `))?.indexOf(` ${s.env} `)),
    );
    expect(envColumns.size).toBe(1);
  });
});

describe('the engine’s part of the configuration', () => {
  it('reads --demo from its flag, else its variable, so --demo=false wins over CITYAIR_DEMO', () => {
    expect(demoOf({ demo: 'false' }, { CITYAIR_DEMO: 'true' })).toBe(false);
    expect(demoOf({}, { CITYAIR_DEMO: 'true' })).toBe(true);
    expect(demoOf({}, {})).toBe(false);
  });

  it('warns of the engine’s settings alone, whatever the sources say', () => {
    const action = parseCli(['--upstream.insecure-skip-verify'], KEY);
    if (action.kind !== 'run') throw new Error(action.kind);
    expect(engineWarnings(action.config)).toEqual([INSECURE_WARNING]);
  });
});
