import { describe, expect, it } from 'vitest';
import { WORDS } from '../../src/report/words.js';

/** Every path to a string in an object, with the string. */
function leaves(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value !== 'object' || value === null) return [[path, String(value)]];
  return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
}

describe('WORDS', () => {
  it('has every word in both languages, none of them empty', () => {
    const ru = leaves(WORDS.ru);
    const en = leaves(WORDS.en);
    expect(ru.map(([p]) => p)).toEqual(en.map(([p]) => p));
    expect([...ru, ...en].filter(([, w]) => w.trim() === '')).toEqual([]);
  });

  it('names the four pollution levels as the reviews do', () => {
    expect(Object.values(WORDS.ru.levels)).toEqual(['низкий', 'повышенный', 'высокий', 'очень высокий']);
  });

  it('writes Russian text in Russian and English text without Cyrillic, bar the reviews’ own terms', () => {
    const english = leaves(WORDS.en).filter(([, w]) =>
      /[а-яё]/i.test(w.replace(/ПДК|ИЗА|СИ|НП|П|[мс]\.[рсг]\./g, '')),
    );
    expect(english).toEqual([]);
  });
});
