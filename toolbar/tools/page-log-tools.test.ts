import { describe, expect, it } from 'vitest';
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { PAGE_TOOL_DEFINITIONS } from '../../shared/page-tool-definitions.ts';
import { PAGE_CAPTURE_VERSION, type ConsoleEntry, type NetworkFailureEntry, type PageErrorEntry } from '../page/page-capture.ts';
import type { PageLogSnapshot } from '../page/read-page-log.ts';
import { createToolRunner, type ToolContext } from './index.ts';
import { runPageTool } from './page-tools.ts';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);

function consoleEntry(i: number, level: ConsoleEntry['level'] = 'log'): ConsoleEntry {
  return { level, text: `message ${i}`, time: T0 + i };
}

function setup(log: Partial<PageLogSnapshot> | null) {
  const snapshot: PageLogSnapshot | null = log && {
    startedAt: T0,
    startedBy: 'page',
    console: { entries: [], dropped: 0 },
    errors: { entries: [], dropped: 0 },
    network: { entries: [], dropped: 0 },
    ...log,
  };
  const ctx: ToolContext = {
    window: { location: { href: 'http://localhost/' }, document: { title: '' }, innerWidth: 1, innerHeight: 1, devicePixelRatio: 1, navigator: { userAgent: '', language: 'en' }, scrollX: 0, scrollY: 0 },
    document: { querySelectorAll: () => [] as unknown as NodeListOf<Element> },
    isOwnNode: () => false,
    getSelectedElements: () => [],
    highlight: () => {},
    loadPageTools: async () => ({ ok: true, run: runPageTool }),
    // As the page holds it: the tools check it as they read it.
    pageLog: { capture: () => snapshot && { version: PAGE_CAPTURE_VERSION, ...snapshot }, notStarted: () => null, isOwnRequest: () => false },
  };
  const run = createToolRunner(ctx);
  return (toolName: string, input: Record<string, unknown> = {}) => run({ toolName, input }, new AbortController().signal);
}

describe('the page log tools', () => {
  it('are declared, each saying its bounds', () => {
    const byName = new Map(PAGE_TOOL_DEFINITIONS.map((d) => [d.name, d.description]));
    expect(byName.get('get_console_messages')).toContain(`the last ${PAGE_TOOL_LIMITS.consoleMessages}`);
    expect(byName.get('get_page_errors')).toContain(`the last ${PAGE_TOOL_LIMITS.pageErrors}`);
    expect(byName.get('get_network_failures')).toContain('tokens, keys and passwords removed');
  });

  it('say since when the page was captured', async () => {
    const early = await setup({})('get_console_messages');
    expect(early.output).toMatchObject({ capturing: 'since the page started loading (2025-01-02T03:04:05.000Z)' });
    const late = await setup({ startedBy: 'toolbar' })('get_page_errors');
    expect(late.output).toMatchObject({ capturing: expect.stringMatching(/^since the toolbar loaded at 2025-01-02T03:04:05\.000Z; what the page said before then is not here/) });
  });

  it('answer with an error when the page broke the capture', async () => {
    expect(await setup(null)('get_network_failures')).toEqual({ output: { error: expect.stringContaining('Nothing was captured') }, isError: true });
  });
});

