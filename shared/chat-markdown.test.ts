import { Lexer, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { formatChatMarkdown, MAX_TOOL_TEXT } from './chat-markdown.ts';
import { formatLocalDateTime } from './format.ts';
import type { Message } from './schemas.ts';

const textOf = (t: Token) => ('text' in t ? t.text : '');
const at = (minute: number) => Date.UTC(2026, 10, 30, 7, minute);
const time = (t: number) => new Date(t).toISOString().slice(11, 16);
const page = { url: 'http://localhost:5173/orders', title: 'Orders', viewport: { width: 1280, height: 720 }, devicePixelRatio: 1, userAgent: 'Chromium', locale: 'en' };

const CHAT: Message[] = [
  {
    id: 'm1',
    role: 'user',
    content: [
      { type: 'text', text: 'Why does **Filter** ignore the status?' },
      { type: 'image', image: 'data:image/png;base64,AAAA', mimeType: 'image/png' },
      { type: 'file', data: 'data:text/csv;base64,YSxiCg==', filename: 'orders.csv', mimeType: 'text/csv' },
    ],
    metadata: {
      source: 'toolbar',
      browser: page,
      selectedElements: [
        {
          tagName: 'BUTTON',
          xpath: '/html/body/main/form/button',
          selector: 'form > button.filter',
          attributes: { class: 'filter' },
          textContent: '  Filter\n orders ',
          boundingClientRect: { x: 0, y: 0, width: 10, height: 10 },
        },
      ],
    },
    createdAt: at(22),
  },
  {
    id: 'm2',
    role: 'assistant',
    agent: 'acp/claude',
    content: [
      { type: 'reasoning', text: 'The handler reads the form.\nIt skips status.', durationMs: 3_200 },
      {
        type: 'tool-call',
        toolCallId: 't1',
        toolName: 'edit',
        input: { path: 'src/filter.ts' },
        runtime: 'backend',
        requiresApproval: true,
        state: 'done',
        title: 'Edit src/filter.ts',
        locations: [{ path: 'src/filter.ts' }],
      },
      { type: 'tool-result', toolCallId: 't1', toolName: 'edit', output: 'Edited\n```\n# not a heading\n```', title: 'Edit src/filter.ts' },
      { type: 'text', text: 'Fixed: the handler now reads `status`.' },
    ],
    status: 'done',
    createdAt: at(23),
    plan: [
      { content: 'Read the handler', status: 'completed' },
      { content: 'Fix it', status: 'in_progress' },
    ],
    notices: [{ severity: 'warning', title: 'MCP server "db" unreachable' }],
  },
  { id: 'm3', role: 'user', content: [{ type: 'tool-approval-response', toolCallId: 't1', approved: true, label: 'Yes' }], metadata: { source: 'toolbar', selectedElements: [] }, createdAt: at(24) },
  {
    id: 'm4',
    role: 'assistant',
    agent: 'demo/guide',
    content: [{ type: 'tool-call', toolCallId: 't2', toolName: 'get_selection', input: {}, runtime: 'toolbar', requiresApproval: false, state: 'done' }],
    status: 'done',
    createdAt: at(25),
  },
  { id: 'm5', role: 'tool', content: [{ type: 'tool-result', toolCallId: 't2', toolName: 'get_selection', output: { count: 0 } }], createdAt: at(25) },
  { id: 'm6', role: 'assistant', agent: 'demo/guide', content: [{ type: 'text', text: 'Half an ans' }], status: 'failed', error: 'The model\nwent away', createdAt: at(26) },
];

describe('formatChatMarkdown', () => {
  it('writes who said what and when, with tool calls, reasoning, picked elements and attachments', () => {
    expect(formatChatMarkdown({ title: 'Fix the\nfilter', messages: CHAT }, { formatTime: time })).toBe(
      [
        '# Fix the filter',
        '## You · 07:22',
        'On http://localhost:5173/orders (“Orders”), with this element picked:\n- `form > button.filter` “Filter orders”',
        'Why does **Filter** ignore the status?',
        '_Attached: an image (image/png, 3 B), `orders.csv` (text/csv, 4 B)._',
        '## acp/claude · 07:23',
        '> **Warning:** MCP server "db" unreachable',
        '**Plan**\n\n- [x] Read the handler\n- [ ] Fix it _(in progress)_',
        '> _Thought for 3 s_\n>\n> The handler reads the form.\n> It skips status.',
        '**Tool call** `edit` Edit src/filter.ts (done, on `src/filter.ts`)\n\n```json\n{\n  "path": "src/filter.ts"\n}\n```',
        '**Tool result** of Edit src/filter.ts\n\n````\nEdited\n```\n# not a heading\n```\n````',
        'Fixed: the handler now reads `status`.',
        '_You approved the tool call with “Yes” (`edit`)._',
        '## demo/guide · 07:25',
        '**Tool call** `get_selection` (done)',
        '**Tool result** of `get_selection`\n\n```json\n{\n  "count": 0\n}\n```',
        // The same agent's next step after its tool's result goes on under the same heading.
        'Half an ans',
        '_Failed: The model went away._',
      ].join('\n\n') + '\n',
    );
  });

  it('keeps a tool output that holds fences and headings inside one code block', () => {
    const markdown = formatChatMarkdown({ title: 'x', messages: CHAT }, { formatTime: time });
    const tokens = Lexer.lex(markdown);
    // Headings: the title and the three turns; the output's "# not a heading" is not one.
    expect(tokens.filter((t) => t.type === 'heading').map(textOf)).toEqual(['x', 'You · 07:22', 'acp/claude · 07:23', 'demo/guide · 07:25']);
    const code = tokens.filter((t) => t.type === 'code').map(textOf);
    expect(code).toContain('Edited\n```\n# not a heading\n```');
  });

  it('names the components around a picked element, and where they are written, in the line agents are sent', () => {
    const picked = CHAT[0] as Extract<Message, { role: 'user' }>;
    const button = picked.metadata.selectedElements[0]!;
    const components = [
      { name: 'FilterButton', file: 'src/FilterButton.tsx', line: 4, column: 10 },
      { name: 'Order`Filters', file: 'src/OrderFilters.tsx', line: 8, column: 5 },
    ];
    const cell = { tagName: 'td', xpath: '/html/body/table/tr/td', attributes: {}, textContent: '', boundingClientRect: button.boundingClientRect };
    const message: Message = { ...picked, metadata: { ...picked.metadata, selectedElements: [{ ...button, components }, cell] } };
    const markdown = formatChatMarkdown({ title: 'x', messages: [message] }, { formatTime: time });
    expect(markdown).toContain(
      'with these elements picked:\n' +
        '- `form > button.filter` “Filter orders” — `<button.filter> in FilterButton (src/FilterButton.tsx:4:10) in Order\'Filters (src/OrderFilters.tsx:8:5)`\n' +
        '- `td`\n',
    );
  });

  it('writes only the versions of answers the chat shows', () => {
    const messages: Message[] = [
      { id: 'q', role: 'user', content: [{ type: 'text', text: 'Name a colour' }], metadata: { source: 'toolbar', selectedElements: [] }, createdAt: at(1) },
      { id: 'a1', role: 'assistant', agent: 'demo/guide', content: [{ type: 'text', text: 'Teal.' }], status: 'done', createdAt: at(2) },
      { id: 'a2', role: 'assistant', agent: 'demo/guide', parentId: 'q', content: [{ type: 'text', text: 'Ochre.' }], status: 'done', createdAt: at(3) },
    ];
    const first = formatChatMarkdown({ title: 'Colours', messages, head: 'a1' }, { formatTime: time });
    expect(first).toContain('Teal.');
    expect(first).not.toContain('Ochre.');
    // Without a head, the newest version shows.
    const latest = formatChatMarkdown({ title: 'Colours', messages }, { formatTime: time });
    expect(latest).toContain('Ochre.');
    expect(latest).not.toContain('Teal.');
  });

  it('cuts a long tool output and says how much was left out', () => {
    const long: Message = { id: 'm7', role: 'tool', content: [{ type: 'tool-result', toolCallId: 't3', toolName: 'read', output: 'a'.repeat(MAX_TOOL_TEXT + 1_234), isError: true }], createdAt: at(30) };
    const markdown = formatChatMarkdown({ title: 'log', messages: [long] });
    expect(markdown).toContain('**Tool error** of `read`');
    expect(markdown).toContain(`\n${'a'.repeat(MAX_TOOL_TEXT)}\n… (1,234 more characters)\n\`\`\``);
    expect(markdown.length).toBeLessThan(MAX_TOOL_TEXT + 200);
  });

  it('says which replies did not end well, and writes local times by default', () => {
    const messages: Message[] = (['streaming', 'stopped', 'interrupted'] as const).map((status, i) => ({ id: `a${i}`, role: 'assistant', agent: 'demo/guide', content: [{ type: 'text', text: `reply ${i}` }], status, createdAt: at(40 + i) }));
    const markdown = formatChatMarkdown({ title: '  ', messages });
    expect(markdown.startsWith('# Chat\n\n')).toBe(true);
    expect(markdown).toContain(`## demo/guide · ${formatLocalDateTime(at(40))}\n\nreply 0\n\n_Still being written when copied._`);
    expect(markdown).toContain('_Stopped before the answer was complete._');
    expect(markdown).toContain('_Interrupted: the server stopped before this reply ended._');
  });
});

describe('formatChatMarkdown on a reply stopped inside a code block', () => {
  it('closes the fence, so the rest of the chat does not read as code', () => {
    const messages: Message[] = [
      { id: 'a1', role: 'assistant', agent: 'demo/guide', content: [{ type: 'text', text: 'Try:\n\n~~~ts\nconst a = 1;\n```\nstill code' }], status: 'stopped', createdAt: at(50) },
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'Go on' }], metadata: { source: 'cli', selectedElements: [] }, createdAt: at(51) },
    ];
    const tokens = Lexer.lex(formatChatMarkdown({ title: 'cut', messages }, { formatTime: time }));
    expect(tokens.filter((t) => t.type === 'code').map(textOf)).toEqual(['const a = 1;\n```\nstill code']);
    expect(tokens.filter((t) => t.type === 'heading').map(textOf)).toEqual(['cut', 'demo/guide · 07:50', 'You · 07:51']);
    expect(tokens.some((t) => t.type === 'paragraph' && textOf(t) === 'Go on')).toBe(true);
  });

  it('leaves a closed block and a backtick line that is not a fence as they are', () => {
    const text = 'See ```inline``` here\n\n```js\nx()\n```';
    const messages: Message[] = [{ id: 'a1', role: 'assistant', agent: 'demo/guide', content: [{ type: 'text', text }], status: 'done', createdAt: at(50) }];
    expect(formatChatMarkdown({ title: 't', messages }, { formatTime: time })).toBe(`# t\n\n## demo/guide · 07:50\n\n${text}\n`);
  });
});

