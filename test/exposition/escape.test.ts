import { describe, expect, it } from 'vitest';
import { escapeHelp, escapeLabelValue } from '../../src/exposition/escape.js';

describe('escapeLabelValue', () => {
  it('escapes backslash, double quote and line feed, and nothing else', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    expect(escapeLabelValue('Новосибирск\t😀 \r')).toBe('Новосибирск\t😀 \r');
  });

  it('escapes a backslash before a quote on its own, so \\" cannot end the value', () => {
    expect(escapeLabelValue('\\"')).toBe('\\\\\\"');
  });
});

describe('escapeHelp', () => {
  it('escapes backslash and line feed, and leaves quotes as text 0.0.4 does', () => {
    expect(escapeHelp('a\\b\nc "d"')).toBe('a\\\\b\\nc "d"');
  });
});
