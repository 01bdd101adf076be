// A station's free text (name, description) as it may appear in a label and on the status page: bounded in
// length, because every scrape and every row repeats it, and without control characters, which have no business
// in a label and which a page or a terminal would act on.

/** Characters (code points) kept of a name: addresses run to 60–80; longer text is cut with an ellipsis. */
export const MAX_NAME_CHARS = 128;
/** Characters kept of a description. */
export const MAX_DESCRIPTION_CHARS = 256;

// C0 and C1 controls (NUL, CR, LF, TAB, ESC, DEL...), the Unicode line and paragraph separators, and the bidi
// embeddings, overrides and isolates, which could make a label read as something else.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * At most `max` code points, each control character replaced by a space, a lone surrogate by U+FFFD, and the
 * ends trimmed. Text that is cut ends in "…". The result never shares memory with the input, so a huge name
 * from the API is not kept alive by the few characters taken from it.
 */
export function labelText(text: string, max: number): string {
  const cut = text.length <= max ? text : firstCodePoints(text, max);
  return cut.replace(CONTROLS, ' ').replace(LONE_SURROGATE, '\ufffd').trim();
}

function firstCodePoints(text: string, max: number): string {
  const kept: string[] = [];
  for (const c of text) {
    if (kept.length === max - 1) {
      kept.push('…');
      // join() builds a new flat string; a slice() of a long string would keep the whole of it reachable.
      return kept.join('');
    }
    kept.push(c);
  }
  return kept.join('');
}
