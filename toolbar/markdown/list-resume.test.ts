import { Lexer } from 'marked';
import { describe, expect, it, vi } from 'vitest';
import { createRandom } from '../../test-support/seeded-random.ts';
import { lexMarkdown } from './lex-markdown.ts';
import { createTailLexer } from './list-resume.ts';
import { makeListSample } from './markdown-samples.ts';

/** Streams `text` through one tail lexer in random steps, checking each against a whole lex. */
function expectLexedAsWhole(text: string, random: () => number) {
  const lexer = createTailLexer();
  for (let end = 1; ; end = Math.min(text.length, end + 1 + Math.floor(random() * 6))) {
    const tail = text.slice(0, end);
    expect([...lexer.lex(tail)], JSON.stringify(tail)).toEqual([...lexMarkdown(tail)]);
    if (end === text.length) break;
  }
}

describe('createTailLexer', () => {
  it('lexes what a whole lex gives at every step of streamed lists of every kind', { timeout: 30_000 }, () => {
    const random = createRandom(20261126);
    for (let n = 0; n < 200; n++) expectLexedAsWhole(makeListSample(random), random);
  });

  it('lexes only the last item of a long list again as it grows', () => {
    // An item's blocks are indented past its marker ("10. " takes four columns).
    const items = Array.from({ length: 20 }, (_, i) => {
      const pad = ' '.repeat(`${i + 1}. `.length);
      return `${i + 1}. Step ${i + 1}: change \`file${i}.ts\`\n\n${pad}\`\`\`ts\n${pad}run(${i});\n${pad}\`\`\``;
    });
    const text = `Plan:\n\n${items.join('\n\n')}\n\n21. The last step, still strea`;
    const lexer = createTailLexer();
    lexer.lex(text);
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    try {
      const longer = `${text}ming in`;
      expect([...lexer.lex(longer)]).toEqual([...lexMarkdown(longer)]);
      // The renderer's lex, then the check's whole one.
      expect(lex.mock.calls.map(([src]) => src.length)).toEqual(['21. The last step, still streaming in'.length, longer.length]);
    } finally {
      lex.mockRestore();
    }
  });

  it('reuses items with definitions from before the tail, and lexes whole a tail that defines its own', () => {
    const links = { x: { href: 'https://example.com/x', title: '' } };
    const lexer = createTailLexer();
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    try {
      for (const text of ['- see [x]\n- and [x] again', '- see [x]\n- and [x] again, linked', '- see [x]\n- and [x] again, linked\n- [y]\n\n[y]: https://example.com/y']) {
        expect([...lexer.lex(text, links)], text).toEqual([...lexMarkdown(text, links)]);
      }
      // Each step is the lexer's call(s), then the check's whole lex: the second text is lexed from
      // its last item (23 characters); for the third, the lex from its last item finds a definition
      // of its own ([y]), so it is lexed whole (67).
      expect(lex.mock.calls.map(([src]) => src.length)).toEqual([25, 25, 23, 33, 57, 67, 67]);
    } finally {
      lex.mockRestore();
    }
  });

  it('lexes a tight list whole once it turns loose, and a loose one with a new task item', () => {
    for (const [first, next] of [
      ['- a\n- b\n- c', '- a\n- b\n- c\n\n- d'], // tight to loose: every item gets a paragraph
      ['- a\n\n- b\n\n- c', '- a\n\n- b\n\n- c\n- [x] d'], // a task in a loose list
      ['- a\n\n- b\n- c', '- a\n\n- b\n- c\n1. other list'],
    ]) {
      const lexer = createTailLexer();
      lexer.lex(first!);
      expect([...lexer.lex(next!)], next).toEqual([...lexMarkdown(next!)]);
    }
  });
});
