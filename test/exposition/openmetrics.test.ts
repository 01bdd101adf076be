import { describe, expect, it } from 'vitest';
import { textToOpenMetrics } from '../../src/exposition/openmetrics.js';

describe('textToOpenMetrics', () => {
  it('names a counter’s family without _total and keeps its samples', () => {
    const text = '# HELP x_total Requests.\n# TYPE x_total counter\nx_total 3\n';
    expect(textToOpenMetrics(text)).toBe('# HELP x Requests.\n# TYPE x counter\nx_total 3\n');
  });

  it('leaves gauges named _total alone', () => {
    const text = '# HELP g_total A gauge.\n# TYPE g_total gauge\ng_total 1\n';
    expect(textToOpenMetrics(text)).toBe(text);
  });

  it('escapes quotes in HELP and drops blank lines', () => {
    const text = '# HELP g Say "hi".\n# TYPE g gauge\n\ng{a="b"} 1\n\n';
    expect(textToOpenMetrics(text)).toBe('# HELP g Say \\"hi\\".\n# TYPE g gauge\ng{a="b"} 1\n');
  });

  it('keeps a HELP without text', () => {
    expect(textToOpenMetrics('# HELP g\n# TYPE g gauge\ng 1\n')).toBe('# HELP g \n# TYPE g gauge\ng 1\n');
  });
});
