import { beforeAll, describe, expect, it } from 'vitest';
import { registerGrammar } from './grammar-loader.ts';
import { GRAMMAR_NAMES } from './grammar-names.ts';
import { GRAMMAR_SOURCES } from './grammar-sources.ts';
import { highlight, MAX_HIGHLIGHT_CHARS, type HighlightPiece } from './highlight.ts';

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
