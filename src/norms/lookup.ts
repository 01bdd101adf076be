// Questions asked of the norms table: a substance's value in a family, and the band a multiple falls in.
import { BAND_LIMITS, NORMS, type Norm, type NormFamily, SUBSTANCE_NAMES, type Substance } from './table.js';

/** The norms of one family, in the table's order of substances. */
export function normsOf(family: NormFamily): readonly Norm[] {
  const order = Object.keys(SUBSTANCE_NAMES);
  return NORMS.filter((n) => n.family === family).sort(
    (a, b) => order.indexOf(a.substance) - order.indexOf(b.substance),
  );
}

/** The value in µg/m³, or undefined where the norm sets none (or the substance is not one of the table's). */
export function normValue(substance: string, family: NormFamily): number | undefined {
  return NORMS.find((n) => n.family === family && n.substance === substance)?.ugPerM3;
}

export function isSubstance(label: string): label is Substance {
  return Object.hasOwn(SUBSTANCE_NAMES, label);
}

/** 0: at most 1× the norm; 1: above 1 up to 2; 2: above 2 up to 5; 3: above 5. */
export type Band = 0 | 1 | 2 | 3;

export function bandOf(multiple: number): Band {
  const above = BAND_LIMITS.filter((limit) => multiple > limit).length;
  return above as Band;
}

/** How each band is written in a legend: "≤ 1", "1–2", "2–5", "> 5". */
export function bandLabels(): readonly string[] {
  const [first] = BAND_LIMITS;
  const last = BAND_LIMITS[BAND_LIMITS.length - 1];
  const middle = BAND_LIMITS.slice(1).map((limit, i) => `${BAND_LIMITS[i]}–${limit}`);
  return [`≤ ${first}`, ...middle, `> ${last}`];
}

export interface Highest {
  readonly substance: Substance;
  readonly multiple: number;
}

/** Of the concentrations (µg/m³ by substance label), the one that stands highest against its norm in the family. */
export function highestMultiple(
  concentrations: Iterable<readonly [string, number]>,
  family: NormFamily,
): Highest | undefined {
  let highest: Highest | undefined;
  for (const [substance, value] of concentrations) {
    const norm = normValue(substance, family);
    if (norm === undefined || !isSubstance(substance) || !Number.isFinite(value)) continue;
    const multiple = value / norm;
    if (!highest || multiple > highest.multiple) highest = { substance, multiple };
  }
  return highest;
}
