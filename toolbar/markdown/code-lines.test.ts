import { beforeAll, describe, expect, it } from 'vitest';
import { CODE_LINES, groupLines, splitPlainLines, type LineRun } from './code-lines.ts';
import { registerGrammar } from './grammar-loader.ts';
import { GRAMMAR_SOURCES } from './grammar-sources.ts';
import { highlight, highlightGrowing, type HighlightRun } from './highlight.ts';

beforeAll(() => {
  registerGrammar('js', GRAMMAR_SOURCES.js);
});

const textOf = (runs: readonly LineRun[]) => runs.map((r) => r.pieces.map((p) => p.text).join(''));

/** 50 lines with a block comment over lines 14-19, across the first run's end. */
const CODE = Array.from({ length: 50 }, (_, i) => {
  if (i === 14) return '/* a comment';
  if (i > 14 && i < 19) return `   that goes on, line ${i}`;
  if (i === 19) return '*/ const end = 1;';
  return `const v${i} = load("item ${i}"); // ${i}`;
}).join('\n');

describe('groupLines', () => {
  it('groups the code in runs of whole lines, the last one open, cutting a piece where a run ends in it', () => {
    const pieces = highlight(CODE, 'ts')!;
    const { runs } = groupLines([], pieces, 0);
    expect(runs).toHaveLength(4);
    expect(textOf(runs).join('')).toBe(CODE);
    for (const run of runs.slice(0, 3)) {
      expect(run.complete).toBe(true);
      expect(textOf([run])[0]!.split('\n')).toHaveLength(CODE_LINES + 1);
      expect(textOf([run])[0]!.endsWith('\n')).toBe(true);
    }
    expect(runs[3]!.complete).toBe(false);
    // The comment is highlighted on both sides of the cut.
    expect(runs[0]!.pieces.at(-1)).toEqual({ text: '/* a comment\n   that goes on, line 15\n', kind: 'comment' });
    expect(runs[1]!.pieces[0]).toEqual({ text: '   that goes on, line 16\n   that goes on, line 17\n   that goes on, line 18\n*/', kind: 'comment' });
  });

  it('keeps the runs of a growing block that hold only kept pieces, the same objects, and gives what grouping afresh gives', () => {
    let run: HighlightRun | null = null;
    let runs: LineRun[] = [];
    let reusedMost = 0;
    for (let end = 0; end <= CODE.length; end = end === CODE.length ? end + 1 : Math.min(CODE.length, end + 7)) {
      const text = CODE.slice(0, end);
      run = highlightGrowing(run, text, 'ts')!;
      const next = groupLines(runs, run.pieces, run.kept);
      for (let i = 0; i < next.reused; i++) expect(next.runs[i]).toBe(runs[i]);
      expect(next.runs).toEqual(groupLines([], highlight(text, 'ts')!, 0).runs);
      reusedMost = Math.max(reusedMost, next.reused);
      runs = next.runs;
    }
    // By the end, the three complete runs were kept from one append to the next.
    expect(reusedMost).toBe(3);
  });
});

describe('splitPlainLines', () => {
  it('gives one piece per line, and keeps all but the last line of the code it grows from', () => {
    const first = splitPlainLines(null, 'a\nbb\nc');
    expect(first.pieces).toEqual([{ text: 'a\n', kind: null }, { text: 'bb\n', kind: null }, { text: 'c', kind: null }]);
    const next = splitPlainLines(first, 'a\nbb\ncc\nd');
    expect(next.kept).toBe(2);
    expect(next.pieces[0]).toBe(first.pieces[0]);
    expect(next.pieces[1]).toBe(first.pieces[1]);
    expect(next.pieces.map((p) => p.text)).toEqual(['a\n', 'bb\n', 'cc\n', 'd']);
    // Not an append: split afresh.
    const edited = splitPlainLines(next, 'x\ny');
    expect(edited.kept).toBe(0);
    expect(edited.pieces.map((p) => p.text)).toEqual(['x\n', 'y']);
    expect(splitPlainLines(null, '').pieces).toEqual([]);
  });

  it('streams plain code into runs that grouping afresh would give, keeping the complete ones', () => {
    const code = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    let plain = null;
    let runs: LineRun[] = [];
    let reusedMost = 0;
    for (let end = 0; end <= code.length; end += 5) {
      const text = code.slice(0, end);
      plain = splitPlainLines(plain, text);
      const next = groupLines(runs, plain.pieces, plain.kept);
      for (let i = 0; i < next.reused; i++) expect(next.runs[i]).toBe(runs[i]);
      expect(textOf(next.runs).join('')).toBe(text);
      reusedMost = Math.max(reusedMost, next.reused);
      runs = next.runs;
    }
    expect(runs.filter((r) => r.complete)).toHaveLength(2);
    expect(reusedMost).toBe(2);
  });
});
