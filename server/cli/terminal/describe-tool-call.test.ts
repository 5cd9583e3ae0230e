import { describe, expect, it } from 'vitest';
import type { ToolCallPart } from '../../../shared/schemas.ts';
import { describeAgentWords, describeToolCall, describeToolTarget } from './describe-tool-call.ts';

const call: ToolCallPart = { type: 'tool-call', toolCallId: 'call_1', toolName: 'execute', input: {}, runtime: 'cli', requiresApproval: false, state: 'running' };

/** What codex-acp 0.16 sends as a command's rawInput: its whole ExecCommandBeginEvent. */
const codexInput = {
  call_id: 'call_Tq1Zr6bV0n3yZc9t8Jm2aA',
  process_id: '41873',
  turn_id: '0198e2a4-6c1f-7d20-9a51-4e8b3f2c1d07',
  command: ['/bin/bash', '-lc', 'rm -f hello.txt'],
  cwd: '/home/dev/project',
  parsed_cmd: [{ type: 'unknown', cmd: 'rm -f hello.txt' }],
  source: 'agent',
};

describe('describeToolCall', () => {
  it("shows an agent's call as its title, never its raw input", () => {
    const line = describeToolCall({ ...call, title: 'Run rm -f hello.txt', input: codexInput });
    expect(line).toBe('Run rm -f hello.txt');
  });

  it('adds the command or the file a call acts on where its title does not say it', () => {
    expect(describeToolCall({ ...call, title: 'Terminal', input: { command: 'ls src' } })).toBe('Terminal · ls src');
    expect(describeToolCall({ ...call, title: 'Read', input: { file_path: '/home/dev/project/src/app.ts' } })).toBe('Read · /home/dev/project/src/app.ts');
    expect(describeToolCall({ ...call, title: 'Edit notes.txt', input: { path: 'notes.txt', text: 'new line' } })).toBe('Edit notes.txt');
  });

  it("names an agentbar tool's arguments, which its tool defines, and nothing for none", () => {
    expect(describeToolCall({ ...call, toolName: 'search_docs', input: { query: 'streaming diffs' } })).toBe('search_docs({"query":"streaming diffs"})');
    expect(describeToolCall({ ...call, toolName: 'get_selected_elements' })).toBe('get_selected_elements');
  });

  it('adds the whole input with verbose', () => {
    expect(describeToolCall({ ...call, title: 'Run rm -f hello.txt', input: codexInput }, { verbose: true })).toBe(`Run rm -f hello.txt ${JSON.stringify(codexInput)}`);
    expect(describeToolCall({ ...call, title: 'Think' }, { verbose: true })).toBe('Think');
  });
});

describe('describeToolTarget', () => {
  it("takes a shell's -c script alone, and quotes other words that need it", () => {
    expect(describeToolTarget({ input: { command: ['bash', '-lc', 'npm test'] } })).toBe('npm test');
    expect(describeToolTarget({ input: { cmd: ['/usr/bin/zsh', '-c', 'ls'] } })).toBe('ls');
    expect(describeToolTarget({ input: { command: ['git', 'commit', '-m', "it's done"] } })).toBe(`git commit -m 'it'\\''s done'`);
  });

  it('falls back to the path in its input, then to the locations it reports', () => {
    expect(describeToolTarget({ input: { abs_path: '/a/b.ts' } })).toBe('/a/b.ts');
    expect(describeToolTarget({ input: {}, locations: [{ path: '/a/1' }, { path: '/a/2' }] })).toBe('/a/1, /a/2');
    expect(describeToolTarget({ input: {}, locations: ['1', '2', '3', '4', '5'].map((n) => ({ path: `/a/${n}` })) })).toBe('/a/1, /a/2, /a/3 and 2 more');
    expect(describeToolTarget({ input: { command: 42 } })).toBeUndefined();
  });
});

describe('describeAgentWords', () => {
  it('takes the text the call shows, else a reason, description or message of its input', () => {
    expect(describeAgentWords({ input: { reason: 'r' }, display: [{ type: 'diff', path: '/a', newText: 'x' }, { type: 'text', text: ' Why? ' }] })).toBe('Why?');
    expect(describeAgentWords({ input: { description: 'Delete the build folder' } })).toBe('Delete the build folder');
    expect(describeAgentWords({ input: {}, title: 'Same', display: [{ type: 'text', text: 'Same' }] })).toBeUndefined();
  });
});
