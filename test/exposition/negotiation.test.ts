import { Counter, Gauge, Histogram, Registry, type RegistryContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, negotiateFormat } from '../../src/exposition/negotiation.js';
import { textToOpenMetrics } from '../../src/exposition/openmetrics.js';
import {
  PROMETHEUS_2_ACCEPT,
  PROMETHEUS_3_ACCEPT,
  PROMETHEUS_3_PROTOBUF_FIRST,
} from '../support/prometheus-headers.js';

describe('format negotiation', () => {
  it.each([
    [PROMETHEUS_2_ACCEPT, 'openmetrics'],
    [PROMETHEUS_3_ACCEPT, 'openmetrics'],
    [PROMETHEUS_3_PROTOBUF_FIRST, 'openmetrics'],
    ['text/plain;version=0.0.4;q=1,application/openmetrics-text;version=1.0.0;q=0.5', 'text'],
    ['application/openmetrics-text', 'openmetrics'],
    ['application/openmetrics-text;version=0.0.1', 'text'],
    ['*/*', 'text'],
    [undefined, 'text'],
    ['', 'text'],
    ['application/json', 'text'],
    ['application/openmetrics-text;q=0', 'text'],
    ['application/openmetrics-text;q=abc', 'text'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text'],
  ])('%s → %s', (accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
  });

  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['gzip;q=0', false],
    ['identity', false],
    ['*', true],
    ['*;q=0.5, gzip;q=0', false],
    [undefined, false],
  ])('Accept-Encoding %s → gzip %s', (header, gzip) => {
    expect(acceptsGzip(header)).toBe(gzip);
  });
});

describe('OpenMetrics conversion of the exporter series', () => {
  // The same families in two fresh registries: prom-client renders OpenMetrics itself in one (its rendering is
  // the reference), text in the other, which we convert.
  function registry(
    contentType: typeof Registry.OPENMETRICS_CONTENT_TYPE | typeof Registry.PROMETHEUS_CONTENT_TYPE,
    help = 'Requests, with a \\ backslash.',
  ) {
    const r = new Registry<RegistryContentType>();
    r.setContentType(contentType);
    const c = new Counter({ name: 'x_requests_total', help, labelNames: ['reason'], registers: [r] });
    c.inc({ reason: 'a"b' }, 3);
    new Gauge({ name: 'x_up', help: 'Up.', registers: [r] }).set(1);
    new Gauge({ name: 'x_build_info', help: 'Build.', labelNames: ['v'], registers: [r] }).set(
      { v: '1\n2' },
      1,
    );
    const h = new Histogram({
      name: 'x_duration_seconds',
      help: 'Duration.',
      buckets: [0.1, 1],
      registers: [r],
    });
    h.observe(0.5);
    return r;
  }

  it('matches prom-client’s own OpenMetrics output', async () => {
    const reference = await registry(Registry.OPENMETRICS_CONTENT_TYPE).metrics();
    const ours = `${textToOpenMetrics(await registry(Registry.PROMETHEUS_CONTENT_TYPE).metrics())}# EOF\n`;
    expect(ours).toBe(reference);
    expect(ours).toContain('# TYPE x_requests counter\nx_requests_total{reason="a\\"b"} 3\n');
    expect(ours).not.toMatch(/\n\n/);
  });

  it('escapes quotes in HELP, which OpenMetrics requires and prom-client does not do', async () => {
    const text = await registry(Registry.PROMETHEUS_CONTENT_TYPE, 'Says "hi" \\ bye.').metrics();
    // OpenMetrics ABNF: HELP is an escaped-string, in which a double quote appears only as \".
    expect(textToOpenMetrics(text)).toContain('# HELP x_requests Says \\"hi\\" \\\\ bye.\n');
  });
});
