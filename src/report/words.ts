// The report's words in Russian (the terms of Roshydromet's reviews) and English.
import type { Indicator, Level } from '../norms/reporting.js';
import type { Resolution } from './figures.js';
import type { Lang } from './numbers.js';

interface Words {
  readonly title: string;
  readonly period: string;
  readonly generated: string;
  readonly incomplete: string;
  readonly complete: string;
  readonly network: string;
  readonly level: string;
  readonly levels: Readonly<Record<Level, string>>;
  readonly indicators: Readonly<Record<Indicator, string>>;
  readonly setBy: string;
  readonly capture: string;
  readonly lowestCapture: string;
  readonly noData: string;
  readonly station: string;
  readonly substance: string;
  readonly resolutions: Readonly<Record<Resolution, string>>;
  readonly notes: string;
  readonly rules: string;
  readonly izaTerms: string;
  readonly izaNotYear: string;
  readonly meansOnly: string;
  readonly chartLegend: string;
  readonly chartLegendMeans: string;
  readonly missing: string;
  readonly stations: string;
  readonly queries: string;
}

export const WORDS: Readonly<Record<Lang, Words>> = {
  ru: {
    title: 'Качество атмосферного воздуха: сводка за период',
    period: 'Период',
    generated: 'Составлено',
    incomplete: 'ОТЧЁТ НЕПОЛНЫЙ: хранилище не выдало часть данных',
    complete: 'полный',
    network: 'Сеть',
    level: 'Уровень загрязнения',
    levels: { 1: 'низкий', 2: 'повышенный', 3: 'высокий', 4: 'очень высокий' },
    indicators: { si: 'СИ', np: 'НП', iza: 'ИЗА' },
    setBy: 'определён по',
    capture: 'Полнота данных',
    lowestCapture: 'наименьшая',
    noData: 'нет данных',
    station: 'Станция',
    substance: 'Вещество',
    resolutions: {
      single: '20-минутные разовые значения',
      hourly: 'только среднечасовые строки: нет СИ и П',
      daily: 'только среднесуточные строки: нет СИ и П',
      unknown: 'шаг строк неизвестен (одна строка): взята как часовая, нет СИ и П',
      none: 'нет данных',
    },
    notes: 'Примечания',
    rules: 'Принятые правила (не подтверждены нормативными документами)',
    izaTerms: 'Слагаемые ИЗА5',
    izaNotYear: 'ИЗА рассчитывается только за год.',
    meansOnly:
      'Станция без 20-минутных данных (строки раз в час или в сутки) не имеет разовых значений: для неё нет СИ, П и счёта превышений ПДК м.р., только средние.',
    chartLegend: 'разовые значения (максимум за интервал графика) и ПДК м.р.; среднесуточные и ПДК с.с.',
    chartLegendMeans: 'среднесуточные и ПДК с.с. (разовых значений нет: строки раз в час или в сутки)',
    missing: 'Не получено',
    stations: 'Станций',
    queries: 'запросов к хранилищу',
  },
  en: {
    title: 'Air quality: summary of the period',
    period: 'Period',
    generated: 'Generated',
    incomplete: 'INCOMPLETE REPORT: the store did not give part of the data',
    complete: 'complete',
    network: 'Network',
    level: 'Pollution level',
    levels: { 1: 'low', 2: 'elevated', 3: 'high', 4: 'very high' },
    indicators: {
      si: 'СИ (standard index)',
      np: 'НП (greatest exceedance frequency)',
      iza: 'ИЗА5 (pollution index)',
    },
    setBy: 'set by',
    capture: 'Data capture',
    lowestCapture: 'lowest',
    noData: 'no data',
    station: 'Station',
    substance: 'Substance',
    resolutions: {
      single: '20-minute single values',
      hourly: 'hourly rows only: no СИ, no П',
      daily: 'daily rows only: no СИ, no П',
      unknown: 'cadence unknown (one row): taken as hourly, no СИ, no П',
      none: 'no data',
    },
    notes: 'Notes',
    rules: 'Rules applied (not confirmed by the governing texts)',
    izaTerms: 'Terms of ИЗА5',
    izaNotYear: 'ИЗА is computed for a year only.',
    meansOnly:
      'A station without 20-minute data (rows hourly or daily) has no single values: no СИ, no П and no counts above ПДК м.р., means only.',
    chartLegend: 'single values (highest in each chart step) and ПДК м.р.; daily means and ПДК с.с.',
    chartLegendMeans: 'daily means and ПДК с.с. (no single values: rows hourly or daily)',
    missing: 'Not received',
    stations: 'Stations',
    queries: 'store queries',
  },
};
