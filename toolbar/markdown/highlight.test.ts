import { beforeAll, describe, expect, it } from 'vitest';
import { registerGrammar } from './grammar-loader.ts';
import { GRAMMAR_NAMES } from './grammar-names.ts';
import { GRAMMAR_SOURCES } from './grammar-sources.ts';
import { highlight, highlightGrowing, MAX_HIGHLIGHT_CHARS, type HighlightPiece } from './highlight.ts';

// As if every grammar script had been loaded (the loader is tested in grammar-loader.test.ts).
beforeAll(() => {
  for (const name of GRAMMAR_NAMES) registerGrammar(name, GRAMMAR_SOURCES[name]);
});

/** The highlighted pieces only, as "kind:text". */
function kinds(pieces: HighlightPiece[] | null): string[] {
  return (pieces ?? []).filter((p) => p.kind).map((p) => `${p.kind}:${p.text}`);
}

describe('highlight', () => {
  it('marks TypeScript keywords, strings, template strings, numbers, literals and comments', () => {
    const code = 'const a = `x${1}`; // note\nif (b === "s\\"q") return 0x1F + 2.5e3 || null; /* block */';
    expect(kinds(highlight(code, 'ts'))).toEqual([
      'keyword:const', 'string:`x${1}`', 'comment:// note', 'keyword:if', 'string:"s\\"q"', 'keyword:return', 'number:0x1F', 'number:2.5e3', 'literal:null', 'comment:/* block */',
    ]);
  });

  it('gives back the code exactly, piece by piece', () => {
    const code = 'def f(x):\n    """doc"""\n    return x + 1  # add\n';
    const pieces = highlight(code, 'python')!;
    expect(pieces.map((p) => p.text).join('')).toBe(code);
    expect(kinds(pieces)).toEqual(['keyword:def', 'string:"""doc"""', 'keyword:return', 'number:1', 'comment:# add']);
  });

  it('knows shell, SQL (any case), JSON and markup', () => {
    expect(kinds(highlight('npm install # deps\necho "hi"', 'bash'))).toEqual(['keyword:npm', 'comment:# deps', 'keyword:echo', 'string:"hi"']);
    expect(kinds(highlight('SELECT id FROM t WHERE ok = TRUE', 'sql'))).toEqual(['keyword:SELECT', 'keyword:FROM', 'keyword:WHERE', 'literal:TRUE']);
    expect(kinds(highlight('{"a": [1, true]}', 'json'))).toEqual(['string:"a"', 'number:1', 'literal:true']);
    expect(kinds(highlight('<a href="/x">link</a><!-- c -->', 'html'))).toEqual(['tag:<a', 'attr:href', 'string:"/x"', 'tag:</a', 'comment:<!-- c -->']);
  });

  it('compiles every grammar the build ships', () => {
    for (const name of GRAMMAR_NAMES) expect(highlight('x = 1 // y', name), name).not.toBeNull();
  });

  it('shows unknown languages and very long code plain', () => {
    expect(highlight('anything', 'brainfuck')).toBeNull();
    expect(highlight('x'.repeat(MAX_HIGHLIGHT_CHARS + 1), 'js')).toBeNull();
  });

  it('keeps an unclosed string or comment being streamed to the end', () => {
    expect(kinds(highlight('let s = "open', 'js'))).toEqual(['keyword:let', 'string:"open']);
    expect(kinds(highlight('a /* open', 'js'))).toEqual(['comment:/* open']);
  });
});

