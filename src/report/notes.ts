// The report's notes: what a reader must know to read its figures right, beyond the rules in UNCONFIRMED_RULES
// (a period cut across clock slots or days, readings left out and why: negative concentrations, late samples). Both the page and the JSON state them.
import { SINGLE_SLOT_MS } from '../norms/reporting.js';
import { russianPlural, SAMPLES_RU } from './messages.js';
import { type Lang, offsetText } from './numbers.js';
import type { Report } from './read.js';
import { DAY_MS, onBoundaries } from './series.js';

const NEGATIVE_RU = ['отрицательное значение', 'отрицательных значения', 'отрицательных значений'] as const;

const TEXT = {
  ru: {
    slots:
      'Период начинается или кончается не на границе 20-минутного интервала (:00, :20, :40): крайние интервалы дают разовое значение только по строкам внутри периода.',
    days: 'Период начинается или кончается не в полночь ({clock}): крайние сутки содержат только часы внутри периода и учитываются, лишь если из них 18 часов с данными.',
    late: 'Не учтено: {n} {samples} строк, записанных в хранилище раньше времени строки или более чем через двое суток после него.',
    impossible:
      'Станция {station}, {substance}: не учтено {n} {values} концентрации (концентрация не может быть отрицательной).',
  },
  en: {
    slots:
      'The period starts or ends off a 20-minute slot boundary (:00, :20, :40): its edge slots give a single value from the rows inside the period only.',
    days: 'The period starts or ends off midnight ({clock}): its edge days hold only the hours inside the period and count only when 18 of those hold readings.',
    late: '{n} samples of rows stored before the row’s own time or more than two days after it were not counted.',
    impossible:
      'Station {station}, {substance}: {n} negative concentrations left out (a concentration cannot be negative).',
  },
} as const;

export function reportNotes(report: Report, lang: Lang): string[] {
  const t = TEXT[lang];
  const { period } = report.request;
  const notes: string[] = [];
  if (!onBoundaries(period, SINGLE_SLOT_MS)) notes.push(t.slots);
  if (!onBoundaries(period, DAY_MS))
    notes.push(t.days.replace('{clock}', offsetText(period.offsetMinutes ?? 0)));
  for (const station of report.stations)
    for (const s of station.series)
      if (s.impossibleRows > 0)
        notes.push(
          t.impossible
            .replace('{station}', station.name ? `${station.name} (${station.id})` : station.id)
            .replace('{substance}', s.substance)
            .replace('{n}', String(s.impossibleRows))
            .replace('{values}', russianPlural(s.impossibleRows, NEGATIVE_RU)),
        );
  if (report.lateSamples > 0)
    notes.push(
      t.late
        .replace('{n}', String(report.lateSamples))
        .replace('{samples}', russianPlural(report.lateSamples, SAMPLES_RU)),
    );
  return notes;
}
