import { describe, expect, it } from 'vitest';
import {
  futureDatedNotice,
  missingIdsNotice,
  unknownUnitNotice,
  workingNotice,
} from '../../src/readings/notices.js';
import { recordingLog } from '../support/log-lines.js';

describe('unknownUnitNotice', () => {
  it('warns once per field and unit', () => {
    const { log, lines } = recordingLog();
    const notice = unknownUnitNotice(log);
    notice({ field: 'co', unit: 'ppm' });
    notice({ field: 'co', unit: 'ppm' });
    notice({ field: 'co', unit: 'ppb' });
    notice({ field: 'no2', unit: 'ppm' });
    expect(lines.map((l) => [l.level, l.fields])).toEqual([
      ['warn', { field: 'co', unit: 'ppm' }],
      ['warn', { field: 'co', unit: 'ppb' }],
      ['warn', { field: 'no2', unit: 'ppm' }],
    ]);
  });

  it('remembers a bounded number of them, whatever the API sends', () => {
    const { log, lines } = recordingLog();
    const notice = unknownUnitNotice(log);
    for (let i = 0; i < 3000; i++) notice({ field: 'co', unit: `u${i}` });
    expect(lines).toHaveLength(1024);
  });
});

describe('futureDatedNotice', () => {
  it('warns once per station, saying how far ahead its row is', () => {
    const { log, lines } = recordingLog();
    const notice = futureDatedNotice(log);
    const now = Date.UTC(2026, 10, 23, 12);
    notice({ id: 5, atMs: now + 3_600_000 }, now);
    notice({ id: 5, atMs: now + 7_200_000 }, now);
    notice({ id: 6, atMs: now + 600_400 }, now);
    expect(lines.map((l) => l.fields)).toEqual([
      { id: 5, row_date: '2026-11-23T13:00:00.000Z', ahead_s: 3600 },
      { id: 6, row_date: '2026-11-23T12:10:00.400Z', ahead_s: 600 },
    ]);
    expect(lines[0]?.msg).toContain('not served');
  });
});

describe('missingIdsNotice', () => {
  it('warns when wanted ids are not listed, again only when that set changes', () => {
    const { log, lines } = recordingLog();
    const notice = missingIdsNotice(log);
    notice([1, 2, 9, 8, 9], [1, 2, 3]);
    notice([1, 2, 9, 8], [1, 2]);
    notice([1, 2, 9], [1, 2]);
    notice([1, 2], [1, 2]);
    notice([1, 2, 9], [1, 2]);
    expect(lines.map((l) => l.fields)).toEqual([
      { missing: 2, ids: [8, 9] },
      { missing: 1, ids: [9] },
      { missing: 1, ids: [9] },
    ]);
  });

  it('says nothing when every station is read, or none is picked', () => {
    const { log, lines } = recordingLog();
    const notice = missingIdsNotice(log);
    notice(undefined, [1]);
    notice([1], [1, 2]);
    expect(lines).toEqual([]);
  });

  it('names at most 20 ids in its line, and counts them all', () => {
    const { log, lines } = recordingLog();
    missingIdsNotice(log)(
      Array.from({ length: 30 }, (_, i) => 100 - i),
      [],
    );
    expect(lines[0]?.fields).toEqual({ missing: 30, ids: Array.from({ length: 20 }, (_, i) => 71 + i) });
  });
});

describe('workingNotice', () => {
  it('says when readings first work, stop working and work again, once each', () => {
    const { log, lines } = recordingLog();
    const notice = workingNotice(log);
    notice(false, { n: 1 });
    notice(true, { n: 2 });
    notice(true, { n: 3 });
    notice(false, { n: 4 });
    notice(false, { n: 5 });
    notice(true, { n: 6 });
    expect(lines.map((l) => [l.level, l.fields, l.msg])).toEqual([
      ['info', { n: 2 }, 'readings work: first successful round'],
      ['info', { n: 4 }, 'readings stopped working: every request of the round failed'],
      ['info', { n: 6 }, 'readings work again'],
    ]);
  });
});