describe('formatChatMarkdown on what a coding agent shows with its tool calls', () => {
  it('writes a file change as a diff, a new file as all added, and the output as it was shown', () => {
    const messages: Message[] = [
      {
        id: 'a1',
        role: 'assistant',
        agent: 'acp/claude',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'e1',
            toolName: 'edit',
            input: {},
            runtime: 'backend',
            requiresApproval: false,
            state: 'done',
            title: 'Edit src/a.ts',
            display: [
              { type: 'diff', path: 'src/a.ts', oldText: 'one\ntwo\nthree', newText: 'one\n2\nthree' },
              { type: 'diff', path: 'NOTES.md', oldText: null, newText: '# Notes' },
            ],
          },
          {
            type: 'tool-call',
            toolCallId: 'x1',
            toolName: 'execute',
            input: {},
            runtime: 'backend',
            requiresApproval: false,
            state: 'failed',
            title: 'npm test',
            display: [
              { type: 'text', text: '```\n1 failed', markdown: true },
              { type: 'text', text: 'exit code 1' },
            ],
          },
        ],
        status: 'done',
        createdAt: at(60),
      },
    ];
    expect(formatChatMarkdown({ title: 'edits', messages }, { formatTime: time })).toBe(
      [
        '# edits',
        '## acp/claude · 08:00',
        '**Tool call** `edit` Edit src/a.ts (done)',
        '`src/a.ts`:\n\n```diff\n@@ line 2\n-two\n+2\n```',
        'New file `NOTES.md`:\n\n```diff\n+# Notes\n```',
        '**Tool call** `execute` npm test (failed)',
        // Markdown the agent wrote, its open fence closed; plain output in a block of its own.
        '```\n1 failed\n```',
        '```\nexit code 1\n```',
      ].join('\n\n') + '\n',
    );
  });
});

describe('formatChatMarkdown on results with nothing in them', () => {
  it('leaves out a result that answered nothing, and keeps an empty error', () => {
    const messages: Message[] = [
      {
        id: 'a1',
        role: 'assistant',
        agent: 'acp/claude',
        content: [
          { type: 'tool-result', toolCallId: 'n1', toolName: 'switch_mode', output: null },
          { type: 'tool-result', toolCallId: 'n2', toolName: 'touch', output: '' },
          { type: 'tool-result', toolCallId: 'n3', toolName: 'rm', output: null, isError: true },
          { type: 'text', text: 'Done.' },
        ],
        status: 'done',
        createdAt: at(70),
      },
    ];
    expect(formatChatMarkdown({ title: 't', messages }, { formatTime: time })).toBe('# t\n\n## acp/claude · 08:10\n\n**Tool error** of `rm`\n\n```json\nnull\n```\n\nDone.\n');
  });
});
