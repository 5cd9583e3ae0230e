import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { createMarkdownRenderer } from './incremental-markdown.ts';
import { lexMarkdown } from './lex-markdown.ts';
import { renderTokens } from './render-tokens.tsx';

const html = (text: string) => renderToString(<div>{renderTokens(lexMarkdown(text))}</div>);

const REPLY = [
  'The header uses the brand colour[^colour] and the spacing scale[^1].',
  '',
  'Both come from the design tokens[^colour].',
  '',
  '[^1]: `spacing.ts`, steps of 4 px.',
  '[^Colour]: `--brand` in `theme.css`,',
  'set by the marketing team.',
  '',
  '    Changed last in March.',
  '',
  'Anything else?',
].join('\n');

describe('footnotes', () => {
  it('numbers references in the order they first appear, and labels match in any case', () => {
    const out = html(REPLY);
    const refs = [...out.matchAll(/aria-label="Footnote (\d+)" data-footnote-ref="([^"]+)"/g)].map((m) => `${m[2]}=${m[1]}`);
    expect(refs).toEqual(['colour=1', '1=2', 'colour=1']);
  });

  it('shows each definition where it is written, with its number and all of its lines', () => {
    const out = html(REPLY);
    const notes = [...out.matchAll(/<div class="ab-footnote" role="note" aria-label="(Footnote \d+)"[^>]*>(.*?)<\/div><\/div>/gs)];
    expect(notes.map((n) => n[1])).toEqual(['Footnote 2', 'Footnote 1']);
    expect(notes[0]![2]).toContain('<p><code>spacing.ts</code>, steps of 4 px.</p>');
    // The lazy line joins the paragraph; the indented one after a blank line is the note's second paragraph.
    expect(notes[1]![2]).toContain('<p><code>--brand</code> in <code>theme.css</code>,\nset by the marketing team.</p><p>Changed last in March.</p>');
    expect(out).toMatch(/<p>Anything else\?<\/p><\/div>$/);
  });

  it('renders a reference before (or without) its definition as a footnote, never as "[^x]"', () => {
    const out = html('Said so[^src].');
    expect(out).toContain('aria-label="Footnote 1"');
    expect(out).not.toContain('[^src]');
  });

  it('takes each of many definitions in a row as its own note', () => {
    const defs = Array.from({ length: 3_000 }, (_, i) => `[^${i}]: note ${i}`).join('\n');
    const out = html(`See[^0] and[^2999].\n\n${defs}\n\nend`);
    expect(out.match(/class="ab-footnote"/g)).toHaveLength(3_000);
    expect(out).toContain('aria-label="Footnote 2"');
    expect(out).toMatch(/<p>note 2999<\/p><\/div><\/div><p>end<\/p><\/div>$/);
  });

  it('leaves text that only looks like one alone', () => {
    expect(html('an array [^ 1] and [^] and a[^b c]')).not.toContain('ab-fnref');
  });

  it('streams to the same result as rendering the whole text, at every step', () => {
    const md = createMarkdownRenderer();
    for (let end = 1; end <= REPLY.length; end++) {
      const prefix = REPLY.slice(0, end);
      expect(renderToString(<div>{md.render(prefix)}</div>), `at ${end}`).toBe(html(prefix));
    }
  });
});
