import { describe, expect, it } from 'vitest';
import { loadGrammar, registerGrammar } from './grammar-loader.ts';
import { GRAMMAR_SOURCES } from './grammar-sources.ts';
import { builtGrammars, highlight } from './highlight.ts';

// Its own file: the grammars loaded and built so far are module state, fresh here.
describe('highlight grammars', () => {
  it('leave code plain until their grammar has arrived', async () => {
    expect(highlight('const a = 1;', 'ts')).toBeNull();
    // No toolbar script to load it from (and no document here): it cannot arrive.
    expect(await loadGrammar('js')).toBe(false);
    expect(highlight('const a = 1;', 'ts')).toBeNull();
    expect(builtGrammars()).toEqual([]);
  });

  it('are built only when a code block in their language is first shown, once', () => {
    registerGrammar('js', GRAMMAR_SOURCES.js);
    registerGrammar('python', GRAMMAR_SOURCES.python);
    expect(builtGrammars()).toEqual([]);
    highlight('const a = 1;', 'tsx');
    highlight('let b = 2;', 'javascript');
    expect(builtGrammars()).toEqual(['js']);
    highlight('x = 1', 'py');
    expect(builtGrammars()).toEqual(['js', 'python']);
  });

  it('builds nothing for an unknown language, even one named like an object property', () => {
    for (const lang of ['brainfuck', 'constructor', '__proto__', 'toString']) expect(highlight('a b c', lang)).toBeNull();
    expect(builtGrammars()).toEqual(['js', 'python']);
  });
});
