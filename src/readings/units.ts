// The units a readings answer may name, and how each converts to the exported base unit. Only the spellings
// listed here are recognised: a unit outside them leaves its field out, never exported unconverted.

export type Quantity = 'concentration' | 'temperature' | 'percent' | 'pressure';
export interface Unit {
  readonly quantity: Quantity;
  /** Multiplier to µg/m³, °C, ratio or Pa. */
  readonly factor: number;
}

// Keys are the unit text lowercased with every space removed: exactly the spellings the readings issue lists.
const UNITS: ReadonlyMap<string, Unit> = new Map<string, Unit>([
  ['mg/m³', { quantity: 'concentration', factor: 1000 }],
  ['mg/m3', { quantity: 'concentration', factor: 1000 }],
  ['мг/м³', { quantity: 'concentration', factor: 1000 }],
  ['\u00b5g/m³', { quantity: 'concentration', factor: 1 }],
  ['\u03bcg/m³', { quantity: 'concentration', factor: 1 }],
  ['ug/m3', { quantity: 'concentration', factor: 1 }],
  ['мкг/м³', { quantity: 'concentration', factor: 1 }],
  ['°c', { quantity: 'temperature', factor: 1 }],
  ['℃', { quantity: 'temperature', factor: 1 }],
  ['c', { quantity: 'temperature', factor: 1 }],
  ['%', { quantity: 'percent', factor: 0.01 }],
  ['mmhg', { quantity: 'pressure', factor: 133.322 }],
  ['ммрт.ст.', { quantity: 'pressure', factor: 133.322 }],
  ['hpa', { quantity: 'pressure', factor: 100 }],
  ['гпа', { quantity: 'pressure', factor: 100 }],
  ['mbar', { quantity: 'pressure', factor: 100 }],
  ['kpa', { quantity: 'pressure', factor: 1000 }],
  ['pa', { quantity: 'pressure', factor: 1 }],
]);

/** The unit a text names, or undefined: case and spaces (any Unicode space) do not matter, nothing else is guessed. */
export function recogniseUnit(text: string): Unit | undefined {
  return UNITS.get(text.toLowerCase().replace(/\s+/gu, ''));
}
