import { describe, expect, it } from 'vitest';
import { familyHeader, singleSample } from '../../src/exposition/gauge-text.js';

const spec = { name: 'cityair_test', type: 'gauge', labels: [], help: 'A test\nof "help" \\ text.' } as const;

describe('familyHeader', () => {
  it('writes HELP with its text escaped, then TYPE', () => {
    expect(familyHeader(spec)).toBe(
      '# HELP cityair_test A test\\nof "help" \\\\ text.\n# TYPE cityair_test gauge\n',
    );
  });
});

describe('singleSample', () => {
  it('writes the header and the one sample, numbers as prom-client writes them', () => {
    expect(singleSample(spec, 0.25)).toBe(`${familyHeader(spec)}cityair_test 0.25\n`);
    expect(singleSample(spec, 1_700_000_000.5)).toMatch(/\ncityair_test 1700000000\.5\n$/);
    expect(singleSample(spec, Number.NaN)).toMatch(/\ncityair_test NaN\n$/);
  });
});
