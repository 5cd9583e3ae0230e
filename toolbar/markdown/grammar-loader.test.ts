import { describe, expect, it } from 'vitest';
import { configureGrammars, grammarSource, loadGrammar, registerGrammar } from './grammar-loader.ts';
import { GRAMMAR_NAMES } from './grammar-names.ts';
import { GRAMMAR_SOURCES, grammarScript } from './grammar-sources.ts';

describe('grammar scripts', () => {
  it('hand their grammar to the toolbar that configured the page', async () => {
    const win = {} as Window & Record<symbol, unknown>;
    configureGrammars(win, { base: 'http://127.0.0.1:4477/lang/' });
    for (const name of GRAMMAR_NAMES) new Function('self', grammarScript(name))(win);
    for (const name of GRAMMAR_NAMES) expect(grammarSource(name), name).toEqual({ ...GRAMMAR_SOURCES[name], caseless: GRAMMAR_SOURCES[name].caseless === true });
    // Already there: no script is added for it.
    expect(await loadGrammar('python')).toBe(true);
  });

  it('do nothing on a page without a toolbar', () => {
    expect(() => new Function('self', grammarScript('json'))({})).not.toThrow();
  });
});

describe('registerGrammar', () => {
  it('ignores malformed data and keeps the first grammar of a name', () => {
    expect(registerGrammar('x1', null)).toBe(false);
    expect(registerGrammar('x2', { comment: 1, string: '', keywords: '', literals: '' })).toBe(false);
    expect(registerGrammar('x3', { comment: '', string: '', keywords: '', literals: '', caseless: 'yes' })).toBe(false);
    expect(registerGrammar('x4', { comment: 'a'.repeat(4_001), string: '', keywords: '', literals: '' })).toBe(false);
    expect(registerGrammar(42, { comment: '', string: '', keywords: '', literals: '' })).toBe(false);
    expect(grammarSource('x1') ?? grammarSource('x2') ?? grammarSource('x3') ?? grammarSource('x4')).toBeUndefined();
    expect(registerGrammar('x5', { comment: '#', string: '"', keywords: 'a', literals: '' })).toBe(true);
    expect(registerGrammar('x5', { comment: '//', string: '"', keywords: 'b', literals: '' })).toBe(false);
    expect(grammarSource('x5')?.keywords).toBe('a');
  });
});
