import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits.ts';
import type { Message, UserMessage } from '../../shared/schemas.ts';
import { approvalLabelsOf, approvalOptionsOf, buildAcpPrompt, chooseOption, describeHistory, describeNotTaken, listNotTaken, MAX_HISTORY_CHARS, textOfRawOutput, toDisplay, toTitle } from './map-acp.ts';
import { splitCommand } from './split-command.ts';

const PNG = `data:image/png;base64,${Buffer.from('png-bytes').toString('base64')}`;
const CSV = `data:text/csv;base64,${Buffer.from('a,b\n1,2\n').toString('base64')}`;
// The first bytes of a real zip: binary, with NULs.
const ZIP_BYTES = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]);
const ZIP = `data:application/zip;base64,${ZIP_BYTES.toString('base64')}`;

function message(content: UserMessage['content']): UserMessage {
  return { id: 'm1', role: 'user', content, metadata: { source: 'cli', selectedElements: [] }, createdAt: 1 };
}

describe('buildAcpPrompt', () => {
  const attached = message([
    { type: 'text', text: 'look' },
    { type: 'image', image: PNG, mimeType: 'image/png' },
    { type: 'file', data: CSV, mimeType: 'text/csv', filename: 'data.csv' },
    { type: 'file', data: ZIP, mimeType: 'application/zip', filename: 'a.zip' },
  ]);

  it('sends images and files as ACP blocks to an agent that takes them', () => {
    expect(buildAcpPrompt(attached, { image: true, embeddedContext: true })).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', data: Buffer.from('png-bytes').toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'attachment:///data.csv', mimeType: 'text/csv', text: 'a,b\n1,2\n' } },
      { type: 'resource', resource: { uri: 'attachment:///a.zip', mimeType: 'application/zip', blob: ZIP_BYTES.toString('base64') } },
    ]);
  });

  it('introduces a named image (a picked element\'s picture) by its name', () => {
    const picture = message([{ type: 'text', text: 'this one' }, { type: 'image', image: PNG, mimeType: 'image/png', filename: 'pick-1-button.png' }]);
    expect(buildAcpPrompt(picture, { image: true })).toEqual([
      { type: 'text', text: 'this one' },
      { type: 'text', text: 'pick-1-button.png:' },
      { type: 'image', data: Buffer.from('png-bytes').toString('base64'), mimeType: 'image/png' },
    ]);
  });

  it('tells an agent that takes only text what was attached, with text files inline', () => {
    expect(buildAcpPrompt(attached, {})).toEqual([
      { type: 'text', text: 'look' },
      { type: 'text', text: "[The user attached an image (image/png); this agent does not take images.]" },
      { type: 'text', text: 'Attached file data.csv:\na,b\n1,2\n' },
      { type: 'text', text: '[The user attached a.zip (application/zip); this agent does not take files.]' },
    ]);
  });

  it('sends a text file as text whatever type the browser gave it (.ts as video/mp2t, no type at all)', () => {
    const code = 'export const answer: number = 42;\n';
    const asUrl = (mime: string) => `data:${mime};base64,${Buffer.from(code).toString('base64')}`;
    const files = message([
      { type: 'file', data: asUrl('video/mp2t'), mimeType: 'video/mp2t', filename: 'answer.ts' },
      { type: 'file', data: asUrl('application/octet-stream'), mimeType: 'application/octet-stream', filename: '.env.example' },
    ]);
    expect(buildAcpPrompt(files, { embeddedContext: true })).toEqual([
      { type: 'resource', resource: { uri: 'attachment:///answer.ts', mimeType: 'video/mp2t', text: code } },
      { type: 'resource', resource: { uri: 'attachment:///.env.example', mimeType: 'application/octet-stream', text: code } },
    ]);
    expect(buildAcpPrompt(files, {})).toEqual([
      { type: 'text', text: `Attached file answer.ts:\n${code}` },
      { type: 'text', text: `Attached file .env.example:\n${code}` },
    ]);
  });

  it("sends an SVG as its source and names a BMP or an AVIF, never sending a type the agent's model would refuse", () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>';
    const images = message([
      { type: 'image', image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, mimeType: 'image/svg+xml' },
      { type: 'image', image: `data:image/bmp;base64,${Buffer.from('BM\0\0').toString('base64')}`, mimeType: 'image/bmp' },
      // No declared type: the data URL's counts.
      { type: 'image', image: `data:image/avif;base64,${Buffer.from('\0\0\0 ftypavif').toString('base64')}` },
      { type: 'image', image: PNG, mimeType: 'image/png' },
    ]);
    const bmp = { type: 'text', text: '[The user attached an image (image/bmp); agents are sent PNG, JPEG, GIF and WebP images only.]' };
    const avif = { type: 'text', text: '[The user attached an image (image/avif); agents are sent PNG, JPEG, GIF and WebP images only.]' };
    const png = { type: 'image', data: Buffer.from('png-bytes').toString('base64'), mimeType: 'image/png' };
    expect(buildAcpPrompt(images, { image: true, embeddedContext: true })).toEqual([
      { type: 'resource', resource: { uri: 'attachment:///image.svg', mimeType: 'image/svg+xml', text: svg } },
      bmp,
      avif,
      png,
    ]);
    expect(buildAcpPrompt(images, { image: true })).toEqual([{ type: 'text', text: `Attached image (image/svg+xml), as its SVG source:\n${svg}` }, bmp, avif, png]);
    expect(listNotTaken(images, { image: true, embeddedContext: true })).toEqual(['an image (image/bmp)', 'an image (image/avif)']);
  });

  it('names each pick with its components in a line of its own, before the JSON of the page and the picks', () => {
    const rect = { x: 0, y: 0, width: 10, height: 10 };
    const picked: UserMessage = {
      ...message([{ type: 'text', text: 'where is this written?' }]),
      metadata: {
        source: 'toolbar',
        selectedElements: [
          {
            tagName: 'button',
            xpath: '/html/body/main/button',
            selector: '#greet',
            attributes: { id: 'greet' },
            textContent: 'Say hi',
            boundingClientRect: rect,
            components: [
              { name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 },
              { name: 'App', file: 'src/App.tsx', line: 12, column: 5 },
            ],
          },
          { tagName: 'td', xpath: '/html/body/table/tr/td', attributes: {}, textContent: 'Ada', boundingClientRect: rect },
        ],
      },
    };
    const [, context] = buildAcpPrompt(picked, undefined);
    const lines = context?.type === 'text' ? context.text.split('\n') : [];
    expect(lines.slice(0, 3)).toEqual([
      'Context from agentbar (the page the user is looking at, and the elements they picked):',
      'Picked element 1: <button#greet> in Greeting (src/Greeting.tsx:4:7) in App (src/App.tsx:12:5)',
      'Picked element 2: <td>',
    ]);
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[3]!).selectedElements.map((e: { selector?: string }) => e.selector)).toEqual(['#greet', undefined]);
  });

  it('adds no page context when the message has none', () => {
    expect(buildAcpPrompt(message([{ type: 'text', text: 'hi' }]), undefined)).toEqual([{ type: 'text', text: 'hi' }]);
  });
});

