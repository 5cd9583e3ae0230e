import { describe, expect, it } from 'vitest';
import { lexMarkdown } from './lex-markdown.ts';
import { extendsProse, openProse, proseParagraph } from './plain-append.ts';

describe('openProse', () => {
  it('finds a one-line paragraph of prose at the end, alone or after a blank line', () => {
    expect(openProse(lexMarkdown('Some words, more: (and) "this" one!'))).toBe('Some words, more: (and) "this" one!');
    expect(openProse(lexMarkdown('# Title\n\nSome words'))).toBe('Some words');
    expect(openProse(lexMarkdown('- a\n\nSome words'))).toBe('Some words');
  });

  it('refuses anything an appended word could turn into something else', () => {
    for (const text of [
      '1 thing', // "1. thing" would be a list
      '- item',
      'Some *em*',
      'user@host.com',
      'see www.example.com',
      'see www.', // a link once its domain streams in
      'a/b path',
      'line one\nline two',
      'Words &amp; entities',
      '# Title\nSome words', // no blank line before it
      '```\nSome words',
      '| a |\n| - |\nSome words',
    ]) {
      expect(openProse(lexMarkdown(text)), text).toBeNull();
    }
  });

  it('gives the tokens marked gives for the same text', () => {
    const text = 'Prose with digits 42, quotes "q" and (parens).';
    expect(lexMarkdown(text)[0]).toMatchObject(proseParagraph(text));
  });
});

describe('extendsProse', () => {
  it('accepts prose and refuses Markdown marks, line breaks and a www. across the seam', () => {
    expect(extendsProse('Some words', ' and more, then: this!')).toBe(true);
    expect(extendsProse('Some words', ' caf\u00e9 \u65e5\u672c')).toBe(true);
    for (const more of [' *em', ' `code', '\nnext', ' [x]', ' <b>', ' &amp;', ' a_b', ' a/b', ' @me', ' ~x', ' #1', ' a|b', ' a\\b', ' www.x']) {
      expect(extendsProse('Some words', more), more).toBe(false);
    }
    expect(extendsProse('Some ww', 'w.x')).toBe(false);
    expect(extendsProse('Some www', '.x')).toBe(false);
    expect(extendsProse('Some words', '.x')).toBe(true);
  });
});
