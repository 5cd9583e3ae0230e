import { isValidElement, type VNode } from 'preact';
import { Lexer } from 'marked';
import { describe, expect, it, vi } from 'vitest';
import { createMarkdownRenderer } from './incremental-markdown.ts';
import { makeListSample, makeMarkdownSample, TRICKY_SAMPLES } from './markdown-samples.ts';
import { createRandom } from '../../test-support/seeded-random.ts';
import { lexMarkdown } from './lex-markdown.ts';
import { renderTokens } from './render-tokens.tsx';

/** A VNode tree as plain data: element or component, key, props and children, in order. */
function describeTree(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(describeTree);
  if (!isValidElement(node)) return node;
  const { children, ...props } = node.props as Record<string, unknown>;
  const type = typeof node.type === 'string' ? node.type : (node.type as { name: string }).name;
  return { type, key: node.key, props, children: describeTree(children) };
}

function renderWhole(text: string) {
  return describeTree(renderTokens(lexMarkdown(text)));
}

/** Streams `text` into one renderer in pieces of `size` characters, checking every step. */
function expectStreamMatches(text: string, size: number) {
  const md = createMarkdownRenderer();
  for (let end = Math.min(size, text.length); ; end = Math.min(end + size, text.length)) {
    const prefix = text.slice(0, end);
    expect(describeTree(md.render(prefix)), `${JSON.stringify(text)} at ${end}`).toEqual(renderWhole(prefix));
    if (end === text.length) break;
  }
}

describe('createMarkdownRenderer', () => {
  // About 2.5 s alone and twice that beside Playwright: the default 5 s would make a slow machine flaky.
  it('renders exactly what a full parse renders at every step of a stream', { timeout: 30_000 }, () => {
    for (const text of TRICKY_SAMPLES) expectStreamMatches(text, 1);
    for (let seed = 1; seed <= 30; seed++) {
      const text = makeMarkdownSample(seed);
      expectStreamMatches(text, 1);
      expectStreamMatches(text, 4);
      expectStreamMatches(text, 17);
    }
  });

  it('renders what a full parse renders at every step of a streamed list, reusing its items', () => {
    const random = createRandom(7);
    for (let n = 0; n < 25; n++) {
      const text = makeListSample(random);
      expectStreamMatches(text, 1);
      expectStreamMatches(text, 5);
    }
  });

  it('keeps the VNode of every list item a delta cannot change, so that Preact skips it', () => {
    const md = createMarkdownRenderer();
    const items = Array.from({ length: 12 }, (_, i) => `${i + 1}. **Step ${i + 1}**: run \`npm test\`[^${i % 2}] and fix what fails`);
    const text = `Plan:\n\n${items.join('\n')}\n\n[^0]: Even.\n[^1]: Odd.`;
    let previous: VNode[] = [];
    let kept = 0;
    for (let end = 1; end <= text.length; end++) {
      const nodes = md.render(text.slice(0, end));
      const list = nodes.find((node) => node.type === 'ol');
      const lis = list ? ((list.props as { children: VNode[] }).children) : [];
      // Every item before the last was there, unchanged, at the previous step: the same VNode.
      for (let i = 0; i < lis.length - 1 && i < previous.length - 1; i++) {
        expect(lis[i], `item ${i} at ${end}`).toBe(previous[i]);
        kept++;
      }
      previous = lis;
    }
    expect(kept).toBeGreaterThan(1000);
    expect(describeTree(md.render(text))).toEqual(renderWhole(text));
  });

  it('links a reference to a definition in a block that has settled', () => {
    const md = createMarkdownRenderer();
    const text = '[docs]: https://example.com/docs\n\nIntro\n\nRead [the docs][docs] first.\n';
    const parts = md.renderParts(text);
    // The definition is settled, the reference is in the open tail, and still a link.
    expect(parts.settled.length).toBeGreaterThan(0);
    expect(JSON.stringify(describeTree(parts.tail))).toContain('https://example.com/docs');
    expect(describeTree(md.render(text))).toEqual(renderWhole(text));
  });

  it('reuses the VNodes of settled blocks while the text grows', () => {
    const md = createMarkdownRenderer();
    const first = md.render('# Title\n\nfirst paragraph\n\nsecond\n');
    const second = md.render('# Title\n\nfirst paragraph\n\nsecond\nparagraph, longer');
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second[2]).not.toBe(first[2]);
    expect(describeTree(second)).toEqual(renderWhole('# Title\n\nfirst paragraph\n\nsecond\nparagraph, longer'));
  });

  it('keeps a code block being streamed open, then settles it once closed', () => {
    const md = createMarkdownRenderer();
    const open = md.render('text\n\n```js\nlet a;\n\nlet b;\n');
    const closed = md.render('text\n\n```js\nlet a;\n\nlet b;\n```\n\nafter\n');
    expect(closed[0]).toBe(open[0]);
    expect(closed[1]).not.toBe(open[1]);
    expect((closed[1] as VNode<{ text: string }>).props.text).toBe('let a;\n\nlet b;');
    const later = md.render('text\n\n```js\nlet a;\n\nlet b;\n```\n\nafter more\n');
    expect(later[1]).toBe(closed[1]);
  });

  it('starts over when the text changes other than by an append', () => {
    const md = createMarkdownRenderer();
    md.render('one\n\ntwo\n\nthree\n');
    const edited = md.render('uno\n\ntwo\n\nthree\n');
    expect(describeTree(edited)).toEqual(renderWhole('uno\n\ntwo\n\nthree\n'));
    expect(describeTree(md.render(''))).toEqual([]);
    expect(describeTree(md.render('- a\n\n- b'))).toEqual(renderWhole('- a\n\n- b'));
  });
});

