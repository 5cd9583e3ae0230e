import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../shared/schemas.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { activeMessages, lastMessage, settle, textOf, toolCallsOf, useHarness, waitUntil, type TestServer } from '../../test-support/test-server.ts';
import { createAcpAgent, deriveAcpId } from './create-acp-agent.ts';

const SCRIPT = fileURLToPath(new URL('../../test-support/scripted-acp-agent.mjs', import.meta.url));
const h = useHarness();

interface Received {
  kind: string;
  pid: number;
  data: any;
}

interface Setup {
  server: TestServer;
  client: TestClient;
  chatId: string;
  cwd: string;
  received: () => Received[];
}

async function setup(options: { env?: Record<string, string>; dataDir?: string; cwd?: string; logFile?: string; quietNoticeMs?: number } = {}): Promise<Setup> {
  const cwd = options.cwd ?? (await h.tmpDir());
  const logFile = options.logFile ?? path.join(await h.tmpDir(), 'acp.log');
  const agent = createAcpAgent({ id: 'acp/scripted', command: process.execPath, args: [SCRIPT], cwd, env: { ...process.env, ACP_SCRIPT_LOG: logFile, ...options.env }, ...(options.quietNoticeMs !== undefined ? { quietNoticeMs: options.quietNoticeMs } : {}) });
  const server = await h.start({ agents: [agent], ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
  const client = await h.connect(server, { kind: 'cli' });
  const { chatId } = await client.ok('chat.create', {});
  const received = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Received) : []);
  return { server, client, chatId, cwd, received };
}

async function send(s: Setup, text: string, extra: Record<string, unknown> = {}): Promise<void> {
  await s.client.ok('message.send', userMessage(s.chatId, text, extra));
}

async function reply(s: Setup): Promise<AssistantMessage> {
  await s.client.waitFor(() => s.client.state?.run === null && lastMessage(s.client.state)?.role === 'assistant', 20_000, 'the reply to end');
  return lastMessage(s.client.state) as AssistantMessage;
}

function assistantText(messages: Message[]): string {
  return messages.filter((m) => m.role === 'assistant').map(textOf).join('');
}

