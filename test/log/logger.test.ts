// The log writer as a person reads it: one logfmt line per record with the fixed keys first, values quoted only
// when they must be, and the API key gone whichever format and whichever field carried it.
import { describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import { createLogger, toLogfmt } from '../../src/log/logger.js';

const KEY = 'sk-logger-test-4b9e1f7a';

function capture(format: 'json' | 'logfmt') {
  const lines: string[] = [];
  const log = createLogger(
    { level: 'debug', format, secret: new Secret(KEY) },
    { write: (l) => lines.push(l) },
  );
  return { log, lines };
}

describe('logfmt', () => {
  it('writes time, level and msg first, then the fields, one record per line', () => {
    const line = toLogfmt(
      '{"level":"warn","time":"2026-11-23T10:00:00.000Z","msg":"refresh failed","reason":"timeout","n":3,"ok":false}',
    );
    expect(line).toBe(
      'time=2026-11-23T10:00:00.000Z level=warn msg="refresh failed" reason=timeout n=3 ok=false\n',
    );
  });

  it('quotes values with spaces, quotes, equals signs or backslashes, and empty ones, as JSON strings', () => {
    const line = toLogfmt(
      JSON.stringify({
        time: 't',
        level: 'info',
        msg: 'm',
        a: 'x y',
        b: 'say "hi"',
        c: 'k=v',
        d: 'a\\b',
        e: '',
      }),
    );
    expect(line).toBe('time=t level=info msg=m a="x y" b="say \\"hi\\"" c="k=v" d="a\\\\b" e=""\n');
  });

  it('writes objects and arrays as JSON, quoted when they hold a space', () => {
    const line = toLogfmt(
      JSON.stringify({ time: 't', level: 'info', msg: 'm', ids: [1, 2], geo: { a: 'b c' } }),
    );
    expect(line).toBe('time=t level=info msg=m ids=[1,2] geo="{\\"a\\":\\"b c\\"}"\n');
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(toLogfmt('not json\n')).toBe('not json\n');
  });
});

describe('the logger', () => {
  it.each(['json', 'logfmt'] as const)(
    'never writes the API key in %s, in the message or any field',
    (format) => {
      const { log, lines } = capture(format);
      log.warn(
        { url: `https://x/?key=${KEY}`, nested: { header: `Bearer ${KEY}` } },
        `failed with ${KEY} inside`,
      );
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toContain(KEY);
      expect(lines[0]).toContain('[REDACTED]');
    },
  );

  it('writes one logfmt line per record, level names as words', () => {
    const { log, lines } = capture('logfmt');
    log.info({ stations: 40 }, 'first refresh succeeded');
    expect(lines[0]).toMatch(/^time=\S+ level=info msg="first refresh succeeded" stations=40\n$/);
  });
});
