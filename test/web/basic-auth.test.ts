import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { createBasicAuth, createSerializer, parseBasic } from '../../src/web/basic-auth.js';
import { basic } from '../security/helpers.js';

describe('basic auth', () => {
  it('parses the Authorization header as RFC 7617 says', () => {
    expect(parseBasic(basic('u', 'p:w'))).toEqual({ user: 'u', password: 'p:w' });
    expect(parseBasic(`bAsIc ${Buffer.from('u:').toString('base64')}`)).toEqual({ user: 'u', password: '' });
    expect(parseBasic('Bearer abc')).toBeUndefined();
    expect(parseBasic(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeUndefined();
    expect(parseBasic(undefined)).toBeUndefined();
  });

  it('accepts the right password, refuses others, and spends a bcrypt comparison on unknown users too', async () => {
    const cost = 8;
    const hash = bcrypt.hashSync('right', cost);
    // Counts bcrypt comparisons: every one goes through the serializer.
    const inner = createSerializer();
    let comparisons = 0;
    const auth = createBasicAuth(new Map([['alice', hash]]), {
      run: (task) => {
        comparisons++;
        return inner.run(task);
      },
    });
    expect(await auth.check(basic('alice', 'right'))).toBe('ok');
    expect(await auth.check(basic('alice', 'wrong'))).toBe('denied');
    expect(await auth.check(undefined)).toBe('denied');

    // An unknown user and a wrong password each cost one bcrypt comparison, as a right password does: the
    // answer's timing cannot tell which users exist. Counted, not timed: timings are noise on a shared machine.
    const counted = comparisons;
    expect(await auth.check(basic('mallory', 'right'))).toBe('denied');
    expect(comparisons).toBe(counted + 1);
    expect(await auth.check(basic('alice', 'wrong2'))).toBe('denied');
    expect(comparisons).toBe(counted + 2);
    // A cached success costs no bcrypt; the cache is keyed on the password, so it cannot help a guess.
    const before = comparisons;
    expect(await auth.check(basic('alice', 'right'))).toBe('ok');
    expect(comparisons).toBe(before);
    expect(await auth.check(basic('alice', 'right '))).toBe('denied');
    expect(await auth.check(basic('mallory', 'right'))).toBe('denied');
    expect(comparisons).toBe(before + 2);
  });

  it('refuses work beyond the queue instead of queueing a flood of guesses', async () => {
    const serializer = createSerializer(2);
    const auth = createBasicAuth(new Map([['a', bcrypt.hashSync('x', 4)]]), serializer);
    const verdicts = await Promise.all([1, 2, 3].map(() => auth.check(basic('a', 'y'))));
    expect(verdicts).toEqual(['denied', 'denied', 'busy']);
  });
});