describe('highlightGrowing', () => {
  /** A small seeded generator, so a failure names a case that can be run again. */
  function random(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }

  // The fragments where a token's end depends on what follows it: quotes, escapes, comment
  // openers and closers, numbers that may go on (1. 1e 1e+ 0x), triple quotes, template strings,
  // markup tags and comments.
  const FRAGMENTS = [
    '"', "'", '\\', '\\"', '/*', '*/', '//', '#', '--', '\n', ' ', '  ', '1', '2.', '5', 'e', 'e+', '0x', 'F', '_', 'n',
    '"""', "'''", '`', '${', '}', 'return', 'const', 'SELECT', 'true', 'None', 'x', 'value', '<a', ' href=', '"/p"', '>', '</a', '<!--', '-->', '=', ';', '(', ')',
  ];

  function makeCode(next: () => number, length: number): string {
    let code = '';
    while (code.length < length) code += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)];
    return code;
  }

  it('gives what highlight gives, at every append of a block streamed in every language', () => {
    for (const lang of [...GRAMMAR_NAMES, 'html']) {
      for (let seed = 1; seed <= 12; seed++) {
        const next = random(seed * 7919 + lang.length);
        const code = makeCode(next, 300);
        // From nothing, as a fence opens before its first line streams in.
        let run = highlightGrowing(null, '', lang);
        expect(run?.pieces).toEqual([]);
        let shown = 0;
        while (shown < code.length) {
          shown = Math.min(code.length, shown + 1 + Math.floor(next() * 6));
          const text = code.slice(0, shown);
          run = highlightGrowing(run, text, lang);
          expect(run?.pieces, `${lang}, seed ${seed}, at ${shown}`).toEqual(highlight(text, lang));
          expect(run!.kept).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });

  it('keeps the pieces before the end as they were, the same objects', () => {
    const code = Array.from({ length: 40 }, (_, i) => `const v${i} = load("item ${i}", ${i * 2}); // ${i}`).join('\n');
    const first = highlightGrowing(null, code, 'ts')!;
    const next = highlightGrowing(first, `${code}\nreturn v1`, 'ts')!;
    expect(next.pieces).toEqual(highlight(`${code}\nreturn v1`, 'ts'));
    // All but the last few pieces are kept, by identity.
    expect(next.kept).toBeGreaterThan(first.pieces.length - 8);
    for (let i = 0; i < next.kept; i++) expect(next.pieces[i]).toBe(first.pieces[i]);
  });

  it('keeps the pieces of markup too, resuming inside a tag as a whole pass would', () => {
    const code = Array.from({ length: 30 }, (_, i) => `<li class="item-${i}" data-n='${i}'>Item ${i} <!-- note --></li>`).join('\n');
    const first = highlightGrowing(null, `${code}\n<a href="/x" title`, 'html')!;
    // The end of an open tag: "title" becomes an attribute once its "=" arrives.
    const next = highlightGrowing(first, `${code}\n<a href="/x" title="t">x</a>`, 'html')!;
    expect(next.pieces).toEqual(highlight(`${code}\n<a href="/x" title="t">x</a>`, 'html'));
    expect(next.pieces.slice(-6).map((p) => p.kind)).toEqual(['attr', null, 'string', null, 'tag', null]);
    expect(next.kept).toBeGreaterThan(first.pieces.length - 8);
    for (let i = 0; i < next.kept; i++) expect(next.pieces[i]).toBe(first.pieces[i]);
  });

  it('starts over when the code is not an append, or in another language', () => {
    const first = highlightGrowing(null, 'const a = "one"; // the first line of many', 'ts')!;
    const edited = highlightGrowing(first, 'let a = "one"; // the first line of many, edited', 'ts')!;
    expect(edited.kept).toBe(0);
    expect(edited.pieces).toEqual(highlight('let a = "one"; // the first line of many, edited', 'ts'));
    const other = highlightGrowing(first, 'const a = "one"; // the first line of many, in Python', 'python')!;
    expect(other.kept).toBe(0);
    expect(other.pieces).toEqual(highlight('const a = "one"; // the first line of many, in Python', 'python'));
  });

  it('shows code plain once it grows past the limit', () => {
    const run = highlightGrowing(null, 'x'.repeat(MAX_HIGHLIGHT_CHARS), 'js');
    expect(run).not.toBeNull();
    expect(highlightGrowing(run, 'x'.repeat(MAX_HIGHLIGHT_CHARS + 1), 'js')).toBeNull();
  });
});
