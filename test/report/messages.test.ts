import { describe, expect, it } from 'vitest';
import { type Gap, gapMessage, russianPlural, SAMPLES_RU } from '../../src/report/messages.js';

describe('russianPlural', () => {
  it.each([
    [1, 'отсчёт'],
    [2, 'отсчёта'],
    [4, 'отсчёта'],
    [5, 'отсчётов'],
    [11, 'отсчётов'],
    [12, 'отсчётов'],
    [14, 'отсчётов'],
    [21, 'отсчёт'],
    [22, 'отсчёта'],
    [111, 'отсчётов'],
    [0, 'отсчётов'],
  ])('%i %s', (n, form) => {
    expect(russianPlural(n, SAMPLES_RU)).toBe(form);
  });
});

describe('gapMessage', () => {
  const gap: Gap = { stationId: '7', fromMs: 0, toMs: 1, message: 'store said: timeout' };

  it('hands on the store’s own error as it came, in either language', () => {
    expect(gapMessage(gap, 'ru')).toBe('store said: timeout');
    expect(gapMessage(gap, 'en')).toBe('store said: timeout');
  });

  it('says the report’s own reasons in the report’s language', () => {
    const unpaired: Gap = {
      ...gap,
      message: 'in English',
      reason: {
        kind: 'unpaired',
        substance: 'no2',
        count: 21,
        rowTime: 'cityair_measurement_timestamp_seconds',
      },
    };
    expect(gapMessage(unpaired, 'ru')).toMatch(
      /^не учтено 21 отсчёт no2 без cityair_measurement_timestamp_seconds/,
    );
    expect(gapMessage(unpaired, 'en')).toMatch(
      /^21 samples of no2 have no cityair_measurement_timestamp_seconds/,
    );
    expect(gapMessage({ ...gap, reason: { kind: 'noReadings' } }, 'en')).toBe(
      'no readings in the store for the period',
    );
    expect(gapMessage({ ...gap, reason: { kind: 'noMatch' } }, 'ru')).toBe(
      'в хранилище нет показаний, подходящих под выбор',
    );
  });
});
