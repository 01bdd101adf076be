// What a converted reading may be. A value outside the physically possible range of its quantity is a broken
// sensor or a broken answer, never air: it is left out and counted (out_of_range), not exported. The README's
// table of ranges is this one.
import { roundToSignificant } from './precision.js';

export interface Range {
  readonly min: number;
  readonly max: number;
}

/** In the exported units: µg/m³, °C, ratio, Pa, index points. Both ends are allowed. */
export const PHYSICAL_RANGES = {
  /** No sensor reads a negative mass; 10 g/m³ is far above any air-quality sensor's full scale. */
  concentration: { min: 0, max: 1e7 },
  /** Air on Earth has been measured between −89.2 and 56.7 °C; a sensor housing in the sun reads more. */
  temperature: { min: -100, max: 100 },
  humidity: { min: 0, max: 1 },
  /** 300 hPa is above Everest's summit, 1,100 hPa above the highest sea-level record (1,084 hPa). */
  pressure: { min: 30_000, max: 110_000 },
  /** CityAir's own index is a 1–10 scale. */
  cityairAqi: { min: 1, max: 10 },
  /** Any other index: the US EPA scale ends at 500, and some sites report beyond it. */
  aqi: { min: 0, max: 1000 },
} as const satisfies Record<string, Range>;

/**
 * Converted values keep 12 significant digits: every digit a sensor sends survives, and the binary noise of
 * the multiplication (16.330000000000002 for 0.01633 mg/m³ × 1000), which sits near the 16th digit, does not.
 */
export const SIGNIFICANT_DIGITS = 12;

/** value × factor as a person would write it, or undefined when the result is not a possible reading. */
export function convertWithin(value: number, factor: number, range: Range): number | undefined {
  // A value that needs no conversion is printed as it was sent.
  const converted = factor === 1 ? value : roundToSignificant(value * factor, SIGNIFICANT_DIGITS);
  // Written so that NaN fails too; Infinity is outside every range.
  return converted >= range.min && converted <= range.max ? converted : undefined;
}

export const aqiRange = (label: string): Range =>
  label === 'cityair' ? PHYSICAL_RANGES.cityairAqi : PHYSICAL_RANGES.aqi;
