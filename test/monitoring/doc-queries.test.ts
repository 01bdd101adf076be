// The PromQL of the documentation, in process: what counts as a query, and that each one parses. The same queries
// run against a real Prometheus in prometheus-live.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { allDocumentedQueries, blockQueries, inlineQueries } from './doc-queries.js';
import { parsePromql } from './promql.js';

describe('the queries of the documentation', () => {
  const queries = allDocumentedQueries();

  it('finds the README examples, the alert conditions and the runbook queries', () => {
    expect(queries.length).toBeGreaterThanOrEqual(25);
    const files = new Set(queries.map((q) => q.where.split(':')[0]));
    expect([...files].sort()).toEqual([
      'README.md',
      'docs/dashboards-and-alerts.md',
      'docs/kubernetes.md',
      'docs/runbook.md',
    ]);
    expect(queries.map((q) => q.expr)).toContain('min_over_time(cityair_station_online[1h]) == 0');
  });

  it.each(queries.map((q) => [q.where, q.expr]))('%s parses: %s', (_where, expr) => {
    expect(parsePromql(expr).errors).toEqual([]);
  });
});

describe('reading queries out of Markdown', () => {
  it('splits a promql block at comments and blank lines, keeping indented lines with their query', () => {
    expect(blockQueries('# a\nx\n  * on (id) y\n\n# b\nz > 1\n')).toEqual([
      { expr: 'x\n  * on (id) y', line: 1 },
      { expr: 'z > 1', line: 5 },
    ]);
  });

  it.each([
    ['fires when `cityair_up == 0` for 10m', ['cityair_up == 0']],
    ['run `sum by (reason) (rate(x_total[5m]))`', ['sum by (reason) (rate(x_total[5m]))']],
    ['in a table: `a{job=~"x\\|y"}`', ['a{job=~"x|y"}']],
    ['see `src/app.ts`, `A<T>`, `deploy/kubernetes` and `dashboards/`', []],
    ['`rate()`, `label_values(cityair_up, job)`, `nodejs_lag_{min,max}_seconds`', []],
    ["`curl -s http://x:9610/metrics | grep -E '^cityair_(up)'`", []],
    ['`healthcheck: {disable: true}` or `--flag=x`', []],
  ])('takes from %j the queries %j', (line, want) => {
    expect(inlineQueries(line)).toEqual(want);
  });
});
