import { isValidElement, type VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { CodeBlock } from '../components/CodeBlock.tsx';
import { parseMarkdown } from './parse-blocks.ts';
import { parseInline } from './parse-inline.ts';
import { renderBlocks } from './render-markdown.tsx';
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
  walk(renderBlocks(parseMarkdown(text)), (n) => {
    if (typeof n === 'string') strings.push(n);
    else {
      elements.push(n);
      types.push(typeof n.type === 'string' ? n.type : n.type === CodeBlock ? 'CodeBlock' : 'component');
    }
  });
  return { types, text: strings.join(''), elements };
}

describe('parseMarkdown', () => {
  it('reads headings, paragraphs, rules and quotes', () => {
    const blocks = parseMarkdown('# Title\n\nFirst line\nsecond line\n\n---\n\n> quoted\n> more');
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'hr', 'blockquote']);
    expect(blocks[0]).toMatchObject({ type: 'heading', level: 1, children: [{ type: 'text', text: 'Title' }] });
    // A single newline inside a paragraph is a line break, as in chat apps.
    expect(blocks[1]).toEqual({
      type: 'paragraph',
      children: [{ type: 'text', text: 'First line' }, { type: 'br' }, { type: 'text', text: 'second line' }],
    });
  });

  it('keeps fenced code verbatim, with its language', () => {
    const blocks = parseMarkdown('```ts\nconst a = `<b>` * 2;\n  indented **not bold**\n```\nafter');
    expect(blocks[0]).toEqual({
      type: 'code',
      lang: 'ts',
      text: 'const a = `<b>` * 2;\n  indented **not bold**',
      closed: true,
    });
    expect(blocks[1]).toMatchObject({ type: 'paragraph' });
  });

  it('renders an unclosed fence being streamed as code up to the end', () => {
    expect(parseMarkdown('Here:\n```js\nlet x = 1;\nlet y')).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: 'Here:' }] },
      { type: 'code', lang: 'js', text: 'let x = 1;\nlet y', closed: false },
    ]);
  });

  it('reads nested, ordered and task lists', () => {
    const blocks = parseMarkdown('1. one\n2. two\n   - sub a\n   - sub b\n3. three\n\n- [x] done\n- [ ] todo');
    const ordered = blocks[0]!;
    expect(ordered).toMatchObject({ type: 'list', ordered: true, start: 1 });
    if (ordered.type !== 'list') throw new Error('not a list');
    expect(ordered.items).toHaveLength(3);
    expect(ordered.items[1]!.children.map((b) => b.type)).toEqual(['paragraph', 'list']);
    const tasks = blocks[1]!;
    if (tasks.type !== 'list') throw new Error('not a list');
    expect(tasks.items.map((i) => i.checked)).toEqual([true, false]);
  });

  it('starts an ordered list at its first number', () => {
    expect(parseMarkdown('3. three\n4. four')[0]).toMatchObject({ type: 'list', ordered: true, start: 3 });
  });

  it('reads GFM tables with alignment', () => {
    const [table] = parseMarkdown('| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 |');
    expect(table).toMatchObject({ type: 'table', align: ['left', 'right'] });
    if (table?.type !== 'table') throw new Error('not a table');
    expect(table.rows).toHaveLength(2);
    expect(table.rows[1]![1]).toEqual([]); // a short row is padded with empty cells
  });

  it('bounds nesting so hostile input cannot blow the stack', () => {
    const deep = '>'.repeat(5000) + ' deep';
    expect(() => parseMarkdown(deep)).not.toThrow();
    const list = Array.from({ length: 200 }, (_, i) => ' '.repeat(i * 2) + '- x').join('\n');
    expect(() => parseMarkdown(list)).not.toThrow();
  });
});

describe('parseInline', () => {
  it('reads emphasis, strong, strikethrough and code spans', () => {
    expect(parseInline('a *b* **c** ~~d~~ `e *f*`')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'em', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' ' },
      { type: 'strong', children: [{ type: 'text', text: 'c' }] },
      { type: 'text', text: ' ' },
      { type: 'del', children: [{ type: 'text', text: 'd' }] },
      { type: 'text', text: ' ' },
      { type: 'code', text: 'e *f*' },
    ]);
  });

  it('nests emphasis inside strong', () => {
    expect(parseInline('**a *b* c**')).toEqual([
      {
        type: 'strong',
        children: [
          { type: 'text', text: 'a ' },
          { type: 'em', children: [{ type: 'text', text: 'b' }] },
          { type: 'text', text: ' c' },
        ],
      },
    ]);
  });

  it('leaves snake_case, lone stars and escapes as text', () => {
    expect(parseInline('snake_case_name')).toEqual([{ type: 'text', text: 'snake_case_name' }]);
    expect(parseInline('2 * 3 * 4')).toEqual([{ type: 'text', text: '2 * 3 * 4' }]);
    expect(parseInline('\\*not em\\*')).toEqual([{ type: 'text', text: '*not em*' }]);
  });

  it('makes links only for http(s) and mailto targets', () => {
    expect(parseInline('[docs](https://example.com/a)')).toEqual([
      { type: 'link', href: 'https://example.com/a', children: [{ type: 'text', text: 'docs' }] },
    ]);
    expect(parseInline('[x](javascript:alert(1))')).toEqual([{ type: 'text', text: 'x' }]);
    expect(parseInline('[x](/relative)')).toEqual([{ type: 'text', text: 'x' }]);
    expect(parseInline('[mail](mailto:a@b.c)')[0]).toMatchObject({ type: 'link', href: 'mailto:a@b.c' });
  });

  it('links bare URLs without the punctuation that ends the sentence', () => {
    expect(parseInline('see https://example.com/x.')).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'link', href: 'https://example.com/x', children: [{ type: 'text', text: 'https://example.com/x' }] },
      { type: 'text', text: '.' },
    ]);
  });

  it('turns image references into links: a message never loads a remote resource', () => {
    expect(parseInline('![logo](https://example.com/logo.png)')).toEqual([
      { type: 'link', href: 'https://example.com/logo.png', children: [{ type: 'text', text: 'logo' }] },
    ]);
  });

  it('stays fast on pathological input', () => {
    const hostile = '*a '.repeat(20_000) + '['.repeat(20_000) + '`'.repeat(3) + 'x ' + '_b '.repeat(20_000);
    const started = Date.now();
    parseInline(hostile);
    // Generous bound: the quadratic version takes minutes here.
    expect(Date.now() - started).toBeLessThan(2000);
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

describe('renderBlocks', () => {
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
