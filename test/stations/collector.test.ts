// What the station-list collector tells an operator about a list it keeps but had to mend.

import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { createStationsCollector } from '../../src/stations/collector.js';
import type { ElementsReader } from '../../src/upstream/exchange.js';
import { configFrom } from '../support/in-process.js';

describe('the station-list collector', () => {
  it('warns once when stations come with invalid fields, and again only when the counts change', async () => {
    const lines: { level: string; msg: string; fields_skipped?: unknown }[] = [];
    const log = createLogger({ level: 'info', format: 'json' }, { write: (l) => lines.push(JSON.parse(l)) });
    const answers = [
      [{ id: 1, name: 'a', isOnline: false, geo: { latitude: 91 } }],
      [{ id: 1, name: 'a', isOnline: false, geo: { latitude: 91 } }],
      [{ id: 1, name: 'a', isOnline: false, geo: { latitude: 91, gmtOffsetSeconds: '+03:00' } }],
    ];
    let call = 0;
    const upstream = {
      getJsonElements: async <T>(_path: string, reader: ElementsReader<T>) => reader.whole(answers[call++]),
    };
    const config = configFrom(['--upstream.min-interval=0s']);
    const collector = createStationsCollector({ config, upstream, registry: new Registry(), log });
    for (let i = 0; i < answers.length; i++) await collector.source.beforeScrape?.(1000);
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings.map((w) => w.fields_skipped)).toEqual([{ latitude: 1 }, { latitude: 1, utc_offset: 1 }]);
    expect(warnings[0]?.msg).toBe('upstream sent stations with invalid fields, which were left out');
    expect(collector.lastGood()?.stations[0]?.online).toBe(false);
  });

  it('gives as examples of left-out fields the fields, even when dropped elements came first', async () => {
    const lines: { level: string; msg: string; examples?: string[] }[] = [];
    const log = createLogger({ level: 'info', format: 'json' }, { write: (l) => lines.push(JSON.parse(l)) });
    const dropped = Array.from({ length: 8 }, (_, i) => ({ id: `bad ${i}`, name: 'x', isOnline: true }));
    const answer = [...dropped, { id: 7, name: 'kept', isOnline: true, geo: { longitude: -181 } }];
    const upstream = {
      getJsonElements: async <T>(_path: string, reader: ElementsReader<T>) => reader.whole(answer),
    };
    const config = configFrom(['--upstream.min-interval=0s']);
    const collector = createStationsCollector({ config, upstream, registry: new Registry(), log });
    await collector.source.beforeScrape?.(1000);
    const fieldsWarning = lines.find(
      (l) => l.msg === 'upstream sent stations with invalid fields, which were left out',
    );
    expect(fieldsWarning?.examples).toEqual(['element 8 (id 7): longitude is not valid; left out']);
  });
});
