// What the remote-write sink takes out of a receiver's words before they reach a message.
import { describe, expect, it } from 'vitest';
import { credentialsOf, redact } from '../../src/backfill/http-target.js';
import { Secret } from '../../src/config/secret.js';

describe('remote-write messages', () => {
  it('hold no bearer token, basic password or its base64, nor the API key, even echoed', () => {
    const basic = Buffer.from('air:pa55w/rd').toString('base64');
    const key = new Secret('api-key-0123456789abcdef');
    const echo = `bad request; headers: Authorization: Basic ${basic} pw=pa55w\\/rd key=${key.reveal()}`;
    const out = redact(echo, credentialsOf(`Basic ${basic}`, key));
    for (const secret of [basic, 'pa55w', key.reveal().slice(0, 6)]) expect(out).not.toContain(secret);
    expect(redact('Bearer tok-123456 refused', credentialsOf('Bearer tok-123456', undefined))).toBe(
      'Bearer [REDACTED] refused',
    );
  });
});
