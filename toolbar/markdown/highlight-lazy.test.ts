import { describe, expect, it } from 'vitest';
import { builtGrammars, highlight } from './highlight.ts';

// Its own file: the grammars built so far are module state, fresh here.
describe('highlight grammars', () => {
  it('are built only when a code block in their language is first shown, once', () => {
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
