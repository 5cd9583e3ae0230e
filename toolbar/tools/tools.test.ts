import { describe, expect, it } from 'vitest';
import type { SelectedElement } from '../../shared/schemas.ts';
import { ToolDefinitionSchema } from '../../shared/schemas.ts';
import * as v from 'valibot';
import { createFakeDocument, type FakeElement } from '../test-dom.ts';
import { HIGHLIGHT_MS, PAGE_TOOL_DEFINITIONS } from '../../shared/page-tool-definitions.ts';
import { createToolRunner, listToolDefinitions, type ToolContext } from './index.ts';
import { PAGE_TOOLS, runPageTool } from './page-tools.ts';

function setup() {
  const items = Array.from({ length: 30 }, (_, i) => ({
    tag: 'li',
    attrs: { class: 'item', 'data-i': String(i), style: 'color: red', onclick: 'x()' },
    text: `Item ${i} ` + 'long '.repeat(100),
    rect: { x: 0, y: i * 20, width: 100, height: 20 },
  }));
  const dom = createFakeDocument({
    tag: 'html',
    children: [
      {
        tag: 'body',
        children: [
          { tag: 'ul', attrs: { id: 'list' }, children: items },
          { tag: 'agentbar-toolbar', attrs: { class: 'item' } },
        ],
      },
    ],
  });
  const host = dom.all.find((e) => e.localName === 'agentbar-toolbar')!;
  const highlighted: { el: Element; label: string; ms: number }[] = [];
  const selected: SelectedElement[] = [
    { tagName: 'li', xpath: '/html/body/ul/li[1]', attributes: {}, textContent: 'Item', boundingClientRect: { x: 0, y: 0, width: 1, height: 1 } },
  ];
  const ctx: ToolContext = {
    window: {
      location: { href: 'http://localhost:3000/page' },
      document: { title: 'My page' },
      innerWidth: 1280,
      innerHeight: 720,
      devicePixelRatio: 2,
      navigator: { userAgent: 'UA', language: 'fr-FR' },
      scrollX: 0,
      scrollY: 340.4,
    },
    document: dom.doc as unknown as Document,
    isOwnNode: (node) => (host as FakeElement).contains(node as unknown as FakeElement),
    getSelectedElements: () => selected,
    highlight: (el, label, ms) => void highlighted.push({ el, label, ms }),
    loadPageTools: async () => ({ ok: true, run: runPageTool }),
  };
  const run = createToolRunner(ctx);
  const call = (toolName: string, input: Record<string, unknown>) => run({ toolName, input }, new AbortController().signal);
  return { call, highlighted, dom };
}

describe('tool definitions', () => {
  it('declares the page tools, which the hello schema accepts', () => {
    const defs = listToolDefinitions();
    expect(defs.map((d) => d.name)).toEqual(expect.arrayContaining(['get_page_info', 'get_selected_elements', 'query_selector', 'highlight_element', 'take_screenshot']));
    for (const d of defs) expect(v.safeParse(ToolDefinitionSchema, d).success).toBe(true);
    // The server lists these to agents before a page is open: the same declarations, word for word.
    expect(defs).toEqual(PAGE_TOOL_DEFINITIONS);
  });

  it('each has its code in page-tools.js, declared the same', () => {
    expect(listToolDefinitions(PAGE_TOOLS)).toEqual(PAGE_TOOL_DEFINITIONS);
  });
});

describe('get_page_info', () => {
  it('reports url, title, viewport, scroll and the selection count', async () => {
    const { call } = setup();
    expect(await call('get_page_info', {})).toEqual({
      output: {
        url: 'http://localhost:3000/page',
        title: 'My page',
        viewport: { width: 1280, height: 720 },
        scroll: { x: 0, y: 340 },
        devicePixelRatio: 2,
        locale: 'fr-FR',
        selectedElementsCount: 1,
      },
    });
  });
});

describe('get_selected_elements', () => {
  it('returns the picked elements', async () => {
    const { call } = setup();
    const result = await call('get_selected_elements', {});
    expect(result.output).toMatchObject({ count: 1, elements: [{ tagName: 'li' }] });
  });
});

