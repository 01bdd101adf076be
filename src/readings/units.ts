// The units a readings answer may name, read part by part. Hosts spell the same unit many ways (µ, μ, u, mc or
// мк for micro; ³ or 3; Latin or Cyrillic letters; any case or spacing), so each part is normalised and matched
// on its own instead of listing whole strings. A text that does not parse leaves its field out: nothing is
// exported unconverted.

export type Quantity = 'concentration' | 'temperature' | 'percent' | 'pressure';
export interface Unit {
  readonly quantity: Quantity;
  /** Multiplier to µg/m³, °C, ratio or Pa. */
  readonly factor: number;
}

// No unit text is longer; a longer one is refused before any work is spent on it.
const MAX_UNIT_LENGTH = 32;

/** Mass prefixes, each spelling to its weight in micrograms. */
const MASS_PREFIXES: ReadonlyMap<string, number> = new Map([
  ['', 1e6],
  ['m', 1e3],
  ['м', 1e3],
  ['μ', 1],
  ['u', 1],
  ['mc', 1],
  ['мк', 1],
  ['n', 1e-3],
  ['н', 1e-3],
]);
const CONCENTRATION = /^(|m|м|μ|u|mc|мк|n|н)(?:g|г)\/(?:m|м)(?:3|\^3)$/u;

const PRESSURE_PREFIXES: ReadonlyMap<string, number> = new Map([
  ['', 1],
  ['h', 100],
  ['г', 100],
  ['k', 1000],
  ['к', 1000],
]);
const PASCALS = /^(|h|г|k|к)(?:pa|па)$/u;
const MILLIBARS = /^(?:m|м)(?:bar|бар)$/u;
/** mm Hg, мм рт. ст. (dots are dropped before matching). */
const MM_HG = /^(?:mmhg|ммртст)$/u;
/** °C, ℃ (°c once normalised), degC, or a bare C; Latin or Cyrillic C. */
const CELSIUS = /^(?:°|deg)?(?:c|с)$/u;
const PERCENT = /^%(?:rh)?$/u;

// Every station of a host sends the same few unit texts: each is parsed once. The bound keeps a host that sends
// a new text every time from growing it.
const parsed = new Map<string, Unit | undefined>();
const MAX_PARSED = 256;

/**
 * The unit a text names, or undefined. NFKC folds the micro sign into Greek mu, ³ into 3 and ℃ into °C;
 * case and every Unicode space are ignored. Nothing beyond the forms above is guessed.
 */
export function recogniseUnit(text: string): Unit | undefined {
  if (text.length > MAX_UNIT_LENGTH) return undefined;
  if (parsed.has(text)) return parsed.get(text);
  const unit = parseUnit(text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ''));
  if (parsed.size < MAX_PARSED) parsed.set(text, unit);
  return unit;
}

function parseUnit(t: string): Unit | undefined {
  const mass = CONCENTRATION.exec(t);
  if (mass) return { quantity: 'concentration', factor: MASS_PREFIXES.get(mass[1] ?? '') ?? Number.NaN };
  if (CELSIUS.test(t)) return { quantity: 'temperature', factor: 1 };
  if (PERCENT.test(t)) return { quantity: 'percent', factor: 0.01 };
  const p = t.replace(/\./g, '');
  const pascals = PASCALS.exec(p);
  if (pascals) return { quantity: 'pressure', factor: PRESSURE_PREFIXES.get(pascals[1] ?? '') ?? Number.NaN };
  if (MILLIBARS.test(p)) return { quantity: 'pressure', factor: 100 };
  if (MM_HG.test(p)) return { quantity: 'pressure', factor: 133.322 };
  return undefined;
}
