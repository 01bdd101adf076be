import { describe, expect, it } from 'vitest';
import { FAILURE_REASONS, failure, parseRetryAfter, reasonForStatus } from '../../src/upstream/failure.js';

describe('reasonForStatus', () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [429, 'rate_limited'],
    [400, 'http_4xx'],
    [404, 'http_4xx'],
    [500, 'http_5xx'],
    [503, 'http_5xx'],
    [301, 'invalid_payload'],
    [204, 'invalid_payload'],
  ])('files status %i under %s', (status, reason) => {
    expect(reasonForStatus(status)).toBe(reason);
  });

  it('only ever answers a reason the failures metric knows', () => {
    for (let s = 100; s < 600; s++) expect(FAILURE_REASONS).toContain(reasonForStatus(s));
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP-date as the time left until it, never negative', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores what is neither', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });
});

describe('failure', () => {
  it('carries a pause only when one was asked for', () => {
    expect(failure('timeout', 'slow')).toStrictEqual({ ok: false, reason: 'timeout', message: 'slow' });
    expect(failure('rate_limited', 'wait', 5000)).toStrictEqual({
      ok: false,
      reason: 'rate_limited',
      message: 'wait',
      retryAfterMs: 5000,
    });
  });
});