describe('listNotTaken', () => {
  it('lists the images an agent takes no images for, and the binary files one takes no files for', () => {
    const attached = message([
      { type: 'image', image: PNG, mimeType: 'image/png' },
      { type: 'file', data: CSV, mimeType: 'text/csv', filename: 'data.csv' },
      { type: 'file', data: ZIP, mimeType: 'application/zip', filename: 'a.zip' },
    ]);
    expect(listNotTaken(attached, { image: true, embeddedContext: true })).toEqual([]);
    expect(listNotTaken(attached, { image: true })).toEqual(['a.zip (application/zip)']);
    expect(listNotTaken(attached, undefined)).toEqual(['an image (image/png)', 'a.zip (application/zip)']);
    expect(describeNotTaken(['a.zip (application/zip)'])).toEqual({ severity: 'warning', title: 'a.zip (application/zip) could not be sent to this agent', description: 'It was only told it was attached.' });
  });
});

describe('describeHistory', () => {
  it('keeps the newest turns when the chat is long, and skips tool messages and empty turns', () => {
    const messages: Message[] = [];
    for (let i = 0; i < 400; i++) {
      messages.push({ id: `u${i}`, role: 'user', content: [{ type: 'text', text: `question ${i} ${'x'.repeat(100)}` }], metadata: { source: 'cli', selectedElements: [] }, createdAt: i });
      messages.push({ id: `t${i}`, role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output: 'secret-tool-output' }], createdAt: i });
    }
    const text = describeHistory(messages)!;
    expect(text.length).toBeLessThan(MAX_HISTORY_CHARS + 300);
    expect(text).toContain('User: question 399');
    expect(text).not.toContain('User: question 0 ');
    expect(text).not.toContain('secret-tool-output');
    expect(describeHistory([])).toBeNull();
  });
});

