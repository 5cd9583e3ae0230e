import { describe, expect, it } from 'vitest';
import { makeMarkdownSample, TRICKY_SAMPLES } from './markdown-samples.ts';
import { parseMarkdown } from './parse-blocks.ts';
import { splitSettled } from './settle-blocks.ts';

/** The settled source text of `text`. */
function settledText(text: string): string {
  return text.slice(0, splitSettled(text).settledLength);
}

describe('splitSettled', () => {
  it('settles paragraphs before the last blank line whose next line is complete', () => {
    const text = 'one\n\ntwo\n\nthr';
    const split = splitSettled(text);
    expect(settledText(text)).toBe('one\n\n');
    expect(split.settled).toEqual(parseMarkdown('one'));
    expect(split.tail).toEqual(parseMarkdown('two\n\nthr'));
    // 'thr' is complete once a line break follows it.
    expect(settledText('one\n\ntwo\n\nthr\n')).toBe('one\n\ntwo\n\n');
  });

  it('keeps a fence with blank lines inside open until it closes', () => {
    const open = 'intro\n\n```ts\na\n\n\nb\n\nc\n';
    expect(settledText(open)).toBe('intro\n\n');
    expect(splitSettled(open).tail).toEqual([{ type: 'code', lang: 'ts', text: 'a\n\n\nb\n\nc\n', closed: false }]);
    const closed = `${open}\`\`\`\n\nafter\n`;
    expect(settledText(closed)).toBe(`${open}\`\`\`\n\n`);
    expect(splitSettled(closed).settled[1]).toEqual({ type: 'code', lang: 'ts', text: 'a\n\n\nb\n\nc', closed: true });
  });

  it('settles nothing after the start of text ending mid-fence', () => {
    expect(splitSettled('```\ncode\n\nmore\n\n- x\n').settled).toEqual([]);
    expect(settledText('p\n\n~~~\n```\n\n```\n\nstill in the tilde fence\n')).toBe('p\n\n');
    // A shorter or different marker does not close the fence.
    expect(settledText('````\n```\n\n~~~~\n\nx\n')).toBe('');
  });

  it('keeps a list whose items are separated by blank lines in one block', () => {
    const text = '- one\n\n- two\n\n- three\n\nafter\n';
    const split = splitSettled(text);
    expect(split.settled).toHaveLength(1);
    expect(split.settled[0]).toMatchObject({ type: 'list', items: [{}, {}, {}] });
    expect(split.tail).toEqual(parseMarkdown('after'));
  });

  it('keeps an item continued by an indented line after a blank line', () => {
    const text = '1. first\n\n   continued\n\nnext\n';
    expect(settledText(text)).toBe('1. first\n\n   continued\n\n');
  });

  it('waits for the line after a blank line to be complete: it may continue a list', () => {
    // '-' may become '- two', a second item of the same list.
    expect(splitSettled('- one\n\n-').settled).toEqual([]);
    expect(splitSettled('- one\n\n ').settled).toEqual([]);
    expect(splitSettled('- one\n\n- two\n').settled).toEqual([]);
    expect(splitSettled('- one\n\npara\n').settled).toEqual(parseMarkdown('- one'));
  });

  it('settles a table only at a blank line, never between its rows', () => {
    const text = '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n';
    expect(splitSettled(text).settled).toEqual([]);
    const after = `${text}\ntext\n`;
    expect(splitSettled(after).settled).toEqual(parseMarkdown(text));
  });

  it('measures the settled length in the text itself, with CRLF and lone CR breaks', () => {
    expect(settledText('a\r\n\r\nb\r\n')).toBe('a\r\n\r\n');
    expect(settledText('a\r\rb\r')).toBe('a\r\r');
  });

  it('gives the blocks of the whole text: settled blocks then the tail', () => {
    for (const text of [...TRICKY_SAMPLES, ...Array.from({ length: 40 }, (_, i) => makeMarkdownSample(i + 1))]) {
      const split = splitSettled(text);
      expect([...split.settled, ...split.tail]).toEqual(parseMarkdown(text));
      expect(split.settled).toEqual(parseMarkdown(settledText(text)));
    }
  });

  it('never settles a block that more text would change, at any cut of a stream', () => {
    for (const full of [...TRICKY_SAMPLES, ...Array.from({ length: 40 }, (_, i) => makeMarkdownSample(i + 100))]) {
      const final = parseMarkdown(full);
      for (let cut = 0; cut <= full.length; cut++) {
        const { settled } = splitSettled(full.slice(0, cut));
        expect(settled, `${JSON.stringify(full)} cut at ${cut}`).toEqual(final.slice(0, settled.length));
      }
    }
  });
});
