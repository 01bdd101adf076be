// A reading's cell on the status page: the colour of its band and the multiple written beside it must say the same
// thing, at the band edges too.
import { describe, expect, it } from 'vitest';
import { normValue } from '../../src/norms/lookup.js';
import { concentrationCell } from '../../src/readings/status-html.js';

const PDK = normValue('pm2.5', 'pdk-single') as number;

/** The band class and the multiple written in a cell. */
function cell(value: number): { band: string; shown: string } {
  const html = concentrationCell('pm2.5', value);
  return {
    band: /class="(b\d)"/.exec(html)?.[1] ?? '',
    shown: /<span class="x">([^<]+)<\/span>/.exec(html)?.[1] ?? '',
  };
}

describe('a reading against ПДК м.р. on the status page', () => {
  it.each([
    [PDK * 1.0375, '1.0×', 'b0'],
    [PDK * 1.06, '1.1×', 'b1'],
    [PDK * 1.997, '2.0×', 'b1'],
    [PDK * 2.003, '2.0×', 'b1'],
    [PDK * 2.06, '2.1×', 'b2'],
    [PDK * 5.0025, '5.0×', 'b2'],
    [PDK * 5.06, '5.1×', 'b3'],
    [PDK * 0.996, '1.0×', 'b0'],
    [PDK * 0.5, '0.50×', 'b0'],
  ])('colours %f µg/m³ as the multiple it shows (%s, %s)', (value, shown, band) => {
    expect(cell(value)).toEqual({ band, shown });
  });
});