describe('chooseOption', () => {
  const all = [
    { optionId: 'a1', name: 'Allow', kind: 'allow_once' as const },
    { optionId: 'aa', name: 'Always', kind: 'allow_always' as const },
    { optionId: 'r1', name: 'Reject', kind: 'reject_once' as const },
    { optionId: 'ra', name: 'Never', kind: 'reject_always' as const },
  ];
  it('maps each answer to the matching option, falling back to what is offered', () => {
    expect(chooseOption(all, { approved: true })).toEqual({ outcome: 'selected', optionId: 'a1' });
    expect(chooseOption(all, { approved: true, always: true })).toEqual({ outcome: 'selected', optionId: 'aa' });
    expect(chooseOption(all, { approved: false })).toEqual({ outcome: 'selected', optionId: 'r1' });
    expect(chooseOption(all, { approved: false, always: true })).toEqual({ outcome: 'selected', optionId: 'ra' });
    expect(chooseOption([all[1]!], { approved: true })).toEqual({ outcome: 'selected', optionId: 'aa' });
    expect(chooseOption([all[0]!], { approved: false })).toEqual({ outcome: 'cancelled' });
  });

  it('sends the option the user chose by its id, and falls back to the kind for one the agent did not offer', () => {
    expect(chooseOption(all, { approved: false, optionId: 'ra' })).toEqual({ outcome: 'selected', optionId: 'ra' });
    expect(chooseOption(all, { approved: true, always: true, optionId: 'aa' })).toEqual({ outcome: 'selected', optionId: 'aa' });
    expect(chooseOption(all, { approved: true, optionId: 'gone' })).toEqual({ outcome: 'selected', optionId: 'a1' });
  });
});

describe('approvalOptionsOf', () => {
  const planExit = [
    { optionId: 'bypassPermissions', name: 'Yes, and bypass permissions', kind: 'allow_always' as const },
    { optionId: 'acceptEdits', name: 'Yes, and auto-accept edits', kind: 'allow_always' as const },
    { optionId: 'default', name: 'Yes, and manually approve edits', kind: 'allow_once' as const },
    { optionId: 'plan', name: 'No, keep planning', kind: 'reject_once' as const },
  ];

  it("offers every option by the agent's id and name: Claude Code's two ways out of plan mode stay two", () => {
    expect(approvalOptionsOf(planExit)).toEqual([
      { id: 'bypassPermissions', label: 'Yes, and bypass permissions', kind: 'allow_always' },
      { id: 'acceptEdits', label: 'Yes, and auto-accept edits', kind: 'allow_always' },
      { id: 'default', label: 'Yes, and manually approve edits', kind: 'allow_once' },
      { id: 'plan', label: 'No, keep planning', kind: 'reject_once' },
    ]);
    const long = approvalOptionsOf([{ optionId: 'a', name: `Allow\n${'x'.repeat(400)}`, kind: 'allow_once' }]);
    expect(long?.[0]!.label).toHaveLength(LIMITS.maxTitleLength);
  });

  it('offers none when they cannot all be offered, so the three buttons stay', () => {
    expect(approvalOptionsOf([])).toBeUndefined();
    const many = Array.from({ length: LIMITS.maxApprovalOptions + 1 }, (_, i) => ({ optionId: `o${i}`, name: `Option ${i}`, kind: 'allow_once' as const }));
    expect(approvalOptionsOf(many)).toBeUndefined();
    expect(approvalOptionsOf(many.slice(0, LIMITS.maxApprovalOptions))).toHaveLength(LIMITS.maxApprovalOptions);
    expect(approvalOptionsOf([{ ...planExit[0]!, optionId: 'x'.repeat(LIMITS.maxApprovalOptionIdLength + 1) }])).toBeUndefined();
    expect(approvalOptionsOf([planExit[0]!, { ...planExit[1]!, name: ' ' }])).toBeUndefined();
    expect(approvalOptionsOf([planExit[0]!, { ...planExit[1]!, optionId: 'bypassPermissions' }])).toBeUndefined();
  });
});

describe('approvalLabelsOf', () => {
  it("names each button with the option it answers with, as Codex and Claude Code word them", () => {
    const codex = [
      { optionId: 'approved', name: 'Yes, proceed', kind: 'allow_once' as const },
      { optionId: 'approved-execpolicy-amendment', name: "Yes, and don't ask again for commands that start with `npm test`", kind: 'allow_always' as const },
      { optionId: 'abort', name: 'No, and tell Codex what to do differently', kind: 'reject_once' as const },
    ];
    expect(approvalLabelsOf(codex)).toEqual({ approve: 'Yes, proceed', always: "Yes, and don't ask again for commands that start with `npm test`", reject: 'No, and tell Codex what to do differently' });
    // Of two "always" options, the one the button sends.
    const mcp = [
      { optionId: 'approved', name: 'Allow', kind: 'allow_once' as const },
      { optionId: 'approved-for-session', name: 'Allow for this session', kind: 'allow_always' as const },
      { optionId: 'approved-always', name: "Allow and don't ask again", kind: 'allow_always' as const },
      { optionId: 'cancel', name: 'Cancel', kind: 'reject_once' as const },
    ];
    expect(approvalLabelsOf(mcp)).toEqual({ approve: 'Allow', always: 'Allow for this session', reject: 'Cancel' });
  });

  it('names "always" only by an allow-always option, and keeps names to one line of the limit', () => {
    expect(approvalLabelsOf([{ optionId: 'aa', name: 'Always', kind: 'allow_always' }])).toEqual({ approve: 'Always' });
    expect(approvalLabelsOf([{ optionId: 'ra', name: 'Never', kind: 'reject_always' }])).toEqual({ reject: 'Never' });
    const long = approvalLabelsOf([{ optionId: 'a', name: `Allow\n${'x'.repeat(400)}`, kind: 'allow_once' }]);
    expect(long?.approve).toHaveLength(200);
    expect(long?.approve).toMatch(/^Allow x+…$/);
    // No names, no labels: the buttons keep their own.
    expect(approvalLabelsOf([{ optionId: 'a', name: '  ', kind: 'allow_once' }])).toBeUndefined();
  });
});

