// The exporter's command line over the registry: every source's settings and repeatable flags are read by the
// one parser, shown by --help after that source's settings, and its configuration lands under its name. The
// whole table, setting by setting, is tested in test/config/config.test.ts.
import { describe, expect, it } from 'vitest';
import { EXPORTER_COMMAND_LINE, helpText, parseCli, SETTINGS } from '../src/cli.js';
import { SOURCES } from '../src/sources.js';

const KEY = { CITYAIR_API_KEY: 'cli-test-key-0123456789abcdef' };

describe('the exporter’s command line', () => {
  it('reads every source’s repeatable flags as well as its settings', () => {
    const lists = SOURCES.flatMap((s) => ('lists' in s ? s.lists : []).map((l) => l.flag));
    expect(lists).toContain('record.label');
    expect((EXPORTER_COMMAND_LINE.lists ?? []).map((l) => l.flag)).toEqual(lists);
    for (const source of SOURCES)
      for (const spec of Object.values(source.settings))
        expect(Object.values(SETTINGS), spec.env).toContain(spec);
  });

  it('lists each source’s flags in --help after its own settings, before the web settings', () => {
    const help = helpText('1.2.3');
    const at = (flag: string): number => help.indexOf(`  --${flag} `);
    expect(at('measurements.max-body-size')).toBeGreaterThan(0);
    expect(at('record.remote-write.url')).toBeGreaterThan(at('measurements.concurrency'));
    expect(at('record.query.header')).toBeGreaterThan(at('record.query.timeout'));
    expect(at('web.listen-address')).toBeGreaterThan(at('record.query.header'));
  });

  it('puts each source’s configuration under its name, and none for a source that is off', () => {
    const off = parseCli([], KEY);
    if (off.kind !== 'run') throw new Error(off.kind);
    expect(off.config.readings.enabled).toBe(false);
    expect('record' in off.config).toBe(false);
    const on = parseCli(
      [
        '--collector.measurements',
        '--record.remote-write.url=http://vm:8428/api/v1/write',
        '--record.query.url=http://vm:8428',
        '--record.label=job=cityair',
        '--record.label=instance=x:9610',
      ],
      KEY,
    );
    if (on.kind !== 'run') throw new Error(on.kind);
    // The record reads the readings' configuration as the readings collector does.
    expect(on.config.record?.readings).toEqual(on.config.readings);
    expect(on.config.record?.record.labels).toHaveLength(2);
  });
});
