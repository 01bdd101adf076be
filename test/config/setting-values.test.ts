import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  baseUrl,
  boolText,
  byteSize,
  duration,
  integerBetween,
  listenAddress,
  oneOf,
  READINGS_INTERVAL_MS,
  READINGS_INTERVALS,
  stationIds,
  telemetryPath,
} from '../../src/config/setting-values.js';

/** The parsed value, or the one-line message of its first issue. */
function read<T>(schema: z.ZodType<T, string>, text: string): T | string {
  const r = schema.safeParse(text);
  return r.success ? r.data : (r.error.issues[0]?.message ?? 'no message');
}

describe('duration', () => {
  const d = duration([1000, 3_600_000]);
  it('reads a duration into milliseconds, within its range', () => {
    expect(read(d, ' 30s ')).toBe(30_000);
    expect(read(d, '1h')).toBe(3_600_000);
    expect(read(d, '500ms')).toBe('must be at least 1s');
    expect(read(d, '2h')).toBe('must be at most 1h');
    expect(read(d, 'soon\n')).toBe('"soon\\n" is not a duration such as 500ms, 30s, 5m or 1h');
  });
});

describe('byteSize', () => {
  it('reads sizes of at least 1 KiB', () => {
    expect(read(byteSize, '64MiB')).toBe(64 * 1024 * 1024);
    expect(read(byteSize, '1KiB')).toBe(1024);
    expect(read(byteSize, '1000')).toBe('"1000" is not a size of at least 1KiB such as 512KiB or 64MiB');
  });
});

describe('boolText', () => {
  it('reads the usual words for true and false, and an empty value as false', () => {
    for (const word of ['1', 'true', 'YES', ' on ']) expect(read(boolText, word), word).toBe(true);
    for (const word of ['0', 'False', 'no', 'off', '']) expect(read(boolText, word), word).toBe(false);
    expect(read(boolText, 'maybe')).toBe('"maybe" is not a boolean: true, false, 1, 0, yes, no, on or off');
  });
});

describe('oneOf', () => {
  it('takes exactly one of its words', () => {
    const level = oneOf(['debug', 'info'], 'a log level');
    expect(read(level, ' info ')).toBe('info');
    expect(read(level, 'INFO')).toBe('"INFO" is not a log level: debug, info');
  });
});

describe('baseUrl', () => {
  it('keeps the base of a pasted API path, without a trailing slash', () => {
    expect(read(baseUrl, 'https://mycityair.ru/')).toBe('https://mycityair.ru');
    expect(read(baseUrl, 'https://h.example/api/harvester/v2/Posts')).toBe('https://h.example/api');
    expect(read(baseUrl, 'http://h.example:8080/harvester/v2/')).toBe('http://h.example:8080');
  });

  it('refuses what is not an http(s) base, or carries credentials, a query or a fragment', () => {
    expect(read(baseUrl, 'mycityair.ru')).toBe(
      '"mycityair.ru" is not an absolute URL such as https://mycityair.ru',
    );
    expect(read(baseUrl, 'ftp://h.example')).toBe('must use http or https');
    expect(read(baseUrl, 'https://u:p@h.example')).toBe('must not carry credentials, a query or a fragment');
    expect(read(baseUrl, 'https://h.example/?key=1')).toBe(
      'must not carry credentials, a query or a fragment',
    );
  });
});

describe('listenAddress', () => {
  it('reads host:port, :port and [ipv6]:port', () => {
    expect(read(listenAddress, ':9101')).toEqual({ host: undefined, port: 9101 });
    expect(read(listenAddress, '127.0.0.1:80')).toEqual({ host: '127.0.0.1', port: 80 });
    expect(read(listenAddress, '[::1]:9101')).toEqual({ host: '::1', port: 9101 });
    expect(read(listenAddress, 'localhost:70000')).toBe(
      '"localhost:70000" is not host:port, :port or [ipv6]:port',
    );
    expect(read(listenAddress, '9101')).toBe('"9101" is not host:port, :port or [ipv6]:port');
  });
});

describe('integerBetween', () => {
  it('takes whole numbers in its range only', () => {
    const n = integerBetween(1, 64);
    expect(read(n, '64')).toBe(64);
    for (const bad of ['0', '65', '1.5', '-1', '1e1', '']) {
      expect(read(n, bad), bad).toBe(`${JSON.stringify(bad)} is not a whole number from 1 to 64`);
    }
  });
});

describe('stationIds', () => {
  it('reads a comma-separated list of ids, each once', () => {
    expect(read(stationIds, '101, 102,101')).toEqual([101, 102]);
    expect(read(stationIds, '101,,102')).toBe('"" is not a station id (a positive whole number)');
  });

  it('refuses an empty list and anything but positive whole numbers', () => {
    expect(read(stationIds, ' , ')).toBe('must list at least one station id, such as 101,102');
    expect(read(stationIds, '1,0')).toBe('"0" is not a station id (a positive whole number)');
    expect(read(stationIds, '1,../x')).toBe('"../x" is not a station id (a positive whole number)');
    expect(read(stationIds, '99999999999999999999')).toMatch(/is not a station id/);
  });
});

describe('telemetryPath', () => {
  it('takes a path that no other endpoint has', () => {
    expect(read(telemetryPath, '/metrics')).toBe('/metrics');
    expect(read(telemetryPath, 'metrics')).toBe('must be a path starting with / (letters, digits, ._~-/)');
    expect(read(telemetryPath, '/healthz')).toBe('must not be /, /healthz or /readyz');
  });
});

describe('READINGS_INTERVALS', () => {
  it('are the endpoint’s intervals, each with its time between rows', () => {
    expect(READINGS_INTERVALS).toEqual(['5m', '20m', '1h', '1d']);
    expect(READINGS_INTERVAL_MS['20m']).toBe(1_200_000);
  });
});
