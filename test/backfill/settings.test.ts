import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BACKFILL_LISTS,
  BACKFILL_SETTINGS,
  headerPair,
  labelPair,
  SHARED_SETTINGS,
  serviceUrl,
} from '../../src/backfill/settings.js';
import { SETTINGS } from '../../src/cli.js';

function read<T>(schema: z.ZodType<T, string>, text: string): T | string {
  const r = schema.safeParse(text);
  return r.success ? r.data : (r.error.issues[0]?.message ?? 'no message');
}

describe('labelPair', () => {
  it('reads name=value, the value taking any further =', () => {
    expect(read(labelPair, 'job=cityair')).toEqual(['job', 'cityair']);
    expect(read(labelPair, 'q=a=b')).toEqual(['q', 'a=b']);
  });

  it('refuses what Prometheus would not take or would read otherwise', () => {
    const notLabel =
      'is not name=value with a Prometheus label name (letters, digits, _; not starting with __)';
    expect(read(labelPair, 'job')).toBe(`"job" ${notLabel}`);
    expect(read(labelPair, '1x=y')).toBe(`"1x=y" ${notLabel}`);
    expect(read(labelPair, '__name__=y')).toBe(`"__name__=y" ${notLabel}`);
    expect(read(labelPair, 'job=')).toBe('job= has an empty value, which Prometheus reads as no label');
  });

  it('refuses the labels the exporter sets itself', () => {
    for (const name of ['id', 'name', 'description', 'tz', 'substance', 'index']) {
      expect(read(labelPair, `${name}=x`)).toBe(`the label ${name} is set by the exporter itself`);
    }
  });
});

describe('headerPair', () => {
  it('reads "Name: value", trimmed', () => {
    expect(read(headerPair, 'X-Scope-OrgID:  air ')).toEqual(['X-Scope-OrgID', 'air']);
  });

  it('refuses a malformed header, a control character, and the headers the protocol sets', () => {
    const bad = 'is not "Name: value" with a valid header name and value';
    expect(read(headerPair, 'no colon')).toBe(bad);
    expect(read(headerPair, 'Bad Name: x')).toBe(bad);
    expect(read(headerPair, 'X-A: b\r\nX-B: c')).toBe(bad);
    expect(read(headerPair, 'Content-Encoding: gzip')).toBe(
      'Content-Encoding is set by the remote-write protocol itself',
    );
  });
});

describe('serviceUrl', () => {
  const url = serviceUrl('http://vm:8428/api/v1/write', '--remote-write.username');
  it('takes an absolute http(s) URL without credentials', () => {
    expect(read(url, ' http://vm:8428/api/v1/write ')).toBe('http://vm:8428/api/v1/write');
    expect(read(url, 'vm:8428')).toBe('must use http or https');
    expect(read(url, '/api/v1/write')).toBe('is not an absolute URL such as http://vm:8428/api/v1/write');
    expect(read(url, 'https://u:p@vm/')).toBe('must not carry credentials: use --remote-write.username');
  });
});

describe('the backfill settings table', () => {
  const own = Object.entries(BACKFILL_SETTINGS);

  it('shares the exporter’s settings as the exporter defines them', () => {
    for (const [name, spec] of Object.entries(SHARED_SETTINGS)) {
      expect(Object.values(SETTINGS), name).toContain(spec);
    }
  });

  it('gives its own settings flags and variables no exporter setting has', () => {
    const flags = [...own.map(([, s]) => s.flag), ...Object.values(BACKFILL_LISTS).map((l) => l.flag)];
    const shared = Object.values(SHARED_SETTINGS).map((s) => s.flag);
    expect(flags.filter((f) => shared.includes(f))).toEqual([]);
    expect(new Set(flags).size).toBe(flags.length);
    const envs = own.map(([, s]) => s.env);
    expect(envs.filter((e) => Object.values(SETTINGS).some((s) => s.env === e))).toEqual([]);
  });

  it('writes defaults its own checks accept', () => {
    const refused = own.filter(([, s]) => s.default !== undefined && !s.schema.safeParse(s.default).success);
    expect(refused.map(([n]) => n)).toEqual([]);
  });
});
