// The report's own messages about what it could not count, in the report's language: the store's own errors stay
// as the store gave them.
import type { Lang } from './numbers.js';

/** Why a part of the report is missing, when the report itself decided it (not the store's error). */
export type GapReason =
  | {
      readonly kind: 'unpaired';
      readonly substance: string;
      readonly count: number;
      readonly rowTime: string;
    }
  | { readonly kind: 'noReadings' }
  | { readonly kind: 'noMatch' };

/** A part of the report the store did not give, or the report could not count. */
export interface Gap {
  readonly stationId: string | undefined;
  readonly fromMs: number;
  readonly toMs: number;
  /** The store's error, or the report's own reason in English (`reason` gives it in the report's language). */
  readonly message: string;
  readonly reason?: GapReason;
}

/** The Russian form of a noun after `n`: 1 отсчёт, 2 отсчёта, 5 отсчётов, 11–14 отсчётов, 21 отсчёт. */
export function russianPlural(n: number, forms: readonly [string, string, string]): string {
  const tens = Math.abs(n) % 100;
  const ones = tens % 10;
  if (tens >= 11 && tens <= 14) return forms[2];
  if (ones === 1) return forms[0];
  if (ones >= 2 && ones <= 4) return forms[1];
  return forms[2];
}

export const SAMPLES_RU = ['отсчёт', 'отсчёта', 'отсчётов'] as const;

function reasonText(reason: GapReason, lang: Lang): string {
  if (reason.kind === 'noReadings')
    return lang === 'ru' ? 'в хранилище нет показаний за период' : 'no readings in the store for the period';
  if (reason.kind === 'noMatch')
    return lang === 'ru'
      ? 'в хранилище нет показаний, подходящих под выбор'
      : 'no readings in the store match the selection';
  const { count, substance, rowTime } = reason;
  return lang === 'ru'
    ? `не учтено ${count} ${russianPlural(count, SAMPLES_RU)} ${substance} без ${rowTime} рядом в хранилище: строки не отличить от повторных опросов`
    : `${count} samples of ${substance} have no ${rowTime} beside them in the store, so rows cannot be told from repeated scrapes; they are not counted`;
}

/** A gap's message in the report's language. */
export const gapMessage = (gap: Gap, lang: Lang): string =>
  gap.reason === undefined ? gap.message : reasonText(gap.reason, lang);
