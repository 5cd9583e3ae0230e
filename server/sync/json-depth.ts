/**
 * How deep a JSON text nests, found before `JSON.parse` builds it: one deeply nested 8 MiB frame
 * used to cost about 150 MiB and a 2 s stall to parse, for a frame no schema would accept.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/**
 * True when `text` opens more than `maxDepth` arrays or objects inside each other. Strings are
 * skipped with `indexOf`, so a frame that is mostly one big string (an image) costs little. The
 * text need not be valid JSON: invalid text is left for `JSON.parse` to refuse.
 *
 * @example exceedsJsonDepth('[[1]]', 1) // true
 */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Jump to the closing quote: the next quote not escaped by an odd run of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end === -1) return false;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = end;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}
