import { describe, expect, it } from 'vitest';
import { createRandom } from '../../test-support/seeded-random.ts';
import { lexMarkdown } from './lex-markdown.ts';
import { extendsFence, fenceToken, openFence } from './open-fence.ts';

/** Blocks before a fence, and fence bodies made of what can close, reopen or confuse one. */
const BEFORE = ['', 'Intro\n\n', 'para\n', '- item\n', '> quote\n', '| a |\n| - |\n| 1 |\n', '# Head\n', '[^1]: note\n', '1. one\n\n   more\n'];
const OPENERS = ['```', '```ts', '``` js extra', '~~~', '~~~~ md', '````', '```\\`x'];
const PIECES = ['\n', '\r\n', '\r', '\n\n', ' ', '   ', '    ', '`', '```', '~~~', '~', 'code', 'let a = `t`;', '- x', '> y', '# z', '\t', '[^1]: n'];

function randomText(random: () => number): string {
  const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  let text = pick(BEFORE) + pick(OPENERS) + '\n';
  const pieces = 1 + Math.floor(random() * 12);
  for (let i = 0; i < pieces; i++) text += pick(PIECES);
  return text;
}

describe('openFence', () => {
  it('finds an open fence at the end, after any block', () => {
    expect(openFence(lexMarkdown('Intro\n\n```ts\nconst a'), 'Intro\n\n```ts\nconst a')).toEqual({ raw: '```ts\nconst a', lang: 'ts' });
    expect(openFence(lexMarkdown('para\n~~~\n'), 'para\n~~~\n')).toEqual({ raw: '~~~\n', lang: '' });
    // The lexer's raw has "\n" for "\r\n": so has the code an append extends.
    expect(openFence(lexMarkdown('```\r\nlet a = 1;\r\n\r\n\nlet b'), '```\r\nlet a = 1;\r\n\r\n\nlet b')?.raw).toBe('```\nlet a = 1;\n\n\nlet b');
  });

  it('refuses what an append could make something other than more code', () => {
    for (const text of [
      '```ts', // the opening line is not complete: more text changes the language
      '```\ncode\n```', // closed
      '```\ncode\n``', // a closing fence in the making
      '```\n  ~~~ not a close here, but starts like one\ncode',
      '  ```\nindented fence',
      '    indented code',
      'prose',
      '```\ncode\n```\n\nafter',
      '```\r\ncode\r', // an appended "\n" would end the same line
    ]) {
      expect(openFence(lexMarkdown(text), text), JSON.stringify(text)).toBeNull();
    }
  });
});

describe('extendsFence', () => {
  it('accepts code and refuses a line that starts like a fence, the one it completes included', () => {
    const open = { raw: '```\nlet a', lang: '' };
    expect(extendsFence(open, ' = 1;\nlet b = `x`;\n  c')).toBe(true);
    for (const more of ['\n```', '\n   ~', '\n`x`', ';\r\n']) expect(extendsFence(open, more), JSON.stringify(more)).toBe(false);
    expect(extendsFence({ raw: '```\nlet a\n  ', lang: '' }, '`')).toBe(false);
    expect(extendsFence({ raw: '```\nlet a\n', lang: '' }, '```')).toBe(false);
    // A line four characters long started with something else: what follows cannot close it.
    expect(extendsFence({ raw: '```\nlet a\nlet ', lang: '' }, '```')).toBe(true);
  });
});

describe('fenceToken', () => {
  it('gives the token marked gives, for empty code, line breaks at the end and blank lines', () => {
    for (const text of ['```\n', '```js\nlet a;', '```js\nlet a;\n', '```\n\n', '```\n\n\n', '```\na\n\n', '~~~ md\n# not a heading\n\n- nor a list']) {
      const open = openFence(lexMarkdown(text), text);
      expect(open, JSON.stringify(text)).not.toBeNull();
      expect(fenceToken(open!), JSON.stringify(text)).toEqual(lexMarkdown(text).at(-1));
    }
  });

  it('extends a fence as lexing the longer text would, at every cut of random texts', () => {
    const random = createRandom(20261126);
    let extended = 0;
    let refused = 0;
    for (let n = 0; n < 400; n++) {
      const text = randomText(random);
      for (let cut = 1; cut < text.length; cut++) {
        const tokens = lexMarkdown(text.slice(0, cut));
        const open = openFence(tokens, text.slice(0, cut));
        if (open === null) continue;
        const more = text.slice(cut, cut + 1 + Math.floor(random() * 8));
        if (!extendsFence(open, more)) {
          refused++;
          continue;
        }
        extended++;
        const longer = text.slice(0, cut) + more;
        const whole = lexMarkdown(longer);
        const label = `${JSON.stringify(text.slice(0, cut))} + ${JSON.stringify(more)}`;
        // Everything before the fence lexes as it did, and the fence is the same block with more code.
        expect(whole.slice(0, -1), label).toEqual(tokens.slice(0, -1));
        expect(whole.at(-1), label).toEqual(fenceToken({ raw: open.raw + more, lang: open.lang }));
      }
    }
    // Both branches ran often enough to mean something.
    expect(extended).toBeGreaterThan(2000);
    expect(refused).toBeGreaterThan(100);
  });
});