describe('query_selector', () => {
  it('counts all matches but summarizes only the first ones, without the toolbar', async () => {
    const { call } = setup();
    const result = await call('query_selector', { selector: '.item', limit: 3 });
    expect(result.isError).toBeUndefined();
    const output = result.output as { count: number; shown: number; matches: Record<string, unknown>[] };
    expect(output.count).toBe(30);
    expect(output.shown).toBe(3);
    expect(output.matches[1]).toMatchObject({
      index: 1,
      tagName: 'li',
      selector: '#list > li:nth-of-type(2)',
      attributes: { class: 'item' },
      rect: { x: 0, y: 20, width: 100, height: 20 },
    });
    // Only useful attributes, and a bounded text excerpt.
    expect(output.matches[1]!.attributes).not.toHaveProperty('onclick');
    expect((output.matches[1]!.text as string).length).toBeLessThanOrEqual(200);
  });

  it('shows 10 matches unless told otherwise', async () => {
    const { call } = setup();
    expect(((await call('query_selector', { selector: 'li' })).output as { shown: number }).shown).toBe(10);
  });

  it('reports an invalid selector clearly', async () => {
    const { call } = setup();
    expect(await call('query_selector', { selector: 'li[' })).toEqual({
      output: { error: expect.stringMatching(/^Invalid CSS selector 'li\['/) },
      isError: true,
    });
  });

  it.each([
    [{}, /selector/],
    [{ selector: '' }, /selector must not be empty/],
    [{ selector: 'li', limit: 0 }, /limit/],
    [{ selector: 'li', limit: 1.5 }, /limit/],
    [{ selector: 'li', limit: 51 }, /limit/],
  ])('refuses bad input %j', async (input, message) => {
    const { call } = setup();
    const result = await call('query_selector', input);
    expect(result.isError).toBe(true);
    expect((result.output as { error: string }).error).toMatch(message);
  });
});

describe('highlight_element', () => {
  it('outlines the first match through the toolbar overlay', async () => {
    const { call, highlighted } = setup();
    const result = await call('highlight_element', { selector: '#list' });
    expect(result.output).toMatchObject({ highlighted: true, matchCount: 1, element: { tagName: 'ul', selector: '#list' } });
    expect(highlighted).toHaveLength(1);
    expect(highlighted[0]).toMatchObject({ label: '#list', ms: HIGHLIGHT_MS });
  });

  it('says so when nothing matches, and highlights nothing', async () => {
    const { call, highlighted } = setup();
    expect(await call('highlight_element', { selector: '#nope' })).toEqual({
      output: { error: "No element matches '#nope'" },
      isError: true,
    });
    expect(highlighted).toEqual([]);
  });

  it('never highlights the toolbar itself', async () => {
    const { call } = setup();
    expect((await call('highlight_element', { selector: 'agentbar-toolbar' })).isError).toBe(true);
  });
});

describe('the runner', () => {
  it('answers an unknown tool with an error', async () => {
    const { call } = setup();
    expect(await call('rm_rf', {})).toEqual({ output: { error: 'Unknown toolbar tool: rm_rf' }, isError: true });
  });

  it('turns a throwing tool into an error result', async () => {
    const ctx = { getSelectedElements: () => { throw new Error('boom'); }, loadPageTools: async () => ({ ok: true, run: runPageTool }) } as unknown as ToolContext;
    const run = createToolRunner(ctx);
    expect(await run({ toolName: 'get_selected_elements', input: {} }, new AbortController().signal)).toEqual({
      output: { error: 'get_selected_elements failed: boom' },
      isError: true,
    });
  });

  it('does not start a cancelled call', async () => {
    const { dom } = setup();
    const controller = new AbortController();
    controller.abort();
    const run = createToolRunner({ document: dom.doc } as unknown as ToolContext);
    expect((await run({ toolName: 'query_selector', input: { selector: 'li' } }, controller.signal)).isError).toBe(true);
  });
});

describe('the tools’ code, loaded on first use', () => {
  function runWith(loadPageTools: ToolContext['loadPageTools']) {
    const run = createToolRunner({ getSelectedElements: () => [], ...(loadPageTools ? { loadPageTools } : {}) } as unknown as ToolContext);
    return (toolName: string, signal = new AbortController().signal) => run({ toolName, input: {} }, signal);
  }

  it('is loaded once a tool is called, and runs it', async () => {
    let loads = 0;
    const call = runWith(async () => (loads++, { ok: true, run: runPageTool }));
    expect(loads).toBe(0);
    expect(await call('get_selected_elements')).toEqual({ output: { count: 0, elements: [] } });
    expect(loads).toBe(1);
  });

  it('that cannot be loaded answers the call with why, naming the tool', async () => {
    const call = runWith(async () => ({ ok: false, error: 'page-tools.js could not be loaded from http://127.0.0.1:4477/page-tools.js.' }));
    expect(await call('get_accessibility_tree')).toEqual({
      output: { error: 'get_accessibility_tree is not available on this page: page-tools.js could not be loaded from http://127.0.0.1:4477/page-tools.js.' },
      isError: true,
    });
    expect(await runWith(undefined)('get_page_info')).toEqual({ output: { error: 'This toolbar cannot run get_page_info' }, isError: true });
  });

  it('does not run a call cancelled while it loaded', async () => {
    const controller = new AbortController();
    const call = runWith(async () => (controller.abort(), { ok: true, run: runPageTool }));
    expect(await call('get_selected_elements', controller.signal)).toEqual({ output: { error: 'Cancelled' }, isError: true });
  });

  it('of another version than the toolbar says to reload the page', async () => {
    expect(await runPageTool('get_everything', {}, {} as ToolContext, new AbortController().signal)).toEqual({
      output: { error: "This page's agentbar tools have no get_everything: reload the page" },
      isError: true,
    });
  });
});
