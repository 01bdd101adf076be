import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { REQUEST_DURATION_BUCKETS } from '../../src/exposition/catalog.js';
import { createRequestMetrics } from '../../src/exposition/request-metrics.js';
import { FAILURE_REASONS } from '../../src/upstream/failure.js';

const SPECS = {
  requests: { name: 'cityair_t_requests_total', type: 'counter', labels: [], help: 'Requests.' },
  failures: {
    name: 'cityair_t_request_failures_total',
    type: 'counter',
    labels: ['reason'],
    help: 'Failures.',
  },
  requestDuration: {
    name: 'cityair_t_request_duration_seconds',
    type: 'histogram',
    labels: [],
    help: 'Time.',
  },
} as const;

const sample = (text: string, series: string): string | undefined =>
  text
    .split('\n')
    .find((l) => l.startsWith(`${series} `))
    ?.split(' ')[1];

describe('createRequestMetrics', () => {
  it('shows every failure reason at 0 before any request', async () => {
    const registry = new Registry();
    createRequestMetrics(registry, SPECS);
    const text = await registry.metrics();
    for (const reason of FAILURE_REASONS) {
      expect(sample(text, `cityair_t_request_failures_total{reason="${reason}"}`), reason).toBe('0');
    }
    expect(sample(text, 'cityair_t_requests_total')).toBe('0');
  });

  it('counts each request, each failure by its reason, and its duration', async () => {
    const registry = new Registry();
    const record = createRequestMetrics(registry, SPECS);
    record({ ok: true }, 0.2);
    record({ ok: false, reason: 'timeout' }, 12);
    record({ ok: false, reason: 'timeout' }, 40);
    const text = await registry.metrics();
    expect(sample(text, 'cityair_t_requests_total')).toBe('3');
    expect(sample(text, 'cityair_t_request_failures_total{reason="timeout"}')).toBe('2');
    expect(sample(text, 'cityair_t_request_failures_total{reason="auth"}')).toBe('0');
    expect(sample(text, 'cityair_t_request_duration_seconds_count')).toBe('3');
    expect(sample(text, 'cityair_t_request_duration_seconds_sum')).toBe('52.2');
    expect(sample(text, 'cityair_t_request_duration_seconds_bucket{le="0.25"}')).toBe('1');
    expect(sample(text, 'cityair_t_request_duration_seconds_bucket{le="30"}')).toBe('2');
    const les = [...text.matchAll(/_bucket\{le="([^"]+)"\}/g)].map((m) => m[1]);
    expect(les).toEqual([...REQUEST_DURATION_BUCKETS.map(String), '+Inf']);
  });
});