describe('get_console_messages', () => {
  const entries = [consoleEntry(0), consoleEntry(1, 'error'), consoleEntry(2, 'warn'), consoleEntry(3, 'error'), consoleEntry(4)];

  it('gives the newest messages last, with level, text and time', async () => {
    const result = await setup({ console: { entries, dropped: 7 } })('get_console_messages', { limit: 2 });
    expect(result.output).toEqual({
      capturing: expect.any(String),
      count: 2,
      messages: [
        { level: 'error', text: 'message 3', time: '2025-01-02T03:04:05.003Z' },
        { level: 'log', text: 'message 4', time: '2025-01-02T03:04:05.004Z' },
      ],
      omitted: 3,
      dropped: 7,
    });
  });

  it('keeps one level when asked, counting the others as omitted', async () => {
    const result = await setup({ console: { entries, dropped: 0 } })('get_console_messages', { level: 'error' });
    expect(result.output).toMatchObject({ count: 2, messages: [{ text: 'message 1' }, { text: 'message 3' }], omitted: 3 });
  });

  it('returns 100 by default and cuts any text the page stretched past the bound', async () => {
    const many = Array.from({ length: 300 }, (_, i) => consoleEntry(i));
    many[299] = { ...many[299]!, text: 'x'.repeat(10_000) };
    const output = (await setup({ console: { entries: many, dropped: 0 } })('get_console_messages')).output as { count: number; messages: { text: string }[] };
    expect(output.count).toBe(PAGE_TOOL_LIMITS.consoleDefault);
    expect(output.messages.at(-1)!.text).toHaveLength(PAGE_TOOL_LIMITS.consoleMessageChars);
  });

  it.each([[{ level: 'trace' }], [{ limit: 0 }], [{ limit: PAGE_TOOL_LIMITS.consoleMessages + 1 }]])('refuses bad input %j', async (input) => {
    expect((await setup({})('get_console_messages', input)).isError).toBe(true);
  });
});

describe('get_page_errors', () => {
  it('gives message, stack and where it was thrown, from the event or else the stack', async () => {
    const errors: PageErrorEntry[] = [
      { kind: 'error', message: 'Error: boom', stack: 'Error: boom\n    at go (http://localhost:5173/src/a.ts:3:9)', file: 'http://localhost:5173/src/main.ts', line: 12, column: 5, time: T0 },
      { kind: 'unhandledrejection', message: 'TypeError: x is undefined', stack: 'TypeError: x is undefined\n    at load (http://localhost:5173/src/api.ts:40:11)\n    at async run (http://localhost:5173/src/b.ts:1:1)', file: null, line: null, column: null, time: T0 + 1 },
      { kind: 'unhandledrejection', message: "{code: 42}", stack: null, file: null, line: null, column: null, time: T0 + 2 },
    ];
    const result = await setup({ errors: { entries: errors, dropped: 1 } })('get_page_errors');
    expect(result.output).toMatchObject({
      count: 3,
      omitted: 0,
      dropped: 1,
      errors: [
        { kind: 'error', message: 'Error: boom', stack: errors[0]!.stack, source: { file: 'http://localhost:5173/src/main.ts', line: 12, column: 5 } },
        { kind: 'unhandledrejection', source: { file: 'http://localhost:5173/src/api.ts', line: 40, column: 11 } },
        { kind: 'unhandledrejection', message: '{code: 42}', source: null, time: '2025-01-02T03:04:05.002Z' },
      ],
    });
    expect((result.output as { errors: object[] }).errors[2]).not.toHaveProperty('stack');
  });
});

describe('get_network_failures', () => {
  it('gives method, URL, status or error, and timing', async () => {
    const failures: NetworkFailureEntry[] = [
      { api: 'fetch', method: 'GET', url: 'http://localhost:5173/api/missing', status: 404, statusText: 'Not Found', error: null, start: T0, durationMs: 12 },
      { api: 'xhr', method: 'POST', url: 'http://other.example/save?token=[redacted]', status: null, statusText: null, error: 'network error', start: T0 + 50, durationMs: 3 },
    ];
    const result = await setup({ network: { entries: failures, dropped: 0 } })('get_network_failures', { limit: 5 });
    expect(result.output).toEqual({
      capturing: expect.any(String),
      count: 2,
      failures: [
        { api: 'fetch', method: 'GET', url: 'http://localhost:5173/api/missing', status: 404, statusText: 'Not Found', start: '2025-01-02T03:04:05.000Z', durationMs: 12 },
        { api: 'xhr', method: 'POST', url: 'http://other.example/save?token=[redacted]', error: 'network error', start: '2025-01-02T03:04:05.050Z', durationMs: 3 },
      ],
      omitted: 0,
      dropped: 0,
    });
  });
});