describe('createMarkdownRenderer.renderParts', () => {
  it('keeps one settled array that only grows while the text is appended to', () => {
    const md = createMarkdownRenderer();
    const first = md.renderParts('# Title\n\nfirst paragraph\n\nsecond');
    // The last two blocks stay open: the next one may still change the one before it.
    expect(first.settled.length).toBe(1);
    const streamed = md.renderParts('# Title\n\nfirst paragraph\n\nsecond, longer');
    expect(streamed.settled).toBe(first.settled);
    expect(streamed.settled.length).toBe(1);
    const text = '# Title\n\nfirst paragraph\n\nsecond, longer\n\n- a list';
    const more = md.renderParts(text);
    expect(more.settled).toBe(first.settled);
    expect(more.settled.length).toBe(2);
    expect(describeTree([...more.settled, ...more.tail])).toEqual(renderWhole(text));
  });

  it('starts a new settled array when the text is edited', () => {
    const md = createMarkdownRenderer();
    const before = md.renderParts('one\n\ntwo\n\nthree');
    const edited = md.renderParts('uno\n\ntwo\n\nthree');
    expect(edited.settled).not.toBe(before.settled);
    expect(describeTree([...edited.settled, ...edited.tail])).toEqual(renderWhole('uno\n\ntwo\n\nthree'));
  });
});

describe('createMarkdownRenderer on prose', () => {
  it('does not lex again while prose is appended to an open paragraph of prose', () => {
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    try {
      const md = createMarkdownRenderer();
      md.render('# Title\n\nFirst words');
      const before = lex.mock.calls.length;
      let text = '# Title\n\nFirst words';
      for (const more of [' and', ' more words,', ' then: this!', ' (42)']) {
        text += more;
        expect(describeTree(md.render(text))).toEqual(renderWhole(text));
      }
      // renderWhole lexes once per step; the renderer did not.
      expect(lex.mock.calls.length - before).toBe(4);
      text += ' *em*';
      expect(describeTree(md.render(text))).toEqual(renderWhole(text));
      expect(lex.mock.calls.length - before).toBe(6);
    } finally {
      lex.mockRestore();
    }
  });

  it('does not lex again while code is appended to an open fenced block, and settles it once closed', () => {
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    try {
      const md = createMarkdownRenderer();
      let text = 'Intro\n\n```ts\n';
      const first = md.render(text);
      const before = lex.mock.calls.length;
      for (const more of ['const a', ' = `x`;\n', '\n', '  // ``` in a comment\n', 'let b']) {
        text += more;
        const nodes = md.render(text);
        expect(describeTree(nodes)).toEqual(renderWhole(text));
        // The intro keeps its VNode; only the block is rendered again.
        expect(nodes[0]).toBe(first[0]);
      }
      // renderWhole lexes once per step; the renderer did not.
      expect(lex.mock.calls.length - before).toBe(5);
      for (const more of [';\n', '``', '`\n\nAfter']) {
        text += more;
        expect(describeTree(md.render(text))).toEqual(renderWhole(text));
      }
      // A line that starts with a backtick may close the block: each of these lexed again.
      expect(lex.mock.calls.length - before).toBe(5 + 3 + 2);
    } finally {
      lex.mockRestore();
    }
  });

  it('renders what a full parse renders when prose meets Markdown marks at any point of a stream', () => {
    // Mostly prose, with the characters that could turn prose into something else mixed in.
    const prose = 'awe wtc.:1(2)!  ';
    const marks = ['w', '.', '@', ':', '/', '1', ' ', '\n', '*', '-', '!', '[', ']', '(', ')', '"', '=', '#', '>', '_', '|', '&', '~', '`', '\t', 'W', '\u00e9'];
    let state = 12345;
    const random = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 2 ** 32;
    };
    for (let n = 0; n < 400; n++) {
      let text = 'Start ';
      const length = 10 + Math.floor(random() * 60);
      for (let i = 0; i < length; i++) text += random() < 0.8 ? prose[Math.floor(random() * prose.length)] : marks[Math.floor(random() * marks.length)];
      const md = createMarkdownRenderer();
      for (let end = 0; end < text.length; ) {
        end = Math.min(text.length, end + 1 + Math.floor(random() * 3));
        const prefix = text.slice(0, end);
        expect(describeTree(md.render(prefix)), JSON.stringify(prefix)).toEqual(renderWhole(prefix));
      }
    }
  });

  it('keeps the VNodes before the open paragraph while prose streams', () => {
    const md = createMarkdownRenderer();
    const first = md.render('intro\n\n```js\nx\n```\n\nSome');
    const second = md.render('intro\n\n```js\nx\n```\n\nSome words');
    expect(second.length).toBe(first.length);
    expect(second.slice(0, -1)).toEqual(first.slice(0, -1));
    second.slice(0, -1).forEach((node, i) => expect(node).toBe(first[i]));
    expect(describeTree(second)).toEqual(renderWhole('intro\n\n```js\nx\n```\n\nSome words'));
  });
});
