// A collector's exposition bytes, rendered once per piece of data and shared by every scrape that serves it,
// with their deflate segment made on the first gzip scrape.
import { type DeflateSegment, deflateSegment } from './gzip-splice.js';

export interface RenderedPart {
  readonly text: Buffer;
  readonly deflated: () => Promise<DeflateSegment>;
}

export function renderedPart(text: Buffer): RenderedPart {
  let deflated: Promise<DeflateSegment> | undefined;
  return {
    text,
    deflated: () => {
      deflated ??= deflateSegment(text);
      return deflated;
    },
  };
}
