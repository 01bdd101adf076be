import { describe, expect, it } from 'vitest';
import { validRows } from '../../src/readings/rows.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const at = (iso: string): number => Date.parse(iso);

const answer = (data: unknown[], units: unknown = { pm2: 'mg/m3' }) => ({ meta: { units }, data });

describe('validRows', () => {
  it('keeps the rows in the answer’s order, each with its time, and hands on the units', () => {
    const r = validRows(
      7,
      answer([
        { date: '2026-11-23T11:00:00+07:00', postId: 7, pm2: 1 },
        { date: '2026-11-23T11:40:00Z', postId: '7', pm2: 2 },
      ]),
      NOW,
    );
    expect(r).toEqual({
      ok: true,
      value: {
        rows: [
          { row: { date: '2026-11-23T11:00:00+07:00', postId: 7, pm2: 1 }, atMs: at('2026-11-23T04:00:00Z') },
          { row: { date: '2026-11-23T11:40:00Z', postId: '7', pm2: 2 }, atMs: at('2026-11-23T11:40:00Z') },
        ],
        units: { pm2: 'mg/m3' },
        counts: { rejectedRows: 0 },
      },
    });
  });

  it('drops rows without an offset in their date, naming another station or naming none, and counts them', () => {
    const r = validRows(
      7,
      answer([
        { date: '2026-11-23T11:00:00', postId: 7 },
        { date: '2026-11-23T11:00:00Z', postId: 8 },
        { date: 12345, postId: 7 },
        { date: '2026-11-23T11:10:00Z', postId: 7 },
        { date: '2026-11-23T11:20:00Z' },
      ]),
      NOW,
    );
    expect(r.ok && r.value.rows.map((x) => x.atMs)).toEqual([at('2026-11-23T11:10:00Z')]);
    expect(r.ok && r.value.counts).toEqual({ rejectedRows: 4 });
  });

  it('sets rows dated in the future apart, with the latest of their dates', () => {
    const r = validRows(
      7,
      answer([
        { date: '2026-11-23T11:59:00Z', postId: 7 },
        { date: '2026-11-23T12:04:00Z', postId: 7 },
        { date: '2026-11-23T13:00:00Z', postId: 7 },
        { date: '2026-11-23T12:30:00Z', postId: 7 },
      ]),
      NOW,
    );
    if (!r.ok) throw new Error(r.message);
    expect(r.value.rows.map((x) => x.atMs)).toEqual([at('2026-11-23T11:59:00Z'), at('2026-11-23T12:04:00Z')]);
    expect(r.value.counts).toEqual({
      rejectedRows: 0,
      futureRows: 2,
      newestFutureMs: at('2026-11-23T13:00:00Z'),
    });
  });

  it('takes an answer with no rows, or only future ones, as a station without a reading', () => {
    expect(validRows(7, answer([]), NOW)).toMatchObject({ ok: true, value: { rows: [] } });
    const future = validRows(7, answer([{ date: '2027-01-01T00:00:00Z', postId: 7 }]), NOW);
    expect(future).toMatchObject({ ok: true, value: { rows: [], counts: { futureRows: 1 } } });
    const futureAndBad = validRows(
      7,
      answer([
        { date: '2027-01-01T00:00:00Z', postId: 7 },
        { date: 'x', postId: 7 },
      ]),
      NOW,
    );
    expect(futureAndBad).toMatchObject({
      ok: true,
      value: { rows: [], counts: { rejectedRows: 1, futureRows: 1 } },
    });
  });

  it('reads an answer without meta or units as having no units', () => {
    const r = validRows(7, { data: [{ date: '2026-11-23T11:00:00Z', postId: 7 }] }, NOW);
    expect(r.ok && r.value.units).toEqual({});
    expect(validRows(7, answer([], null), NOW)).toMatchObject({ ok: true, value: { units: {} } });
  });

  it('fails an answer of the wrong shape, saying where', () => {
    expect(validRows(7, { data: 'no' }, NOW)).toMatchObject({
      ok: false,
      reason: 'invalid_payload',
      message: expect.stringMatching(/^readings answer: data: /),
    });
    expect(validRows(7, [], NOW)).toMatchObject({ ok: false, message: expect.stringContaining('(answer)') });
  });

  it('fails an answer none of whose rows is valid, naming the first problem', () => {
    const other = validRows(7, answer([{ date: '2026-11-23T11:00:00Z', postId: 99 }, { date: 'x' }]), NOW);
    expect(other).toEqual({
      ok: false,
      reason: 'invalid_payload',
      message: 'none of the 2 rows is valid; row 0: postId 99 is not station 7',
    });
    const undated = validRows(7, answer([{ date: 'yesterday', postId: 7 }]), NOW);
    expect(undated).toMatchObject({
      message: 'none of the 1 rows is valid; row 0: date is not an ISO time with an offset',
    });
  });

  it('refuses an overlong date without reading it', () => {
    const r = validRows(7, answer([{ date: `2026-11-23T11:00:00Z${' '.repeat(64)}`, postId: 7 }]), NOW);
    expect(r).toMatchObject({ ok: false, message: expect.stringContaining('row 0: date:') });
  });
});
