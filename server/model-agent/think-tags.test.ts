import { describe, expect, it } from 'vitest';
import { createThinkSplitter, type ThinkPiece } from './think-tags.ts';

/** Streams `text` in the given pieces and joins what comes out by kind, in order of arrival. */
function run(pieces: string[]): { reasoning: string; text: string; order: ThinkPiece['kind'][] } {
  const split = createThinkSplitter();
  const out = [...pieces.flatMap((p) => split.push(p)), ...split.end()];
  const order = out.map((p) => p.kind).filter((k, i, all) => k !== all[i - 1]);
  return { reasoning: out.filter((p) => p.kind === 'reasoning').map((p) => p.text).join(''), text: out.filter((p) => p.kind === 'text').map((p) => p.text).join(''), order };
}

/** Every way of cutting `text` in two, three pieces where it is short. */
function cuts(text: string): string[][] {
  const all: string[][] = [[text]];
  for (let i = 1; i < text.length; i++) {
    all.push([text.slice(0, i), text.slice(i)]);
    for (let j = i + 1; j < text.length && text.length <= 40; j++) all.push([text.slice(0, i), text.slice(i, j), text.slice(j)]);
  }
  return all;
}

describe('createThinkSplitter', () => {
  it('turns a <think> block that opens the answer into reasoning, however the stream cuts the tags', () => {
    for (const pieces of cuts('\n<think>Plan: a</b.</think>\n\nDone <think>.')) {
      expect(run(pieces), JSON.stringify(pieces)).toEqual({ reasoning: 'Plan: a</b.', text: 'Done <think>.', order: ['reasoning', 'text'] });
    }
  });

  it('leaves an answer that does not open with the tag exactly as written', () => {
    for (const text of ['Use <think> in prose.', '  indented <b>', 'a <', '<thinking>not it</thinking>', '`<think>` is a tag']) {
      for (const pieces of cuts(text)) expect(run(pieces), JSON.stringify(pieces)).toEqual({ reasoning: '', text, order: ['text'] });
    }
  });

  it('keeps a thought cut off before </think> as reasoning, and a lone tag start as text', () => {
    expect(run(['<think>Half a th', 'ought</thi'])).toEqual({ reasoning: 'Half a thought</thi', text: '', order: ['reasoning'] });
    expect(run(['<thi'])).toEqual({ reasoning: '', text: '<thi', order: ['text'] });
    expect(run(['  ', '\n'])).toEqual({ reasoning: '', text: '', order: [] });
  });

  it('passes reasoning on as it streams, holding back no more than a possible closing tag', () => {
    const split = createThinkSplitter();
    expect(split.push('<think>one ')).toEqual([{ kind: 'reasoning', text: 'one ' }]);
    expect(split.push('two </')).toEqual([{ kind: 'reasoning', text: 'two ' }]);
    expect(split.push('nope')).toEqual([{ kind: 'reasoning', text: '</nope' }]);
    expect(split.push('</think>Answer')).toEqual([{ kind: 'text', text: 'Answer' }]);
    expect(split.push(' more')).toEqual([{ kind: 'text', text: ' more' }]);
  });
});