describe('textOfRawOutput', () => {
  it("reads a command's output where Codex puts it, and an MCP tool's text", () => {
    expect(textOfRawOutput({ exit_code: 0, stdout: 'a\n', formatted_output: 'a (formatted)\n' })).toBe('a (formatted)\n');
    expect(textOfRawOutput({ exit_code: 1, formatted_output: '', stderr: 'no such file\n' })).toBe('no such file\n');
    expect(textOfRawOutput({ content: [{ type: 'text', text: '{"url":"/"}' }, { type: 'image', data: 'x' }, { type: 'text', text: 'more' }], isError: false })).toBe('{"url":"/"}\nmore');
    expect(textOfRawOutput('plain words')).toBe('plain words');
    expect(textOfRawOutput({ output: 'x'.repeat(LIMITS.maxToolDisplayChars + 10) })!.length).toBeLessThanOrEqual(LIMITS.maxToolDisplayChars);
  });

  it('finds nothing in output with no words, so the call shows what it showed', () => {
    for (const raw of [undefined, null, 42, '  ', ['a'], { exit_code: 0, formatted_output: '', stdout: '' }, { content: [{ type: 'text', text: ' ' }] }, { content: 'text' }]) {
      expect(textOfRawOutput(raw)).toBeNull();
    }
  });
});

describe('toTitle', () => {
  it("puts an MCP tool's name before its server's, and leaves other titles as they are", () => {
    expect(toTitle('mcp__agentbar-page__get_page_info')).toBe('get_page_info (agentbar-page)');
    expect(toTitle('mcp__my_server__run__twice')).toBe('run__twice (my_server)');
    expect(toTitle('ls src')).toBe('ls src');
    expect(toTitle('mcp__nothing')).toBe('mcp__nothing');
    // Codex's way of naming the same call.
    expect(toTitle('Tool: agentbar-page/get_page_info')).toBe('get_page_info (agentbar-page)');
    expect(toTitle('Tool: a sentence/with spaces')).toBe('Tool: a sentence/with spaces');
  });
});

describe('toDisplay', () => {
  it('clips long output and keeps at most the display items a part may hold', () => {
    const long = 'y'.repeat(LIMITS.maxToolDisplayChars + 10);
    const items = toDisplay(Array.from({ length: 30 }, () => ({ type: 'content' as const, content: { type: 'text' as const, text: long } })));
    expect(items).toHaveLength(LIMITS.maxToolDisplayItems);
    expect(items[0]!.type === 'text' && items[0]!.text.length).toBeLessThanOrEqual(LIMITS.maxToolDisplayChars);
    expect(toDisplay([{ type: 'diff', path: '/a', newText: 'n' }])).toEqual([{ type: 'diff', path: '/a', oldText: null, newText: 'n' }]);
  });

  it("marks the agent's text as Markdown, as ACP writes it, and what stands for other content as plain", () => {
    expect(toDisplay([{ type: 'content', content: { type: 'text', text: '```console\nsrc\n```' } }])).toEqual([{ type: 'text', text: '```console\nsrc\n```', markdown: true }]);
    expect(toDisplay([{ type: 'content', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } }])).toEqual([{ type: 'text', text: '[image]' }]);
  });
});

describe('splitCommand', () => {
  it('splits like a POSIX shell, expanding nothing', () => {
    expect(splitCommand(`npx  @zed-industries/claude-code-acp`)).toEqual(['npx', '@zed-industries/claude-code-acp']);
    expect(splitCommand(`gemini --model "gemini 2.5" --x='a b' $HOME`)).toEqual(['gemini', '--model', 'gemini 2.5', '--x=a b', '$HOME']);
    expect(splitCommand(String.raw`a\ b "c\"d" ''`)).toEqual(['a b', 'c"d', '']);
    expect(() => splitCommand(`"open`)).toThrow('Unclosed " quote');
    expect(() => splitCommand('  ')).toThrow('The command is empty');
  });
});
