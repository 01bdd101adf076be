import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderedPart } from '../../src/exposition/rendered-part.js';

describe('renderedPart', () => {
  it('deflates its text on the first gzip scrape only, and shares that with every later one', async () => {
    const part = renderedPart(Buffer.from('cityair_stations{state="online"} 3\n'));
    const first = part.deflated();
    expect(part.deflated()).toBe(first);
    const segment = await first;
    expect(segment.length).toBe(part.text.length);
    expect(inflateRawSync(segment.deflated, { finishFlush: 2 }).equals(part.text)).toBe(true);
  });
});
