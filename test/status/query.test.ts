import { describe, expect, it } from 'vitest';
import { parseStatusQuery } from '../../src/status/query.js';

describe('parseStatusQuery', () => {
  it('takes the first q, drops control characters and caps the length', () => {
    expect(parseStatusQuery({ q: ['a', 'b'] })).toEqual({ q: 'a' });
    expect(parseStatusQuery({ q: ' x\u0000y\n ' })).toEqual({ q: 'xy' });
    expect(parseStatusQuery({ q: 'z'.repeat(500) }).q).toHaveLength(100);
  });

  it('means no filter for anything malformed', () => {
    expect(parseStatusQuery({ q: { nested: 1 } })).toEqual({ q: '' });
    expect(parseStatusQuery({ q: [] })).toEqual({ q: '' });
    expect(parseStatusQuery(undefined)).toEqual({ q: '' });
    expect(parseStatusQuery('q=x')).toEqual({ q: '' });
    expect(parseStatusQuery({ other: 'x' })).toEqual({ q: '' });
  });
});
