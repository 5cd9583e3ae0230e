import { describe, expect, it } from 'vitest';
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { createFakeDocument, styleFromAttribute, type FakeElement } from '../test-dom.ts';
import { createToolRunner, type ToolContext } from './index.ts';
import { runPageTool } from './page-tools.ts';

/** A page with a form, a long list and the toolbar; styles come from `style` attributes. */
function setup(options: { styles?: boolean } = {}) {
  const dom = createFakeDocument({
    tag: 'html',
    children: [
      {
        tag: 'body',
        children: [
          { tag: 'h1', attrs: { id: 'title', style: 'display: block; color: red' }, text: 'Orders', rect: { x: 10, y: 20, width: 300, height: 40 } },
          { tag: 'button', attrs: { class: 'buy', style: 'display: none' }, text: 'Hidden buy' },
          { tag: 'button', attrs: { class: 'buy' }, text: 'Buy' },
          { tag: 'ul', attrs: { id: 'list' }, children: Array.from({ length: 40 }, (_, i) => ({ tag: 'li', text: `Item ${i}` })) },
        ],
      },
      { tag: 'agentbar-toolbar', children: [{ tag: 'button', text: 'Open agentbar' }] },
    ],
  });
  const host = dom.all.find((e) => e.localName === 'agentbar-toolbar')!;
  const picked: (Element | null)[] = [dom.byId('title'), null];
  const ctx: ToolContext = {
    window: { location: { href: 'http://localhost/' }, document: { title: 'Acme Orders' }, innerWidth: 1, innerHeight: 1, devicePixelRatio: 1, navigator: { userAgent: '', language: 'en' }, scrollX: 0, scrollY: 0 },
    document: dom.doc as unknown as Document,
    isOwnNode: (node) => (host as FakeElement).contains(node as unknown as FakeElement),
    getSelectedElements: () => [],
    highlight: () => {},
    getPickedNodes: () => picked,
    loadPageTools: async () => ({ ok: true, run: runPageTool }),
    ...(options.styles === false ? {} : { getComputedStyle: styleFromAttribute }),
  };
  const run = createToolRunner(ctx);
  return (toolName: string, input: Record<string, unknown> = {}) => run({ toolName, input }, new AbortController().signal);
}

describe('get_accessibility_tree', () => {
  it('gives the whole page under a document node named by its title, without hidden parts or the toolbar', async () => {
    const result = await setup()('get_accessibility_tree', { maxNodes: 5 });
    expect(result.output).toEqual({
      root: 'document',
      nodes: 5,
      truncated: true,
      tree: {
        role: 'document',
        name: 'Acme Orders',
        children: [
          { role: 'heading', name: 'Orders', level: 1 },
          { role: 'button', name: 'Buy' },
          // The fifth node; its text would be the sixth.
          { role: 'list', children: [{ role: 'listitem' }] },
        ],
      },
    });
    expect(JSON.stringify(result.output)).not.toContain('agentbar');
  });

  it('starts from the first element a selector matches', async () => {
    const result = await setup()('get_accessibility_tree', { selector: '#list' });
    expect(result.output).toMatchObject({ root: '#list', matchCount: 1, nodes: 81, truncated: false, tree: { role: 'list' } });
  });

  it('refuses a selector that matches nothing, or only the toolbar, and bad bounds', async () => {
    const call = setup();
    expect(await call('get_accessibility_tree', { selector: '#nope' })).toEqual({ output: { error: "No element matches '#nope'" }, isError: true });
    expect((await call('get_accessibility_tree', { selector: 'agentbar-toolbar' })).isError).toBe(true);
    expect((await call('get_accessibility_tree', { maxNodes: PAGE_TOOL_LIMITS.treeNodes + 1 })).isError).toBe(true);
  });
});

describe('get_computed_styles', () => {
  it('gives the styles and the box of the first match of a selector', async () => {
    const result = await setup()('get_computed_styles', { selector: '#title' });
    expect(result.output).toMatchObject({
      element: { tagName: 'h1', selector: '#title', box: { x: 10, y: 20, width: 300, height: 40 } },
      matchCount: 1,
      styles: { display: 'block', color: 'red' },
    });
  });

  it('takes a pick instead, 1 for the first', async () => {
    const call = setup();
    expect((await call('get_computed_styles', { pick: 1 })).output).toMatchObject({ element: { tagName: 'h1' } });
    expect((await call('get_computed_styles', { pick: 1 })).output).not.toHaveProperty('matchCount');
    expect(await call('get_computed_styles', { pick: 2 })).toEqual({ output: { error: 'Pick 2 has left the page' }, isError: true });
    expect(await call('get_computed_styles', { pick: 3 })).toEqual({ output: { error: 'Only 2 element(s) are picked, so there is no pick 3' }, isError: true });
  });

  it.each([
    [{}, 'Give a selector or a pick'],
    [{ selector: 'h1', pick: 1 }, 'Give a selector or a pick, not both'],
    [{ pick: 0 }, /pick/],
    [{ selector: 'h1[' }, /^Invalid CSS selector/],
  ])('refuses %j', async (input, message) => {
    const result = await setup()('get_computed_styles', input);
    expect(result.isError).toBe(true);
    expect((result.output as { error: string }).error).toMatch(message);
  });

  it('says so in a toolbar that cannot read styles', async () => {
    expect(await setup({ styles: false })('get_computed_styles', { selector: 'h1' })).toEqual({ output: { error: 'This toolbar cannot read computed styles' }, isError: true });
  });
});