describe('an ACP agent in agentbar', () => {
  it('streams text and thoughts, and sends the page context with the prompt', { timeout: 30_000 }, async () => {
    const s = await setup();
    const browser = { url: 'http://localhost:5173/cart', title: 'Cart', viewport: { width: 1280, height: 720 }, devicePixelRatio: 1, userAgent: 'test', locale: 'en' };
    const element = { tagName: 'button', xpath: '/html/body/button', selector: '#buy', attributes: { id: 'buy' }, textContent: 'Buy now', boundingClientRect: { x: 1, y: 2, width: 3, height: 4 } };
    await send(s, 'hello', { metadata: { source: 'toolbar', browser, selectedElements: [element] } });
    const message = await reply(s);
    expect(message.status).toBe('done');
    expect(message.agent).toBe('acp/scripted');
    expect(message.content).toEqual([
      { type: 'reasoning', text: 'The user greets me.', durationMs: expect.any(Number) },
      { type: 'text', text: 'Hello from the scripted agent.' },
    ]);
    const init = s.received().find((r) => r.kind === 'initialize')!.data;
    expect(init.clientCapabilities).toMatchObject({ fs: { readTextFile: true, writeTextFile: true }, terminal: false, session: { configOptions: { boolean: {} } } });
    expect(s.received().find((r) => r.kind === 'session/new')!.data.cwd).toBe(s.cwd);
    const prompt = s.received().find((r) => r.kind === 'session/prompt')!.data.prompt;
    expect(prompt[0]).toEqual({ type: 'text', text: 'hello' });
    expect(prompt[1].text).toMatch(/^Context from agentbar/);
    expect(prompt[1].text.split('\n')[1]).toBe('Picked element 1: <button#buy>');
    const context = JSON.parse(prompt[1].text.split('\n')[2]);
    expect(context.page).toEqual({ url: browser.url, title: 'Cart', viewport: browser.viewport });
    expect(context.selectedElements[0]).toMatchObject({ tagName: 'button', selector: '#buy', textContent: 'Buy now' });
  });

  it('says in a notice on the reply what an agent that takes only text could not be sent, and tells the agent it was attached', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_TEXT_ONLY: '1' } });
    const url = (mime: string, bytes: Buffer | string) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
    await send(s, 'hello', {
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', image: url('image/png', 'png'), mimeType: 'image/png' },
        { type: 'file', data: url('application/zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])), mimeType: 'application/zip', filename: 'build.zip' },
        { type: 'file', data: url('text/markdown', '# Notes\n'), mimeType: 'text/markdown', filename: 'notes.md' },
      ],
    });
    const message = await reply(s);
    expect(message.status).toBe('done');
    expect(textOf(message)).toBe('Hello from the scripted agent.');
    expect(message.notices).toEqual([{ severity: 'warning', title: 'an image (image/png) and build.zip (application/zip) could not be sent to this agent', description: 'It was only told they were attached.' }]);
    const prompt = s.received().find((r) => r.kind === 'session/prompt')!.data.prompt as { type: string; text?: string }[];
    expect(prompt).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'text', text: '[The user attached an image (image/png); this agent does not take images.]' },
      { type: 'text', text: '[The user attached build.zip (application/zip); this agent does not take files.]' },
      { type: 'text', text: 'Attached file notes.md:\n# Notes\n' },
    ]);
  });

  it('shows tool calls as they go, a plan, and asks the user; Approve picks "allow once"', { timeout: 30_000 }, async () => {
    const s = await setup();
    const watcher = await h.connect(s.server, { kind: 'other' });
    await send(s, 'edit');
    await s.client.waitFor(() => toolCallsOf(s.client.state).some((c) => c.state === 'awaiting-approval'), 20_000, 'the permission request');
    const [read, edit] = toolCallsOf(s.client.state);
    expect(read).toMatchObject({ toolName: 'read', title: 'Read notes.txt', kind: 'read', runtime: 'cli', state: 'done', locations: [{ path: path.join(s.cwd, 'notes.txt') }] });
    expect(edit).toMatchObject({ toolName: 'edit', title: 'Edit notes.txt', kind: 'edit', requiresApproval: true, alwaysOffered: true, input: { path: 'notes.txt', text: 'new line' } });
    // The agent's own words for its answers, for the buttons.
    expect(edit!.approvalLabels).toEqual({ approve: 'Allow', always: 'Always Allow', reject: 'Reject' });
    const readResult = activeMessages(s.client.state).find((m) => m.role === 'tool')!;
    expect(readResult.content[0]).toMatchObject({ toolCallId: read!.toolCallId, output: 'old line', isError: false });
    await s.client.ok('tool.approve', { chatId: s.chatId, toolCallId: edit!.toolCallId, approved: true });
    const last = await reply(s);
    expect(last.status).toBe('done');
    await settle(s.server, s.client, watcher);
    const after = toolCallsOf(watcher.state)[1]!;
    expect(after).toMatchObject({ state: 'done', display: [{ type: 'diff', path: path.join(s.cwd, 'notes.txt'), oldText: 'old line', newText: 'new line' }] });
    expect(assistantText(activeMessages(watcher.state))).toBe('I will edit notes.txt. Edited.');
    const withPlan = activeMessages(watcher.state).filter((m): m is AssistantMessage => m.role === 'assistant' && m.plan !== undefined);
    expect(withPlan).toHaveLength(1);
    expect(withPlan[0]!.plan).toEqual([
      { content: 'Read the page', priority: 'high', status: 'completed' },
      { content: 'Edit the file', priority: 'medium', status: 'completed' },
    ]);
    expect(s.received().find((r) => r.kind === 'permission')!.data).toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
  });

  it('gives a rejection, with its reason, as "reject once"; the call ends denied and the agent goes on', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'edit');
    await s.client.waitFor(() => toolCallsOf(s.client.state).some((c) => c.state === 'awaiting-approval'), 20_000, 'the permission request');
    const edit = toolCallsOf(s.client.state)[1]!;
    await s.client.ok('tool.approve', { chatId: s.chatId, toolCallId: edit.toolCallId, approved: false, reason: 'wrong file' });
    const last = await reply(s);
    expect(last.status).toBe('done');
    expect(textOf(last)).toBe('Left it alone.');
    expect(toolCallsOf(s.client.state)[1]!.state).toBe('denied');
    expect(s.received().find((r) => r.kind === 'permission')!.data).toEqual({ outcome: { outcome: 'selected', optionId: 'no' }, _meta: { reason: 'wrong file' } });
  });

  it('picks the "always" option when the user chooses it', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'edit');
    await s.client.waitFor(() => toolCallsOf(s.client.state).some((c) => c.state === 'awaiting-approval'), 20_000, 'the permission request');
    await s.client.ok('tool.approve', { chatId: s.chatId, toolCallId: toolCallsOf(s.client.state)[1]!.toolCallId, approved: true, always: true });
    await reply(s);
    expect(s.received().find((r) => r.kind === 'permission')!.data).toEqual({ outcome: { outcome: 'selected', optionId: 'always' } });
  });

  it("offers each of the agent's options and sends the one chosen: Claude Code's \"auto-accept edits\", not the first \"always\"", { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'plan-exit');
    await s.client.waitFor(() => toolCallsOf(s.client.state).some((c) => c.state === 'awaiting-approval'), 20_000, 'the permission request');
    const call = toolCallsOf(s.client.state)[0]!;
    expect(call).toMatchObject({ title: 'Ready to code?', kind: 'switch_mode', alwaysOffered: true });
    expect(call.approvalOptions).toEqual([
      { id: 'bypassPermissions', label: 'Yes, and bypass permissions', kind: 'allow_always' },
      { id: 'acceptEdits', label: 'Yes, and auto-accept edits', kind: 'allow_always' },
      { id: 'default', label: 'Yes, and manually approve edits', kind: 'allow_once' },
      { id: 'plan', label: 'No, keep planning', kind: 'reject_once' },
    ]);
    await s.client.ok('tool.approve', { chatId: s.chatId, toolCallId: call.toolCallId, approved: true, optionId: 'acceptEdits' });
    expect(textOf(await reply(s))).toBe('Leaving plan mode for acceptEdits.');
    expect(s.received().find((r) => r.kind === 'permission')!.data).toEqual({ outcome: { outcome: 'selected', optionId: 'acceptEdits' } });
  });

  it("shows a command's output that the agent gives only in its raw output, as Codex does", { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'codex-run');
    expect(textOf(await reply(s))).toBe('Two files; no missing.txt.');
    const [ls, cat, touch] = toolCallsOf(s.client.state);
    expect(ls).toMatchObject({ title: 'ls', state: 'done', display: [{ type: 'text', text: 'hello.txt\nmade.txt\n' }] });
    // A failed command says why, on the call and in its result.
    expect(cat).toMatchObject({ title: 'cat missing.txt', state: 'failed', display: [{ type: 'text', text: 'cat: missing.txt: No such file or directory\n' }] });
    const catResult = activeMessages(s.client.state).find((m) => m.role === 'tool' && m.content[0]!.toolCallId === cat!.toolCallId)!;
    expect(catResult.content[0]).toMatchObject({ isError: true, output: 'cat: missing.txt: No such file or directory\n' });
    // A command with no output shows none; its result keeps the agent's raw output whole.
    expect(touch).toMatchObject({ title: 'touch made.txt', state: 'done' });
    expect(touch).not.toHaveProperty('display');
    const lsResult = activeMessages(s.client.state).find((m) => m.role === 'tool' && m.content[0]!.toolCallId === ls!.toolCallId)!;
    expect(lsResult.content[0]).toMatchObject({ isError: false, output: { exit_code: 0, formatted_output: 'hello.txt\nmade.txt\n' } });
  });

  it('says "no output reported" on a call that ended with none, as Gemini CLI reports its calls', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'gemini-read');
    expect(textOf(await reply(s))).toBe('Read it.');
    expect(toolCallsOf(s.client.state)).toMatchObject([{ title: 'notes.txt', kind: 'read', state: 'done', display: [{ type: 'text', text: 'no output reported' }] }]);
  });

  it('sends session/cancel on Stop, ends the message stopped, and the chat goes on in the same session', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'long');
    await s.client.waitFor(() => textOf(lastMessage(s.client.state)).includes('tick 2'), 20_000, 'a few ticks');
    await s.client.ok('run.stop', { chatId: s.chatId });
    const stopped = await reply(s);
    expect(stopped.status).toBe('stopped');
    await waitUntil(() => s.received().some((r) => r.kind === 'session/cancel'), 'the cancel notification', 10_000);
    const ticks = textOf(stopped);
    await send(s, 'hello');
    const next = await reply(s);
    expect(textOf(next)).toBe('Hello from the scripted agent.');
    expect(s.received().filter((r) => r.kind === 'session/new')).toHaveLength(1);
    // Nothing the cancelled turn wrote after Stop landed in the stopped message.
    expect(textOf(activeMessages(s.client.state).find((m) => m.id === stopped.id))).toBe(ticks);
  });

  it("reloads a stopped session so that an agent which queues prompts answers the next ones with their own answers (Claude Code's adapter)", { timeout: 30_000 }, async () => {
    const state = await h.tmpDir();
    const s = await setup({ env: { ACP_SCRIPT_QUEUE: '1', ACP_SCRIPT_LOAD: '1', ACP_SCRIPT_STATE: state } });
    await send(s, 'long');
    await s.client.waitFor(() => textOf(lastMessage(s.client.state)).includes('tick 2'), 20_000, 'a few ticks');
    await s.client.ok('run.stop', { chatId: s.chatId });
    expect((await reply(s)).status).toBe('stopped');
    await send(s, 'hello');
    expect(textOf(await reply(s))).toBe('Hello from the scripted agent.');
    await send(s, 'run');
    expect(textOf(await reply(s))).toBe('Two files.');
    const kinds = s.received().map((r) => r.kind).filter((k) => ['session/new', 'session/cancel', 'session/close', 'session/load', 'session/prompt'].includes(k));
    expect(kinds).toEqual(['session/new', 'session/prompt', 'session/cancel', 'session/close', 'session/load', 'session/prompt', 'session/prompt']);
  });

  it('says on the reply when the agent says nothing for long, but not while the user is being asked', { timeout: 30_000 }, async () => {
    const s = await setup({ quietNoticeMs: 500 });
    await send(s, 'quiet');
    const quiet = await reply(s);
    expect(textOf(quiet)).toBe('Finally.');
    expect(quiet.notices).toEqual([{ severity: 'warning', title: 'No word from acp/scripted for 1 s', description: expect.stringContaining('Stop ends the wait') }]);
    // A reply that keeps talking, and a wait for an approval longer than the limit, get none.
    await send(s, 'edit');
    await s.client.waitFor(() => toolCallsOf(s.client.state).some((c) => c.state === 'awaiting-approval'), 20_000, 'the permission request');
    await new Promise((resolve) => setTimeout(resolve, 800));
    const edit = toolCallsOf(s.client.state).find((c) => c.state === 'awaiting-approval')!;
    await s.client.ok('tool.approve', { chatId: s.chatId, toolCallId: edit.toolCallId, approved: true });
    const edited = await reply(s);
    expect(edited.status).toBe('done');
    expect(activeMessages(s.client.state).filter((m) => m.role === 'assistant').slice(1).flatMap((m) => (m as AssistantMessage).notices ?? [])).toEqual([]);
  });

  it("shows a command's output as the Markdown the agent wrote, and names its result after the call", { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'run');
    expect(textOf(await reply(s))).toBe('Two files.');
    const call = toolCallsOf(s.client.state).find((c) => c.title === 'ls src')!;
    expect(call).toMatchObject({ toolName: 'execute', kind: 'execute', state: 'done', display: [{ type: 'text', text: '```console\napp.ts\nstyles.css\n```', markdown: true }] });
    const result = activeMessages(s.client.state).find((m) => m.role === 'tool')!;
    expect(result.content[0]).toMatchObject({ toolCallId: call.toolCallId, toolName: 'execute', title: 'ls src', output: '```console\napp.ts\nstyles.css\n```' });
    // Claude Code titles an MCP call mcp__<server>__<tool>: the tool's name comes first.
    expect(toolCallsOf(s.client.state).map((c) => c.title)).toEqual(['ls src', 'get_page_info (agentbar-page)']);
  });

  it('fails the message with the exit code and stderr when the agent crashes, and starts it again on the next message', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'crash');
    const failed = await reply(s);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The agent process exited with code 3. Its output: fatal: the scripted agent crashed on purpose.');
    expect(textOf(failed)).toBe('About to fall over. ');
    await send(s, 'hello');
    expect(textOf(await reply(s))).toBe('Hello from the scripted agent.');
    const pids = new Set(s.received().filter((r) => r.kind === 'start').map((r) => r.pid));
    expect(pids.size).toBe(2);
  });

  it('stops what the agent started too when the server closes: the agent behind a wrapper (as npx is) and its own helper', { timeout: 30_000 }, async () => {
    const cwd = await h.tmpDir();
    const logFile = path.join(await h.tmpDir(), 'acp.log');
    const wrapper = { command: 'sh', args: ['-c', `"${process.execPath}" "${SCRIPT}"; exit $?`] };
    const agent = createAcpAgent({ id: 'acp/wrapped', ...wrapper, cwd, env: { ...process.env, ACP_SCRIPT_LOG: logFile, ACP_SCRIPT_HELPER: '1' } });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server, { kind: 'cli' });
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'hello'));
    await client.waitFor(() => client.state?.run === null && lastMessage(client.state)?.role === 'assistant', 20_000, 'the reply');
    const logged = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Received);
    const pids = [logged.find((r) => r.kind === 'start')!.pid, logged.find((r) => r.kind === 'helper')!.data.pid as number];
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      expect(pids.map(alive)).toEqual([true, true]);
      await server.close();
      await waitUntil(() => !pids.some(alive), 'the agent and its helper to stop', 5000);
    } finally {
      for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
    }
  });

  it('stops an agent that writes garbage on stdout and says so', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'garbage');
    const failed = await reply(s);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^The agent wrote something that is not ACP to stdout \("this is not json"\), so agentbar stopped it\. Its output: warning: printing to stdout by mistake/);
    await send(s, 'hello');
    expect(textOf(await reply(s))).toBe('Hello from the scripted agent.');
  });

  it("says why a turn failed when the agent gives the reason only in the error's data", { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'fail');
    const failed = await reply(s);
    expect(failed.status).toBe('failed');
    // Its answer says it all: not its stderr, which only logged that answer.
    expect(failed.error).toBe('The agent failed: Query closed before response received.');
    expect(textOf(failed)).toBe('Working on it. ');
    // The agent is still running, and answers the next message.
    await send(s, 'hello');
    expect(textOf(await reply(s))).toBe('Hello from the scripted agent.');
    expect(new Set(s.received().filter((r) => r.kind === 'start').map((r) => r.pid)).size).toBe(1);
  });

  it('says why the agent could not start a session, not a bare "Internal error"', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_NEW_FAILS: 'Claude Code process exited with code 1' } });
    await send(s, 'hello');
    const failed = await reply(s);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The agent failed: Claude Code process exited with code 1.');
    // The chat goes on: the next message tries again, and the server keeps serving.
    await send(s, 'hello');
    expect((await reply(s)).error).toBe('The agent failed: Claude Code process exited with code 1.');
    expect(s.received().filter((r) => r.kind === 'session/new')).toHaveLength(2);
    await s.client.ok('chat.rename', { chatId: s.chatId, title: 'still serving' });
  });

  it("shows Codex's error line, not the end of its backtrace, and what to do, when its config has a typo", { timeout: 30_000 }, async () => {
    const config = path.join(await h.tmpDir(), 'config.toml');
    const s = await setup({ env: { ACP_SCRIPT_BAD_CONFIG: config } });
    await send(s, 'hello');
    expect((await reply(s)).error).toBe(
      `The agent process exited with code 1. Its output: Error: error loading config: ${config}:2:23: invalid basic string, expected \`"\`. Codex could not read its config: fix ${config} (Codex reads config.toml in CODEX_HOME, ~/.codex unless set), then send again.`,
    );
  });

  it('says Claude Code itself did not start when its adapter cannot start a session, and shows what Claude Code said', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_NEW_FAILS: 'Query closed before response received' } });
    await send(s, 'hello');
    // Its stderr holds only its SDK's log of that same answer: not shown.
    expect((await reply(s)).error).toBe(
      "The agent failed: Query closed before response received. Claude Code itself did not start (the adapter runs it): check that CLAUDE_CODE_EXECUTABLE, or the `claude` it finds, runs; as root, bypass mode needs IS_SANDBOX=1. With DEBUG_CLAUDE_AGENT_SDK=1 in the adapter's environment, Claude Code's own output goes to a debug log, which the adapter's stderr (shown here) names.",
    );
    const root = await setup({
      env: { ACP_SCRIPT_NEW_FAILS: 'Query closed before response received', ACP_SCRIPT_NEW_FAILS_STDERR: '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons' },
    });
    await send(root, 'hello');
    expect((await reply(root)).error).toBe(
      'The agent failed: Query closed before response received. Its output: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons. As root, Claude Code allows bypass mode only with IS_SANDBOX=1 in its environment.',
    );
  });

  it('leads with the reason Codex gives under a bare "Internal error", and reads the JSON error in it', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'codex-error');
    expect((await reply(s)).error).toBe('The agent failed: unexpected status 401 Unauthorized: Incorrect API key provided (invalid_api_key).');
  });

  it("shows a provider's raw JSON error, nested as Gemini CLI passes it on, as its message and status", { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'gemini-error');
    expect((await reply(s)).error).toBe('The agent failed: API key not valid. Please pass a valid API key. (401 UNAUTHENTICATED).');
  });

  it('shows the warnings Codex sends as text before its answer as notices, and one sent between turns on the next reply', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'codex-warnings');
    const first = await reply(s);
    expect(textOf(first)).toBe('Hello from Codex.');
    expect(first.notices).toEqual([
      { severity: 'warning', title: 'Model metadata for `gpt-5-local` not found', description: 'Defaulting to fallback metadata; this can degrade performance and cause issues.' },
      { severity: 'warning', title: 'Falling back from WebSockets to HTTPS transport', description: 'HTTP error: 200 OK' },
    ]);
    await waitUntil(() => s.received().some((r) => r.kind === 'sent later warning'), 'the warning between turns', 10_000);
    await send(s, 'hello');
    const next = await reply(s);
    expect(textOf(next)).toBe('Hello from the scripted agent.');
    expect(next.notices).toEqual([{ severity: 'warning', title: 'Falling back from WebSockets to HTTPS transport', description: 'stream disconnected before completion' }]);
  });

  it('ends a refused turn failed with a readable reason', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'refuse');
    const failed = await reply(s);
    expect(failed).toMatchObject({ status: 'failed', error: 'The agent refused to go on with this request' });
  });

  it('lets the agent read and write text files inside the working folder only', { timeout: 30_000 }, async () => {
    const s = await setup();
    await writeFile(path.join(s.cwd, 'inside.txt'), 'inside text');
    const outside = path.join(await h.tmpDir(), 'secret.txt');
    await writeFile(outside, 'secret');
    await send(s, `read ${path.join(s.cwd, 'inside.txt')}`);
    expect(textOf(await reply(s))).toBe('File says: inside text');
    await send(s, `read ${outside}`);
    expect(textOf(await reply(s))).toMatch(/^Could not read: .*outside the working folder/);
    await send(s, `read ${path.join(s.cwd, '..', path.basename(path.dirname(outside)), 'secret.txt')}`);
    expect(textOf(await reply(s))).toMatch(/^Could not read: .*outside the working folder/);
    await send(s, `write ${path.join(s.cwd, 'sub', 'new.txt')}`);
    expect(textOf(await reply(s))).toBe('Wrote it.');
    expect(readFileSync(path.join(s.cwd, 'sub', 'new.txt'), 'utf8')).toBe('written by the agent\n');
    await send(s, `write ${outside}`);
    expect(textOf(await reply(s))).toMatch(/^Could not write: .*outside the working folder/);
    expect(readFileSync(outside, 'utf8')).toBe('secret');
  });

  it('names the ways to sign in that the agent offers when it wants the user signed in first', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_AUTH: '1' } });
    await send(s, 'hello');
    const message = await reply(s);
    expect(message).toMatchObject({
      status: 'failed',
      error:
        'acp/scripted needs you to sign in first. It offers: Log in with Scripted (Run `scripted-agent /login` in a terminal); Use SCRIPTED_API_KEY. Sign in with `scripted-agent /login` in a terminal, then send again.',
    });
    // The chat goes on: the next message asks again, and the server keeps serving.
    await send(s, 'hello');
    expect((await reply(s)).error).toMatch(/^acp\/scripted needs you to sign in first\./);
    expect(s.received().filter((r) => r.kind === 'session/new')).toHaveLength(2);
  });

  it('says what the agent said when it names what is missing, with the ways to sign in', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_AUTH: '1', ACP_SCRIPT_AUTH_MESSAGE: 'Scripted API key is missing or not configured.' } });
    await send(s, 'hello');
    expect((await reply(s)).error).toBe(
      'acp/scripted needs you to sign in first. It says: Scripted API key is missing or not configured. It offers: Log in with Scripted (Run `scripted-agent /login` in a terminal); Use SCRIPTED_API_KEY. Sign in with `scripted-agent /login` in a terminal, then send again.',
    );
  });

  it('signs in with the key the agent offers as an env_var method, once per process, and continues and loads sessions after it', { timeout: 30_000 }, async () => {
    const dataDir = await h.tmpDir();
    const logFile = path.join(await h.tmpDir(), 'acp.log');
    const env = { ACP_SCRIPT_ENV_AUTH: '1', SCRIPTED_API_KEY: 'sk-test', ACP_SCRIPT_STATE: await h.tmpDir(), ACP_SCRIPT_LOAD: '1' };
    const first = await setup({ env, dataDir, logFile });
    await send(first, 'hello');
    expect(await reply(first)).toMatchObject({ status: 'done', content: [{ type: 'reasoning' }, { type: 'text', text: 'Hello from the scripted agent.' }] });
    const { chatId: second } = await first.client.ok('chat.create', {});
    await first.client.ok('message.send', userMessage(second, 'hello'));
    await first.client.waitFor(() => first.client.state?.run === null && lastMessage(first.client.state)?.role === 'assistant', 20_000, 'the second reply');
    expect(lastMessage(first.client.state)).toMatchObject({ status: 'done' });
    // The first session/new was refused; the sign-in with the variable that is set came once.
    expect(first.received().filter((r) => ['authenticate', 'session/new'].includes(r.kind)).map((r) => r.kind)).toEqual(['session/new', 'authenticate', 'session/new', 'session/new']);
    expect(first.received().find((r) => r.kind === 'authenticate')!.data).toEqual({ methodId: 'scripted-api-key' });
    await first.server.close();
    // A new process refuses session/load too until it is signed in.
    const again = await setup({ env, dataDir, logFile });
    await again.client.ok('chat.switch', { chatId: first.chatId });
    await again.client.ok('message.send', userMessage(first.chatId, 'recall'));
    await again.client.waitFor(() => again.client.state?.run === null && textOf(lastMessage(again.client.state)).startsWith('You said'), 20_000, 'the reply');
    expect(textOf(lastMessage(again.client.state))).toBe('You said before: hello');
    const pid = again.received().at(-1)!.pid;
    expect(again.received().filter((r) => r.pid === pid && ['authenticate', 'session/load', 'session/new'].includes(r.kind)).map((r) => r.kind)).toEqual(['session/load', 'authenticate', 'session/load']);
  });

  it('says the key the agent offers is set but refused, in its words, when sign-in with it fails', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_ENV_AUTH: '1', SCRIPTED_API_KEY: 'revoked' } });
    await send(s, 'hello');
    expect((await reply(s)).error).toBe(
      "acp/scripted offers sign-in with SCRIPTED_API_KEY, which is set, but the agent still refused: SCRIPTED_API_KEY was refused: the key is revoked. Check the value agentbar starts it with, or sign in with the agent's own command, then send again.",
    );
    // Once per process: the next message is refused without asking again.
    await send(s, 'hello');
    expect((await reply(s)).error).toMatch(/^acp\/scripted offers sign-in with SCRIPTED_API_KEY, which is set, but the agent still refused/);
    expect(s.received().filter((r) => r.kind === 'authenticate')).toHaveLength(1);
  });

  it('names the variables to set, and the agent\'s own sign-in command, when no key it offers is set', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_ENV_AUTH: '1' } });
    await send(s, 'hello');
    expect((await reply(s)).error).toBe(
      'acp/scripted needs you to sign in first. It offers: Login with Scripted (Use your Scripted login (run `scripted-agent login` first)); Use SCRIPTED_ALT_KEY (Requires setting the `SCRIPTED_ALT_KEY` environment variable.); Use SCRIPTED_API_KEY (Requires setting the `SCRIPTED_API_KEY` environment variable.). Set SCRIPTED_ALT_KEY or SCRIPTED_API_KEY in the environment of the agentbar server and restart it, or sign in with `scripted-agent login` in a terminal, then send again.',
    );
    expect(s.received().filter((r) => r.kind === 'authenticate')).toEqual([]);
  });

  it('keeps one session per chat', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'hello');
    await reply(s);
    await send(s, 'recall');
    expect(textOf(await reply(s))).toBe('You said before: hello');
    const { chatId: second } = await s.client.ok('chat.create', {});
    await s.client.ok('message.send', userMessage(second, 'recall'));
    await s.client.waitFor(() => s.client.state?.run === null && lastMessage(s.client.state)?.role === 'assistant', 20_000, 'the reply');
    expect(textOf(lastMessage(s.client.state))).toBe('You said before: nothing');
    expect(s.received().filter((r) => r.kind === 'session/new')).toHaveLength(2);
  });

  it('continues the session after a restart when the agent can load it', { timeout: 30_000 }, async () => {
    const dataDir = await h.tmpDir();
    const state = await h.tmpDir();
    const cwd = await h.tmpDir();
    const logFile = path.join(await h.tmpDir(), 'acp.log');
    const env = { ACP_SCRIPT_STATE: state, ACP_SCRIPT_LOAD: '1' };
    const first = await setup({ env, dataDir, cwd, logFile });
    await send(first, 'hello');
    await reply(first);
    await first.server.close();
    const second = await setup({ env, dataDir, cwd, logFile });
    await second.client.ok('chat.switch', { chatId: first.chatId });
    await second.client.ok('message.send', userMessage(first.chatId, 'recall'));
    await second.client.waitFor(() => second.client.state?.run === null && textOf(lastMessage(second.client.state)).startsWith('You said'), 20_000, 'the reply');
    expect(textOf(lastMessage(second.client.state))).toBe('You said before: hello');
    const loads = second.received().filter((r) => r.kind === 'session/load');
    expect(loads).toHaveLength(1);
    const firstPid = first.received().find((r) => r.kind === 'session/new')!.pid;
    expect(loads[0]!.data.sessionId).toBe(`sess_${firstPid}_1`);
    expect(second.received().filter((r) => r.kind === 'session/new')).toHaveLength(1);
    // The replayed history was not shown again.
    expect(activeMessages(second.client.state).filter((m) => textOf(m).includes('replayed'))).toEqual([]);
  });

  it('starts a new session with the chat so far when the agent cannot load the old one', { timeout: 30_000 }, async () => {
    const dataDir = await h.tmpDir();
    const cwd = await h.tmpDir();
    const logFile = path.join(await h.tmpDir(), 'acp.log');
    const first = await setup({ dataDir, cwd, logFile });
    await send(first, 'hello');
    await reply(first);
    await first.server.close();
    const second = await setup({ dataDir, cwd, logFile });
    await second.client.ok('chat.switch', { chatId: first.chatId });
    await second.client.ok('message.send', userMessage(first.chatId, 'echo'));
    await second.client.waitFor(() => second.client.state?.run === null && textOf(lastMessage(second.client.state)).startsWith('Received'), 20_000, 'the reply');
    const prompts = second.received().filter((r) => r.kind === 'session/prompt');
    const lastPrompt = prompts[prompts.length - 1]!.data.prompt;
    expect(lastPrompt[0].text).toMatch(/^This conversation started before/);
    expect(lastPrompt[0].text).toContain('User: hello');
    expect(lastPrompt[0].text).toContain('acp/scripted: Hello from the scripted agent.');
    expect(lastPrompt[1]).toEqual({ type: 'text', text: 'echo' });
  });

  it('lists the commands the agent announces, keeps them across a restart, and sends /review as the message it is', { timeout: 30_000 }, async () => {
    const dataDir = await h.tmpDir();
    const cwd = await h.tmpDir();
    const logFile = path.join(await h.tmpDir(), 'acp.log');
    const first = await setup({ dataDir, cwd, logFile });
    // Nothing is known before the agent has started.
    expect(first.client.state!.agents[0]!.commands).toBeUndefined();
    await send(first, 'hello');
    await reply(first);
    const announced = [
      { name: 'review', description: 'Review the changes on this branch', hint: 'what to focus on' },
      { name: 'compact', description: 'Summarize the conversation so far to free context' },
    ];
    await first.client.waitFor(() => first.client.state!.agents[0]!.commands !== undefined, 5_000, 'the commands');
    expect(first.client.state!.agents[0]!.commands).toEqual(announced);
    const listed = (await (await fetch(`${first.server.httpUrl}/agents`, { headers: { authorization: `Bearer ${first.server.token}` } })).json()) as { commands?: unknown }[];
    expect(listed[0]!.commands).toEqual(announced);
    await send(first, '/review the tests');
    expect(textOf(await reply(first))).toBe('Reviewing the branch, focusing on the tests: it looks fine.');
    await first.server.close();
    // After a restart the toolbar can offer them before the agent runs again.
    const second = await setup({ dataDir, cwd, logFile });
    expect(second.client.state!.agents[0]!.commands).toEqual(announced);
  });

  it('offers the modes its sessions announce, switches the open session at once, and refuses what the agent refuses', { timeout: 30_000 }, async () => {
    const s = await setup();
    expect(s.client.state!.agents[0]!.modes).toBeUndefined();
    await send(s, 'mode');
    expect(textOf(await reply(s))).toBe('Working in mode default.');
    expect(s.client.state!.agents[0]!.modes!.map((m) => m.id)).toEqual(['default', 'acceptEdits', 'plan', 'bypassPermissions']);
    expect(s.client.state!.agents[0]!.modes![2]).toEqual({ id: 'plan', name: 'Plan Mode', description: 'Read only: propose a plan first' });

    await s.client.ok('mode.set', { chatId: s.chatId, mode: 'plan' });
    expect(s.client.state!.chats[s.chatId]!.modes).toEqual({ 'acp/scripted': 'plan' });
    const sessionId = `sess_${s.received().find((r) => r.kind === 'session/new')!.pid}_1`;
    expect(s.received().filter((r) => r.kind === 'session/set_mode').map((r) => r.data)).toEqual([{ sessionId, modeId: 'plan' }]);
    await send(s, 'mode');
    expect(textOf(await reply(s))).toBe('Working in mode plan.');

    const refused = await s.client.request('mode.set', { chatId: s.chatId, mode: 'bypassPermissions' });
    expect(refused.ok).toBe(false);
    expect(refused.error.code).toBe('rejected');
    expect(refused.error.message).toContain('Bypass Permissions is off: start the agent with --allow-bypass');
    expect(s.client.state!.chats[s.chatId]!.modes).toEqual({ 'acp/scripted': 'plan' });
  });

  it('starts a chat\'s session in the mode the user picked before it existed, and shows the mode the agent moves to itself', { timeout: 30_000 }, async () => {
    const s = await setup();
    // The agent announced its modes in another chat: this one has no session yet.
    await send(s, 'hello');
    await reply(s);
    const { chatId } = await s.client.ok('chat.create', {});
    await s.client.ok('mode.set', { chatId, mode: 'plan' });
    expect(s.received().filter((r) => r.kind === 'session/set_mode')).toEqual([]);
    await s.client.ok('message.send', userMessage(chatId, 'mode'));
    await s.client.waitFor(() => s.client.state?.run === null && textOf(lastMessage(s.client.state)).startsWith('Working'), 20_000, 'the reply');
    expect(textOf(lastMessage(s.client.state))).toBe('Working in mode plan.');

    await s.client.ok('message.send', userMessage(chatId, 'go'));
    await s.client.waitFor(() => s.client.state?.run === null && textOf(lastMessage(s.client.state)).startsWith('Carrying'), 20_000, 'the reply');
    expect(s.client.state!.chats[chatId]!.modes).toEqual({ 'acp/scripted': 'acceptEdits' });
    // The first chat kept its own.
    expect(s.client.state!.chats[s.chatId]!.modes).toBeUndefined();
  });

  it('offers the config options its sessions announce as settings, in place of its modes; switches the open session and follows what the agent changes', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_CONFIG: '1' } });
    await send(s, 'settings');
    expect(textOf(await reply(s))).toBe('Model default, thinking medium, mode default.');
    const agent = () => s.client.state!.agents[0]!;
    // ACP asks clients that take config options to use its mode option instead of `modes`.
    expect(agent().modes).toBeUndefined();
    expect(agent().settings!.map((x) => [x.id, x.category, x.defaultValue])).toEqual([
      ['mode', 'mode', 'default'],
      ['model', 'model', 'default'],
      ['effort', 'thought_level', 'medium'],
      ['fast', undefined, 'false'],
    ]);
    expect(agent().settings![1]!.options).toEqual([
      { value: 'default', name: 'Default (recommended)', description: 'Sonnet, for everyday work', group: 'Recommended' },
      { value: 'opus', name: 'Opus', description: 'Most capable', group: 'Other models' },
      { value: 'haiku', name: 'Haiku', description: 'Fastest', group: 'Other models' },
    ]);

    await s.client.ok('setting.set', { chatId: s.chatId, setting: 'mode', value: 'plan' });
    const sessionId = `sess_${s.received().find((r) => r.kind === 'session/new')!.pid}_1`;
    expect(s.received().filter((r) => r.kind === 'session/set_config_option').map((r) => r.data)).toEqual([{ sessionId, configId: 'mode', value: 'plan' }]);
    const refused = await s.client.request('setting.set', { chatId: s.chatId, setting: 'model', value: 'opus' });
    expect(refused.error).toMatchObject({ code: 'rejected', message: expect.stringContaining('acp/scripted did not change model: Opus is not on your plan') });
    expect(s.client.state!.chats[s.chatId]!.settings).toEqual({ 'acp/scripted': { mode: 'plan' } });

    // Haiku moves the thinking level too: the chat shows it from the next turn on.
    await s.client.ok('setting.set', { chatId: s.chatId, setting: 'model', value: 'haiku' });
    await send(s, 'settings');
    expect(textOf(await reply(s))).toBe('Model haiku, thinking low, mode plan.');
    expect(s.client.state!.chats[s.chatId]!.settings).toEqual({ 'acp/scripted': { mode: 'plan', model: 'haiku', effort: 'low' } });
    expect(s.received().filter((r) => r.kind === 'session/set_mode')).toEqual([]);
  });

  it("offers the models a session gives as ACP's `models`, as Gemini CLI does, as the Model setting, switched by session/set_model", { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_MODELS: '1' } });
    await send(s, 'settings');
    expect(textOf(await reply(s))).toBe('Model gemini-2.5-pro, thinking medium, mode default.');
    const agent = () => s.client.state!.agents[0]!;
    expect(agent().settings!.map((x) => [x.id, x.name, x.category, x.defaultValue, x.options.map((o) => o.name).join(', ')])).toEqual([['model', 'Model', 'model', 'gemini-2.5-pro', 'Gemini 2.5 Pro, Gemini 2.5 Flash, Gemini Ultra']]);
    // Its modes stay ACP's older form: it has no mode option.
    expect(agent().modes!.map((m) => m.id)).toEqual(['default', 'acceptEdits', 'plan', 'bypassPermissions']);

    // A pick changes the open session at once; a model the agent refuses goes back, with its reason.
    await s.client.ok('setting.set', { chatId: s.chatId, setting: 'model', value: 'gemini-2.5-flash' });
    const sessionId = `sess_${s.received().find((r) => r.kind === 'session/new')!.pid}_1`;
    expect(s.received().filter((r) => r.kind === 'session/set_model').map((r) => r.data)).toEqual([{ sessionId, modelId: 'gemini-2.5-flash' }]);
    const refused = await s.client.request('setting.set', { chatId: s.chatId, setting: 'model', value: 'gemini-ultra' });
    expect(refused.error).toMatchObject({ code: 'rejected', message: expect.stringContaining('acp/scripted did not change model: Gemini Ultra is not available on your tier') });
    await send(s, 'settings');
    expect(textOf(await reply(s))).toBe('Model gemini-2.5-flash, thinking medium, mode default.');
    expect(s.client.state!.chats[s.chatId]!.settings).toEqual({ 'acp/scripted': { model: 'gemini-2.5-flash' } });

    // Picked before a chat's session exists: the session is given it as it opens.
    const { chatId } = await s.client.ok('chat.create', {});
    await s.client.ok('setting.set', { chatId, setting: 'model', value: 'gemini-2.5-flash' });
    await s.client.ok('message.send', userMessage(chatId, 'settings'));
    const opened = 'Model gemini-2.5-flash, thinking medium, mode default.';
    await s.client.waitFor(() => s.client.state?.run === null && textOf(lastMessage(s.client.state)) === opened, 20_000, 'the new chat to answer with the model picked for it');
    expect(s.received().filter((r) => r.kind === 'session/set_model').map((r) => r.data)).toEqual([
      { sessionId, modelId: 'gemini-2.5-flash' },
      { sessionId, modelId: 'gemini-ultra' },
      { sessionId: expect.not.stringMatching(sessionId), modelId: 'gemini-2.5-flash' },
    ]);
    expect(s.received().filter((r) => r.kind === 'session/set_config_option')).toEqual([]);
  });

  it("starts a chat's session with the settings picked before it existed, and shows a change the agent makes itself", { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_CONFIG: '1' } });
    await send(s, 'hello');
    await reply(s);
    const { chatId } = await s.client.ok('chat.create', {});
    await s.client.ok('setting.set', { chatId, setting: 'effort', value: 'high' });
    await s.client.ok('setting.set', { chatId, setting: 'model', value: 'opus' });
    expect(s.received().filter((r) => r.kind === 'session/set_config_option')).toEqual([]);
    await s.client.ok('message.send', userMessage(chatId, 'settings'));
    await s.client.waitFor(() => s.client.state?.run === null && textOf(lastMessage(s.client.state)).startsWith('Model'), 20_000, 'the reply');
    // The agent refused Opus when the session opened: the chat shows the model it really uses.
    expect(textOf(lastMessage(s.client.state))).toBe('Model default, thinking high, mode default.');
    expect(s.client.state!.chats[chatId]!.settings).toEqual({ 'acp/scripted': { effort: 'high', model: 'default' } });

    await s.client.ok('message.send', userMessage(chatId, 'downgrade'));
    await s.client.waitFor(() => s.client.state?.run === null && textOf(lastMessage(s.client.state)).startsWith('Out of quota'), 20_000, 'the reply');
    expect(s.client.state!.chats[chatId]!.settings).toEqual({ 'acp/scripted': { effort: 'low', model: 'haiku' } });
    // The first chat kept its own.
    expect(s.client.state!.chats[s.chatId]!.settings).toBeUndefined();
  });

  it('offers an on/off option as a boolean setting and gives it to the agent as a boolean, at once or when the session opens', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_CONFIG: '1' } });
    await send(s, 'fast');
    expect(textOf(await reply(s))).toBe('Fast mode off.');
    const fast = s.client.state!.agents[0]!.settings!.find((x) => x.id === 'fast');
    expect(fast).toEqual({
      id: 'fast',
      name: 'Fast mode',
      description: 'Faster answers at a higher cost',
      type: 'boolean',
      defaultValue: 'false',
      options: [
        { value: 'true', name: 'On' },
        { value: 'false', name: 'Off' },
      ],
    });
    const refused = await s.client.request('setting.set', { chatId: s.chatId, setting: 'fast', value: 'yes' });
    expect(refused.error).toMatchObject({ code: 'not_found', path: 'value' });

    await s.client.ok('setting.set', { chatId: s.chatId, setting: 'fast', value: 'true' });
    const sessionId = `sess_${s.received().find((r) => r.kind === 'session/new')!.pid}_1`;
    expect(s.received().filter((r) => r.kind === 'session/set_config_option').map((r) => r.data)).toEqual([{ sessionId, configId: 'fast', type: 'boolean', value: true }]);
    await send(s, 'fast');
    expect(textOf(await reply(s))).toBe('Fast mode on.');

    // Picked before its session exists: given to the session when it opens, as a boolean too.
    const { chatId } = await s.client.ok('chat.create', {});
    await s.client.ok('setting.set', { chatId, setting: 'fast', value: 'true' });
    await s.client.ok('message.send', userMessage(chatId, 'fast'));
    await s.client.waitFor(() => s.client.state?.run === null && textOf(lastMessage(s.client.state)).startsWith('Fast'), 20_000, 'the reply');
    expect(textOf(lastMessage(s.client.state))).toBe('Fast mode on.');
    expect(s.received().filter((r) => r.kind === 'session/set_config_option').map((r) => r.data)).toEqual([
      { sessionId, configId: 'fast', type: 'boolean', value: true },
      { sessionId: expect.not.stringMatching(sessionId), configId: 'fast', type: 'boolean', value: true },
    ]);
    // The first chat's default stays Off for new chats.
    expect(s.client.state!.agents[0]!.settings!.find((x) => x.id === 'fast')!.defaultValue).toBe('false');
  });

  it("shows the agent's notices on its reply, and one it gives between turns on the next reply", { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'notice');
    const first = await reply(s);
    expect(textOf(first)).toBe('Answered without the docs.');
    expect(first.status).toBe('done');
    expect(first.notices).toEqual([
      { severity: 'warning', title: 'MCP server "docs" unavailable', description: 'Continuing without it.' },
      { severity: 'info', title: 'Using a smaller model for this turn' },
    ]);
    await waitUntil(() => s.received().some((r) => r.kind === 'sent later notice'), 'the notice between turns', 10_000);
    await send(s, 'hello');
    const next = await reply(s);
    expect(next.notices).toEqual([{ severity: 'error', title: 'Background indexing failed', description: 'Search results may be stale.' }]);
    // The first reply did not change.
    expect(s.client.state!.active!.messages.filter((m) => m.role === 'assistant')[0]!.notices).toHaveLength(2);
  });

  it("shows how full the agent's context is on the chat, and a report it gives between turns at the next turn", { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'hello');
    await reply(s);
    expect(s.client.state!.chats[s.chatId]!.usage).toBeUndefined();
    await send(s, 'usage');
    expect(textOf(await reply(s))).toBe('That took a lot of reading.');
    expect(s.client.state!.chats[s.chatId]!.usage).toEqual({ 'acp/scripted': { used: 150_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } } });
    // The agent compacted its context once the turn was over: the chat shows it with the next turn.
    await waitUntil(() => s.received().some((r) => r.kind === 'sent later usage'), 'the usage between turns', 10_000);
    await send(s, 'hello');
    await reply(s);
    expect(s.client.state!.chats[s.chatId]!.usage).toEqual({ 'acp/scripted': { used: 30_000, size: 200_000, cost: { amount: 0.45, currency: 'USD' } } });
  });

  it('names the chat as the agent names its session, during a turn and at once between turns, but never over a name the user gave', { timeout: 30_000 }, async () => {
    const s = await setup();
    const title = () => s.client.state!.chats[s.chatId]!;
    await send(s, 'title');
    expect(textOf(await reply(s))).toBe('Named.');
    await waitUntil(() => s.received().some((r) => r.kind === 'sent later title'), 'the title between turns', 10_000);
    await s.client.waitFor(() => title().title === 'Fix the login button on mobile', 10_000, 'the title the agent gave between turns');
    expect(title().titledBy).toBe('agent');
    // The titles the clients were sent: the one made from the first message, the turn's, the later one (its marks and line break gone).
    const sent = JSON.stringify(s.client.frames);
    const order = ['"value":"title"', '"value":"Reading the notes"', '"value":"Fix the login button on mobile"'].map((t) => sent.indexOf(t));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)), `titles sent at ${order.join(', ')}`).toBe(true);
    expect(s.received().filter((r) => r.kind === 'session/new')).toHaveLength(1);

    // A chat the user renamed keeps its name, whatever the agent says later.
    await s.client.ok('chat.rename', { chatId: s.chatId, title: 'Login work' });
    await send(s, 'title');
    await reply(s);
    await waitUntil(() => s.received().filter((r) => r.kind === 'sent later title').length === 2, 'the second title between turns', 10_000);
    await send(s, 'hello');
    await reply(s);
    expect(title()).toMatchObject({ title: 'Login work', titledBy: 'user' });
  });

  it('follows options the agent gives between turns: the menus at once, the chat at its next turn', { timeout: 30_000 }, async () => {
    const s = await setup({ env: { ACP_SCRIPT_CONFIG: '1' } });
    await send(s, 'later');
    expect(textOf(await reply(s))).toBe('A longer context is on its way.');
    const models = () => s.client.state!.agents[0]!.settings?.find((x) => x.id === 'model')?.options.map((o) => o.value);
    await s.client.waitFor(() => models()?.includes('sonnet-1m') === true, 10_000, 'the new model in the menu');
    expect(s.client.state!.chats[s.chatId]!.settings).toBeUndefined();
    await send(s, 'settings');
    expect(textOf(await reply(s))).toBe('Model sonnet-1m, thinking medium, mode default.');
    expect(s.client.state!.chats[s.chatId]!.settings).toEqual({ 'acp/scripted': { model: 'sonnet-1m' } });
  });

  it('shows a mode the agent moved to between turns at the next turn, unless the user picked one since', { timeout: 30_000 }, async () => {
    const s = await setup();
    await send(s, 'drift');
    expect(textOf(await reply(s))).toBe('I will plan first.');
    await waitUntil(() => s.received().some((r) => r.kind === 'sent current_mode_update'), 'the agent to change its mode', 10_000);
    expect(s.client.state!.chats[s.chatId]!.modes).toBeUndefined();
    await send(s, 'mode');
    expect(textOf(await reply(s))).toBe('Working in mode plan.');
    expect(s.client.state!.chats[s.chatId]!.modes).toEqual({ 'acp/scripted': 'plan' });

    // Again, but the user picks a mode before the next turn: the pick wins.
    await send(s, 'drift');
    await reply(s);
    await waitUntil(() => s.received().filter((r) => r.kind === 'sent current_mode_update').length === 2, 'the agent to change its mode again', 10_000);
    await s.client.ok('mode.set', { chatId: s.chatId, mode: 'acceptEdits' });
    await send(s, 'mode');
    expect(textOf(await reply(s))).toBe('Working in mode acceptEdits.');
    expect(s.client.state!.chats[s.chatId]!.modes).toEqual({ 'acp/scripted': 'acceptEdits' });
  });

  it('fails the message with a clear error when the command cannot start, and keeps serving', { timeout: 30_000 }, async () => {
    const agent = createAcpAgent({ id: 'acp/missing', command: '/nonexistent/agent-binary', cwd: await h.tmpDir() });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server, { kind: 'cli' });
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'hello'));
    await client.waitFor(() => client.state?.run === null && lastMessage(client.state)?.role === 'assistant', 10_000, 'the failure');
    expect(lastMessage(client.state)).toMatchObject({
      status: 'failed',
      error: 'Cannot start /nonexistent/agent-binary: command not found (ENOENT); is it installed, and on the PATH of the agentbar server?',
    });
    await client.ok('chat.create', {});
  });

  it('says a command that is not executable cannot start, and why', { timeout: 30_000 }, async () => {
    const dir = await h.tmpDir();
    const script = path.join(dir, 'agent.sh');
    await writeFile(script, '#!/bin/sh\n', { mode: 0o644 });
    const server = await h.start({ agents: [createAcpAgent({ id: 'acp/plain-file', command: script, cwd: dir })] });
    const client = await h.connect(server, { kind: 'cli' });
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'hello'));
    await client.waitFor(() => client.state?.run === null && lastMessage(client.state)?.role === 'assistant', 10_000, 'the failure');
    expect(lastMessage(client.state)).toMatchObject({ status: 'failed', error: `Cannot start ${script}: permission denied (EACCES); is it an executable file?` });
  });
});

describe('deriveAcpId', () => {
  it('names the agent after its program or package', () => {
    expect(deriveAcpId('npx', ['@zed-industries/claude-code-acp'])).toBe('acp/claude-code');
    expect(deriveAcpId('npx', ['-y', '@zed-industries/claude-code-acp@latest'])).toBe('acp/claude-code');
    expect(deriveAcpId('npx', ['@zed-industries/claude-agent-acp@0.23.1'])).toBe('acp/claude-agent');
    expect(deriveAcpId('npx', ['@zed-industries/codex-acp'])).toBe('acp/codex');
    expect(deriveAcpId('gemini', ['--acp'])).toBe('acp/gemini');
    expect(deriveAcpId('gemini', ['--experimental-acp'])).toBe('acp/gemini');
    expect(deriveAcpId('/usr/local/bin/goose', ['acp'])).toBe('acp/goose');
    expect(deriveAcpId('node', ['./agents/my-agent.mjs'])).toBe('acp/my-agent');
  });
});
