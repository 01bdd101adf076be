// The record's metrics as a scrape shows them: every label value there from the start at 0, counters that add
// up round after round, gauges that tell the last round, a failed round that leaves the last success alone, and
// names that pass promtool's lint.
import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createRecordMetrics, RECORD_METRICS } from '../../src/record/metrics.js';
import type { RecordRoundResult } from '../../src/record/round.js';
import { checkMetrics } from '../support/promtool.js';

const T0 = Date.UTC(2026, 10, 27, 12);

const round = (over: Partial<RecordRoundResult> = {}): RecordRoundResult => ({
  outcome: 'complete',
  failures: {},
  gapsFound: 0,
  gapsAsked: 0,
  rowsMissing: 0,
  rowsWritten: 0,
  unfilled: { no_rows: 0, not_served: 0, failed: 0 },
  upstreamRequests: 0,
  stationsFilled: 0,
  quiet: new Map(),
  filled: new Map(),
  ...over,
});

/** Each sample line of the scrape: `name{labels}` → value. */
async function scrape(registry: Registry): Promise<Map<string, number>> {
  const text = await registry.metrics();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

describe('the record’s metrics', () => {
  it('hold every series and label value the kit’s record alert selects, from the start', async () => {
    const rules = readFileSync(new URL('../../deploy/prometheus/cityair-rules.yml', import.meta.url), 'utf8');
    const selectors = [...rules.matchAll(/(cityair_record_\w+)(?:\{(\w+)(=~?)"([^"]+)"\})?/g)];
    expect(selectors.length).toBeGreaterThanOrEqual(2);
    const registry = new Registry();
    createRecordMetrics(registry);
    const seen = [...(await scrape(registry)).keys()];
    for (const [, name, label, op, value] of selectors) {
      if (label === undefined) {
        expect(
          seen.some((k) => k === name || k.startsWith(`${name}{`)),
          `${name}`,
        ).toBe(true);
        continue;
      }
      for (const one of op === '=~' ? (value ?? '').split('|') : [value])
        expect(seen, `${name}{${label}="${one}"}`).toContain(`${name}{${label}="${one}"}`);
    }
  });

  it('show every outcome, failure reason and unfilled reason at 0 before the first round', async () => {
    const registry = new Registry();
    createRecordMetrics(registry);
    const seen = await scrape(registry);
    for (const outcome of ['complete', 'partial', 'failed'])
      expect(seen.get(`cityair_record_rounds_total{outcome="${outcome}"}`)).toBe(0);
    for (const reason of ['query', 'write', 'upstream'])
      expect(seen.get(`cityair_record_failures_total{reason="${reason}"}`)).toBe(0);
    for (const reason of ['no_rows', 'not_served', 'failed'])
      expect(seen.get(`cityair_record_unfilled_gaps{reason="${reason}"}`)).toBe(0);
    // 0 until a round succeeds: "never", which an age alert takes for very old.
    expect(seen.get('cityair_record_last_success_timestamp_seconds')).toBe(0);
  });

  it('add the rounds’ counts up and tell the last round’s gaps, duration and success', async () => {
    const registry = new Registry();
    const metrics = createRecordMetrics(registry);
    metrics.count(
      round({
        outcome: 'partial',
        failures: { upstream: 'timeout' },
        gapsFound: 3,
        rowsMissing: 10,
        rowsWritten: 8,
        unfilled: { no_rows: 1, not_served: 0, failed: 1 },
        upstreamRequests: 4,
      }),
      T0,
      1.5,
    );
    metrics.storeQueries(3);
    metrics.count(
      round({ gapsFound: 1, rowsMissing: 2, rowsWritten: 2, upstreamRequests: 1 }),
      T0 + 900_000,
      0.25,
    );
    metrics.storeQueries(2);
    const seen = await scrape(registry);
    expect(seen.get('cityair_record_rounds_total{outcome="partial"}')).toBe(1);
    expect(seen.get('cityair_record_rounds_total{outcome="complete"}')).toBe(1);
    expect(seen.get('cityair_record_failures_total{reason="upstream"}')).toBe(1);
    expect(seen.get('cityair_record_failures_total{reason="query"}')).toBe(0);
    expect(seen.get('cityair_record_missing_rows_total')).toBe(12);
    expect(seen.get('cityair_record_written_rows_total')).toBe(10);
    expect(seen.get('cityair_record_upstream_requests_total')).toBe(5);
    expect(seen.get('cityair_record_store_queries_total')).toBe(5);
    // Gauges are the last round's, not a sum.
    expect(seen.get('cityair_record_gaps')).toBe(1);
    expect(seen.get('cityair_record_unfilled_gaps{reason="no_rows"}')).toBe(0);
    expect(seen.get('cityair_record_unfilled_gaps{reason="failed"}')).toBe(0);
    expect(seen.get('cityair_record_last_round_duration_seconds')).toBe(0.25);
    expect(seen.get('cityair_record_last_success_timestamp_seconds')).toBe((T0 + 900_000) / 1000);
  });

  it('leave the last success where it was after a failed round, and count its failures', async () => {
    const registry = new Registry();
    const metrics = createRecordMetrics(registry);
    metrics.count(round(), T0, 1);
    metrics.count(
      round({ outcome: 'failed', failures: { query: 'HTTP 503', write: 'refused' } }),
      T0 + 900_000,
      2,
    );
    const seen = await scrape(registry);
    expect(seen.get('cityair_record_last_success_timestamp_seconds')).toBe(T0 / 1000);
    expect(seen.get('cityair_record_rounds_total{outcome="failed"}')).toBe(1);
    expect(seen.get('cityair_record_failures_total{reason="query"}')).toBe(1);
    expect(seen.get('cityair_record_failures_total{reason="write"}')).toBe(1);
    expect(seen.get('cityair_record_failures_total{reason="upstream"}')).toBe(0);
    expect(seen.get('cityair_record_last_round_duration_seconds')).toBe(2);
  });

  it('are all in the table, and pass promtool check metrics with no finding', async () => {
    const registry = new Registry();
    const metrics = createRecordMetrics(registry);
    metrics.count(
      round({ outcome: 'partial', failures: { upstream: 'timeout' }, gapsFound: 3, rowsWritten: 10 }),
      T0,
      1.5,
    );
    metrics.storeQueries(3);
    const text = await registry.metrics();
    const names = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]);
    expect(names.sort()).toEqual(
      Object.values(RECORD_METRICS)
        .map((m) => m.name)
        .sort(),
    );
    const lint = checkMetrics(text);
    if (lint) expect(lint).toEqual({ code: 0, findings: '' });
  });
});
