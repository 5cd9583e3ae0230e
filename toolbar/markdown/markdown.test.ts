import { isValidElement, type VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { CodeBlock } from '../components/CodeBlock.tsx';
import { lexMarkdown } from './lex-markdown.ts';
import { renderTokens } from './render-tokens.tsx';
import { sanitizeHref } from './sanitize-href.ts';

/** Every element type and every string in a rendered tree, walked depth first. */
function walk(nodes: unknown, visit: (node: VNode | string) => void): void {
  if (Array.isArray(nodes)) {
    for (const n of nodes) walk(n, visit);
    return;
  }
  if (typeof nodes === 'string' || typeof nodes === 'number') {
    visit(String(nodes));
    return;
  }
  if (!isValidElement(nodes)) return;
  visit(nodes);
  const props = nodes.props as Record<string, unknown>;
  // CodeBlock renders its text later; its text prop is what it shows.
  if (nodes.type === CodeBlock) visit(String(props.text));
  walk(props.children, visit);
}

function render(text: string) {
  const types: string[] = [];
  const strings: string[] = [];
  const elements: VNode[] = [];
  walk(renderTokens(lexMarkdown(text)), (n) => {
    if (typeof n === 'string') strings.push(n);
    else {
      elements.push(n);
      types.push(typeof n.type === 'string' ? n.type : n.type === CodeBlock ? 'CodeBlock' : 'component');
    }
  });
  return { types, text: strings.join(''), elements };
}

describe('lexMarkdown and renderTokens', () => {
  it('reads headings, paragraphs, rules and quotes; a line break in a paragraph stays in its text', () => {
    const { types, elements } = render('# Title\n\nFirst line\nsecond line\n\n---\n\n> quoted\n> more');
    expect(types).toEqual(['h1', 'p', 'hr', 'blockquote', 'p']);
    // CommonMark keeps it a soft break; the toolbar's CSS (white-space: pre-line) shows it as a new line.
    expect((elements[1]!.props as { children: unknown[] }).children.join('')).toBe('First line\nsecond line');
  });

  it('keeps fenced code verbatim, with its language', () => {
    const { elements } = render('```ts\nconst a = `<b>` * 2;\n  indented **not bold**\n```\nafter');
    expect(elements[0]!.props).toMatchObject({ lang: 'ts', text: 'const a = `<b>` * 2;\n  indented **not bold**' });
    expect(elements[1]!.type).toBe('p');
  });

  it('renders an unclosed fence being streamed as code up to the end', () => {
    const { elements } = render('Here:\n```js\nlet x = 1;\nlet y');
    expect(elements[1]!.props).toMatchObject({ lang: 'js', text: 'let x = 1;\nlet y' });
  });

  it('keeps a fenced block with blank lines inside a numbered item in the item, and what follows as text', () => {
    const { types, text } = render('1. Run:\n\n   ```sh\n   npm install\n\n\n   npm start\n   ```\n\n2. Open the page.\n\nDone.');
    expect(types).toEqual(['ol', 'li', 'p', 'CodeBlock', 'li', 'p', 'p']);
    expect(text).toContain('npm install\n\n\nnpm start');
    expect(text.endsWith('Done.')).toBe(true);
  });

  it('reads nested, ordered and task lists, starting at their first number', () => {
    const { types, elements } = render('3. one\n4. two\n   - sub a\n   - sub b\n5. three\n\n- [x] done\n- [ ] todo');
    expect(types.filter((t) => t === 'ol' || t === 'ul')).toEqual(['ol', 'ul', 'ul']);
    expect(elements.find((e) => e.type === 'ol')!.props).toMatchObject({ start: 3 });
    const boxes = elements.filter((e) => (e.props as { class?: string }).class === 'ab-task-box').map((e) => (e.props as unknown as { 'aria-label': string })['aria-label']);
    expect(boxes).toEqual(['done', 'not done']);
  });

  it('reads GFM tables with alignment, strikethrough and bare URLs', () => {
    const { types, elements, text } = render('| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 |\n\n~~gone~~ see https://example.com/x.');
    expect(types).toEqual(expect.arrayContaining(['table', 'thead', 'tbody', 'del', 'a']));
    expect(elements.filter((e) => e.type === 'td').map((e) => (e.props as { style?: unknown }).style)).toEqual([{ textAlign: 'left' }, { textAlign: 'right' }, { textAlign: 'left' }, { textAlign: 'right' }]);
    expect((elements.find((e) => e.type === 'a')!.props as unknown as { href: string }).href).toBe('https://example.com/x');
    expect(text.endsWith('https://example.com/x.')).toBe(true);
  });

  it('decodes character references in text, and leaves code as written', () => {
    const { text } = render('a &amp; b &copy; &#35; &#x1F600; &madeup; `&amp;`');
    expect(text).toBe('a & b © # 😀 &madeup; &amp;');
  });

  it('leaves snake_case, lone stars and escapes as text', () => {
    expect(render('snake_case_name 2 * 3 * 4 \\*not em\\*').text).toBe('snake_case_name 2 * 3 * 4 *not em*');
  });

  it('makes links only for http(s) and mailto targets', () => {
    const { types, text } = render('[x](javascript:alert(1)) [y](/relative) [mail](mailto:a@b.c)');
    expect(types.filter((t) => t === 'a')).toHaveLength(1);
    expect(text).toBe('x y mail');
  });

  it('turns images into links: a message never loads a remote resource', () => {
    const { types, elements } = render('![logo](https://example.com/logo.png)');
    expect(types).not.toContain('img');
    expect(elements.find((e) => e.type === 'a')!.props).toMatchObject({ href: 'https://example.com/logo.png', children: '🖼 logo' });
  });

  it('bounds nesting so hostile input cannot blow the stack', () => {
    expect(() => render('>'.repeat(5000) + ' deep')).not.toThrow();
    expect(() => render(Array.from({ length: 200 }, (_, i) => ' '.repeat(i * 2) + '- x').join('\n'))).not.toThrow();
  });

  it('stays fast on pathological input', () => {
    const hostile = '*a '.repeat(20_000) + '['.repeat(20_000) + '`'.repeat(3) + 'x ' + '_b '.repeat(20_000);
    const started = Date.now();
    render(hostile);
    // Generous bound: a quadratic parser takes minutes here.
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('sanitizeHref', () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['http://localhost:3000/a?b=1#c', 'http://localhost:3000/a?b=1#c'],
    ['mailto:dev@example.com', 'mailto:dev@example.com'],
  ])('keeps %s', (raw, expected) => {
    expect(sanitizeHref(raw)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\nscript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    '//evil.example/x',
    '/relative',
    'file:///etc/passwd',
    'https://',
  ])('refuses %j', (raw) => {
    expect(sanitizeHref(raw)).toBeNull();
  });
});

describe('renderTokens', () => {
  it('renders HTML in a message as literal text, never as elements', () => {
    const { types, text } = render('<img src=x onerror=alert(1)> and <script>alert(2)</script>\n\n<b>bold?</b>');
    expect(types).not.toContain('img');
    expect(types).not.toContain('script');
    expect(types).not.toContain('b');
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(text).toContain('<script>alert(2)</script>');
    expect(text).toContain('<b>bold?</b>');
  });

  it('never sets innerHTML or event handler props', () => {
    const { elements } = render('# h\n\n**x** [a](https://a.dev) `c`\n\n```html\n<div onclick="x()">\n```\n\n| t |\n|---|\n| <i>u</i> |');
    for (const el of elements) {
      const props = el.props as Record<string, unknown>;
      expect(props).not.toHaveProperty('dangerouslySetInnerHTML');
      for (const key of Object.keys(props)) expect(key).not.toMatch(/^on/i);
    }
  });

  it('opens links in a new tab without an opener or referrer', () => {
    const { elements } = render('[site](https://example.com) and https://x.dev');
    const links = elements.filter((e) => e.type === 'a');
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link.props).toMatchObject({ target: '_blank', rel: 'noopener noreferrer' });
    }
    expect(links.map((l) => (l.props as unknown as { href: string }).href)).toEqual(['https://example.com/', 'https://x.dev/']);
  });

  it('renders a javascript: link as its plain label', () => {
    const { types, text } = render('[click me](javascript:alert(document.cookie))');
    expect(types).not.toContain('a');
    expect(text).toBe('click me');
  });

  it('renders code blocks through CodeBlock with the code as text', () => {
    const { elements } = render('```sh\nrm -rf <dir>\n```');
    const code = elements.find((e) => e.type === CodeBlock);
    expect(code?.props).toMatchObject({ lang: 'sh', text: 'rm -rf <dir>' });
  });

  it('renders lists, tables and quotes with their own elements', () => {
    const { types } = render('- a\n- b\n\n1. c\n\n> q\n\n| h |\n|---|\n| d |');
    for (const t of ['ul', 'li', 'ol', 'blockquote', 'table', 'thead', 'th', 'tbody', 'td']) expect(types).toContain(t);
  });
});
