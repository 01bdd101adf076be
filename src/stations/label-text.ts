// A station's free text (name, description) as it may appear in a label and on the status page: bounded in
// length, because every scrape and every row repeats it, and without control characters, which have no business
// in a label and which a page or a terminal would act on.

/**
 * UTF-8 bytes kept of a name: 256 Latin or 128 Cyrillic characters, where addresses run to 60–80. The cap is in
 * bytes because bytes are what every scrape repeats: 20,000 stations with every name and description at its cap
 * make about 26 MB of exposition, whatever the script.
 */
export const MAX_NAME_BYTES = 256;
/** UTF-8 bytes kept of a description. */
export const MAX_DESCRIPTION_BYTES = 512;

const ELLIPSIS = '…';
const ELLIPSIS_BYTES = 3;

// C0 and C1 controls (NUL, CR, LF, TAB, ESC, DEL...), the Unicode line and paragraph separators, and the bidi
// embeddings, overrides and isolates, which could make a label read as something else.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// What the replacements below act on, and any surrogate (a pair is checked by the long way).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
const NEEDS_WORK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * At most `maxBytes` of UTF-8, cut between characters and ending in "…" when cut; each control character
 * replaced by a space and a lone surrogate by U+FFFD; the ends trimmed. The result never shares memory with a
 * long input, so a huge name from the API is not kept alive by the few characters taken from it.
 */
export function labelText(text: string, maxBytes: number): string {
  // Nearly every name: short enough to fit whatever its script, with nothing to replace. One search instead of
  // two replacements and a count of its bytes (a sixth of the list's validation at 10,000 stations).
  if (text.length * 3 <= maxBytes && !NEEDS_WORK.test(text)) return text.trim();
  // Every UTF-16 unit is at least one byte of UTF-8, so this many units hold more than the cap when text is longer.
  const head = text.length > maxBytes ? Array.from(text.slice(0, maxBytes + 1)).join('') : text;
  const clean = head.replace(CONTROLS, ' ').replace(LONE_SURROGATE, '\ufffd');
  return fitBytes(clean, maxBytes).trim();
}

/** The text, or its longest prefix that leaves room for the ellipsis, with the ellipsis. */
function fitBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let room = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) as number;
    const units = cp > 0xffff ? 2 : 1;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes > maxBytes) return `${text.slice(0, room)}${ELLIPSIS}`;
    i += units;
    if (bytes <= maxBytes - ELLIPSIS_BYTES) room = i;
  }
  return text;
}
