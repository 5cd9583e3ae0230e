import { describe, expect, it } from 'vitest';
import { collapseWhitespace, truncateLine, truncateText } from './truncate.ts';

/** True when `text` has no lone surrogate: what `TextEncoder` and JSON round-trips keep intact. */
function isWellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

describe('truncateText', () => {
  it('leaves text within the limit alone', () => {
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('', 0)).toBe('');
  });

  it('cuts to the limit, the ellipsis included', () => {
    expect(truncateText('abcdef', 4)).toBe('abc…');
    expect(truncateText('abcdef', 5, ' [+]')).toBe('a [+]');
    expect(truncateText('abcdef', 3, '')).toBe('abc');
  });

  it('never splits a surrogate pair, so the result stays valid text', () => {
    const emoji = '😀'.repeat(10); // 20 code units
    for (let max = 0; max <= 21; max++) {
      for (const ellipsis of ['…', '', '\n… (clipped)']) {
        const cut = truncateText(emoji, max, ellipsis);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(isWellFormed(cut), `max ${max}, ${JSON.stringify(ellipsis)}: ${JSON.stringify(cut)}`).toBe(true);
      }
    }
    expect(truncateText('a😀b', 3)).toBe('a…');
  });

  it('returns what fits of the ellipsis when the limit is smaller than it', () => {
    expect(truncateText('abcdef', 1)).toBe('…');
    expect(truncateText('abcdef', 0)).toBe('');
    expect(truncateText('abcdefghijklmnop', 3, '\n… (clipped)')).toBe('\n… ');
  });
});

describe('collapseWhitespace', () => {
  it('turns runs of spaces, tabs and newlines into one space and trims', () => {
    expect(collapseWhitespace('  a\n\n\tb  c ')).toBe('a b c');
  });
});

describe('truncateLine', () => {
  it('collapses whitespace first, then cuts what is left', () => {
    expect(truncateLine('  a\n\n b  ', 80)).toBe('a b');
    expect(truncateLine('one\n\n\ntwo three', 8)).toBe('one two…');
  });
});
