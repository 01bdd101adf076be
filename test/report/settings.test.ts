import { describe, expect, it } from 'vitest';
import { BACKFILL_SETTINGS } from '../../src/backfill/settings.js';
import { SETTINGS } from '../../src/cli.js';
import {
  REPORT_FORMATS,
  REPORT_LANGUAGES,
  REPORT_LISTS,
  REPORT_SETTINGS,
} from '../../src/report/settings.js';

const own = Object.entries(REPORT_SETTINGS);

describe('the report settings table', () => {
  it('gives each setting its own flag and a CITYAIR_REPORT_ variable no other command uses', () => {
    const flags = [...own.map(([, s]) => s.flag), ...Object.values(REPORT_LISTS).map((l) => l.flag)];
    expect(new Set(flags).size).toBe(flags.length);
    expect(own.filter(([, s]) => !s.env.startsWith('CITYAIR_REPORT_')).map(([n]) => n)).toEqual([]);
    const others = [...Object.values(SETTINGS), ...Object.values(BACKFILL_SETTINGS)].map((s) => s.env);
    expect(own.filter(([, s]) => others.includes(s.env)).map(([n]) => n)).toEqual([]);
  });

  it('writes defaults its own checks accept', () => {
    const refused = own.filter(([, s]) => s.default !== undefined && !s.schema.safeParse(s.default).success);
    expect(refused.map(([n]) => n)).toEqual([]);
  });

  it('offers the formats and languages the report writes, HTML and Russian first', () => {
    expect(REPORT_FORMATS).toEqual(['html', 'csv', 'json']);
    expect(REPORT_LANGUAGES).toEqual(['ru', 'en']);
    expect(REPORT_SETTINGS.format.schema.safeParse('pdf').success).toBe(false);
  });
});
