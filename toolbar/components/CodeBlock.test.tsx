import { renderToString } from 'preact-render-to-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerGrammar } from '../markdown/grammar-loader.ts';
import { GRAMMAR_SOURCES } from '../markdown/grammar-sources.ts';
import { highlight } from '../markdown/highlight.ts';
import { CodeBlock } from './CodeBlock.tsx';

beforeAll(() => {
  registerGrammar('js', GRAMMAR_SOURCES.js);
});

/** The text of an HTML string's `<code>`, entities decoded. */
function codeText(html: string): string {
  const inner = /<code>([\s\S]*)<\/code>/.exec(html)![1]!;
  return inner.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

describe('CodeBlock', () => {
  it('shows a long block whole and highlighted, in runs of 16 lines', () => {
    const code = Array.from({ length: 60 }, (_, i) => `const v${i} = load("a<b>&'${i}'", ${i}); // note ${i}`).join('\n');
    expect(highlight(code, 'ts')!.length).toBeGreaterThan(64 * 5);
    const html = renderToString(<CodeBlock lang="ts" text={code} />);
    expect(codeText(html)).toBe(code);
    expect(html.match(/class="ab-hl-keyword">const</g)).toHaveLength(60);
    expect(html.match(/class="ab-hl-comment">\/\/ note \d+</g)).toHaveLength(60);
    expect(html.match(/class="ab-code-lines"/g)).toHaveLength(4);
  });

  it('shows code in a language it cannot highlight as plain text', () => {
    const html = renderToString(<CodeBlock lang="brainfuck" text={'+[->+<]'} />);
    expect(codeText(html)).toBe('+[->+<]');
    expect(html).not.toContain('ab-hl-');
    const long = Array.from({ length: 20 }, (_, i) => `+${i}`).join('\n');
    const lines = renderToString(<CodeBlock lang="brainfuck" text={long} />);
    expect(codeText(lines)).toBe(long);
    expect(lines.match(/class="ab-code-lines"/g)).toHaveLength(2);
  });
});
