/**
 * Durable chats at the server level (PROTOCOL §5): a real server on a temp data directory is closed
 * and started again on it, and a newly connected client must find everything as it was. The
 * crash side (SIGKILL of the real CLI) is in durability-kill.test.ts.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInfo, AssistantMessage, Message, State, ToolCallPart, UserMessage } from '../../shared/schemas.ts';
import { defineAgent, ToolDeniedError, type AgentDefinition } from '../sdk/agent.ts';
import { isProcessAlive, killSpawnedServers, runCli, spawnServer } from '../../test-support/spawn-server.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import {
  activeMessages,
  echoAgent,
  expectUnchanged,
  lastMessage,
  settle,
  textOf,
  toolCallsOf,
  useHarness,
  waitUntil,
  type TestServer,
  type TestServerOptions,
} from '../../test-support/test-server.ts';

const h = useHarness();

afterEach(async () => {
  for (const pid of await killSpawnedServers()) expect(isProcessAlive(pid), `spawned server ${pid} is gone`).toBe(false);
});

const TEXT_FILE = `data:text/plain;base64,${Buffer.from('hello from a file').toString('base64')}`;
const PDF_FILE = `data:application/pdf;base64,${Buffer.from('%PDF-1.4 tiny').toString('base64')}`;
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PICK_TOOL = { name: 'pick', description: 'Reads the picked elements', inputSchema: { type: 'object' } };

/** Writes every assistant part type and leaves tool calls in every state the test can drive. */
function partsAgent(): AgentDefinition {
  return defineAgent({
    id: 'test/parts',
    description: 'Writes every part type',
    tools: [
      { name: 'read', runtime: 'cli', execute: (input) => ({ read: input.path }) },
      {
        name: 'explode',
        runtime: 'cli',
        execute: () => {
          throw new Error('the tool exploded');
        },
      },
      { name: 'pick', runtime: 'toolbar' },
      // A remote call that never answers: its message stays open until the run ends.
      {
        name: 'slow',
        runtime: 'backend',
        execute: (_input, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
      },
    ],
    async run(ctx) {
      if (ctx.text === 'wait') {
        // Left waiting for an approval, its message open, when the server stops.
        await ctx.reply.text('waiting for you');
        await ctx.callTool({ name: 'slow', requiresApproval: true, input: { n: 4 } });
        return;
      }
      await ctx.reply.reasoning('First I think it through.');
      await ctx.reply.text('Here is a file.');
      ctx.reply.file({ data: TEXT_FILE, filename: 'notes.txt', mimeType: 'text/plain' });
      ctx.reply.backendToolResult({ name: 'search', input: { q: 'ok' }, output: { hits: ['§3'] } });
      ctx.reply.backendToolResult({ name: 'search', input: { q: 'bad' }, output: 'search is down', isError: true });
      await ctx.reply.text(' More text after the searches.');
      await ctx.callTool({ name: 'read', input: { path: 'a.txt' } });
      await ctx.callTool({ name: 'explode' });
      try {
        await ctx.callTool({ name: 'pick', requiresApproval: true, input: { n: 1 } });
      } catch (error) {
        if (!(error instanceof ToolDeniedError)) throw error;
      }
      await ctx.reply.text('Then the toolbar.');
      const picked = await ctx.callTool({ name: 'pick', requiresApproval: true, input: { n: 2 } });
      await ctx.reply.text(`picked ${JSON.stringify(picked.output)}`);
      // Both left running; the test stops the run.
      ctx.callTool({ name: 'pick', input: { n: 3 } }).catch(() => {});
      await ctx.reply.text('And a slow search.');
      await ctx.callTool({ name: 'slow', input: { n: 5 } });
    },
  });
}

/** Counts its runs in its agent state and sets its skill on `skill NAME`. */
function skillAgent(): AgentDefinition {
  return defineAgent({
    id: 'test/skills',
    description: 'Remembers things between runs',
    async run(ctx) {
      const count = (ctx.state.get<{ count: number }>()?.count ?? 0) + 1;
      ctx.state.set({ count, last: ctx.text });
      if (ctx.text.startsWith('skill ')) ctx.state.setActiveSkill(ctx.text.slice('skill '.length));
      await ctx.reply.text(`run ${count}`);
    },
  });
}

/** Closes `server` and starts a new one on its data directory. */
async function restart(server: TestServer, options: TestServerOptions = {}): Promise<TestServer> {
  await server.close();
  return h.start({ agents: [echoAgent()], ...options, dataDir: server.dataDir });
}

/** A client of `server` that holds every chat's messages, switching to each (then back). */
async function readAllChats(server: TestServer, client: TestClient): Promise<Map<string, Message[]>> {
  const out = new Map<string, Message[]>();
  const back = client.state!.activeChatId;
  for (const chatId of Object.keys(client.state!.chats)) {
    await client.ok('chat.switch', { chatId });
    out.set(chatId, structuredClone(activeMessages(client.state)));
  }
  if (back) await client.ok('chat.switch', { chatId: back });
  await settle(server, client);
  return out;
}

async function chatFiles(dataDir: string): Promise<string[]> {
  return (await readdir(path.join(dataDir, 'chats'))).sort();
}

function findCall(state: State | null, predicate: (call: ToolCallPart) => boolean): ToolCallPart | undefined {
  return toolCallsOf(state).find(predicate);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('a restart on the same data directory', () => {
  it('restores every chat, the active chat and its messages for a newly connected client', async () => {
    const first = await h.start();
    const client = await h.connect(first);
    const chats: string[] = [];
    for (const title of ['Header', 'Footer', 'Sidebar']) {
      const { chatId } = await client.ok('chat.create', { title });
      chats.push(chatId);
      await client.ok('message.send', userMessage(chatId, `fix the ${title}`));
      await settle(first, client);
      await client.ok('message.send', userMessage(chatId, `and again the ${title}`));
      await settle(first, client);
    }
    await client.ok('chat.create', { title: 'Empty' });
    await client.ok('chat.switch', { chatId: chats[1] });
    await settle(first, client);
    const before = await readAllChats(first, client);
    const state = structuredClone(client.state!);

    const second = await restart(first);
    const again = await h.connect(second);
    expect(again.state!.chats).toEqual(state.chats);
    expect(Object.keys(again.state!.chats)).toHaveLength(4);
    expect(again.state!.activeChatId).toBe(chats[1]);
    expect(again.state!.active).toEqual(state.active);
    expect(again.state!.agents).toEqual(state.agents);
    expect(again.state!.run).toBeNull();
    expect(textOf(lastMessage(again.state))).toBe('echo: and again the Footer');
    expect(await readAllChats(second, again)).toEqual(before);
    expect(second.logs.filter((l) => l.level !== 'info')).toEqual([]);
  });

  it('keeps every part type, user attachments and metadata, and each tool call state', async () => {
    const agents = [partsAgent()];
    const first = await h.start({ agents });
    const client = await h.connect(first);
    const toolbar = await h.connect(first, { kind: 'toolbar', tools: [PICK_TOOL] });
    const { chatId } = await client.ok('chat.create', { title: 'Parts' });
    const metadata: UserMessage['metadata'] = {
      source: 'toolbar',
      browser: {
        url: 'http://localhost:5173/shop?x=1',
        title: 'Shop – “quotes”',
        viewport: { width: 1280, height: 720 },
        devicePixelRatio: 2,
        userAgent: 'Mozilla/5.0 test',
        locale: 'fr-FR',
        zoom: 1.25,
      },
      selectedElements: [
        {
          tagName: 'button',
          xpath: '/html/body/main/button[2]',
          selector: 'main > button.buy',
          attributes: { class: 'buy', 'data-id': '42' },
          textContent: 'Buy now ✓',
          boundingClientRect: { x: 10.5, y: 20, width: 120, height: 32 },
          parent: { tagName: 'main', xpath: '/html/body/main', attributes: {} },
        },
        { tagName: 'h1', xpath: '/html/body/h1', attributes: {}, textContent: 'Title', boundingClientRect: { x: 0, y: 0, width: 1, height: 1 }, parent: null },
      ],
    };
    await client.ok('message.send', {
      chatId,
      content: [
        { type: 'text', text: 'show me everything' },
        { type: 'image', image: PNG, mimeType: 'image/png' },
        { type: 'file', data: PDF_FILE, filename: 'spec.pdf', mimeType: 'application/pdf' },
      ],
      metadata,
      clientMessageId: 'parts-1',
    });

    await client.waitFor(() => findCall(client.state, (c) => c.input.n === 1)?.state === 'awaiting-approval', 5000, 'the first approval');
    const denied = findCall(client.state, (c) => c.input.n === 1)!;
    await client.ok('tool.approve', { chatId, toolCallId: denied.toolCallId, approved: false, reason: 'not now' });
    await client.waitFor(() => findCall(client.state, (c) => c.input.n === 2)?.state === 'awaiting-approval', 5000, 'the second approval');
    const approved = findCall(client.state, (c) => c.input.n === 2)!;
    await client.ok('tool.approve', { chatId, toolCallId: approved.toolCallId, approved: true });
    await toolbar.waitFor(() => toolbar.framesOf('tool.run').some((f) => f.toolCallId === approved.toolCallId), 5000, 'tool.run');
    await toolbar.ok('tool.result', { chatId, toolCallId: approved.toolCallId, output: { elements: ['h1', 'button'] } });
    await toolbar.waitFor(() => toolbar.framesOf('tool.run').some((f) => f.input?.n === 3), 5000, 'the third call to run');
    await client.waitFor(() => findCall(client.state, (c) => c.input.n === 5)?.state === 'running', 5000, 'the slow call to run');
    expect(await client.ok('run.stop', { chatId })).toEqual({ stopped: true });
    await settle(first, client, toolbar);

    // A run left waiting for an approval when the server stops.
    await client.ok('message.send', userMessage(chatId, 'wait'));
    await client.waitFor(() => findCall(client.state, (c) => c.input.n === 4)?.state === 'awaiting-approval', 5000, 'the waiting approval');
    await client.close();
    await toolbar.close();
    await first.close();
    // What close() left: the waiting call and its message are interrupted, no run survives.
    const expected = structuredClone(first.store.state);
    const messages = activeMessages(expected);

    const roles = messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user', 'tool', 'assistant', 'assistant', 'user', 'assistant']);
    const partTypes = new Set(messages.flatMap((m) => m.content.map((p) => `${m.role}:${p.type}`)));
    expect([...partTypes].sort()).toEqual(
      [
        'assistant:file',
        'assistant:reasoning',
        'assistant:text',
        'assistant:tool-call',
        'assistant:tool-result',
        'tool:tool-result',
        'user:file',
        'user:image',
        'user:text',
        'user:tool-approval-response',
      ].sort(),
    );
    const callStates = toolCallsOf(expected).map((c) => `${c.toolName}:${c.state}`);
    expect(callStates).toEqual([
      'search:done',
      'search:failed',
      'read:done',
      'explode:failed',
      'pick:denied',
      'pick:done',
      'pick:interrupted',
      'slow:interrupted',
      'slow:interrupted',
    ]);
    const statuses = messages.filter((m): m is AssistantMessage => m.role === 'assistant').map((m) => m.status);
    expect(statuses).toEqual(['done', 'done', 'done', 'done', 'done', 'stopped', 'interrupted']);
    const firstUser = messages[0] as UserMessage;
    expect(firstUser.metadata).toEqual(metadata);
    expect(firstUser.clientMessageId).toBe('parts-1');

    const second = await restart(first, { agents });
    const again = await h.connect(second);
    expect(again.state!.activeChatId).toBe(chatId);
    expect(again.state!.chats).toEqual(expected.chats);
    expect(again.state!.active!.messages).toEqual(messages);
    expect(again.state!.run).toBeNull();
  });

  it('keeps what an agent stored and shows its active skill in AgentInfo', async () => {
    const agents = [echoAgent(), skillAgent()];
    const first = await h.start({ agents });
    const client = await h.connect(first);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'skill review', { agent: 'test/skills' }));
    await settle(first, client);
    expect(textOf(lastMessage(client.state))).toBe('run 1');
    const skillInfo = (state: State | null): AgentInfo | undefined => state?.agents.find((a) => a.id === 'test/skills');
    expect(skillInfo(client.state)?.activeSkill).toBe('review');

    const second = await restart(first, { agents });
    const again = await h.connect(second);
    expect(skillInfo(again.state)?.activeSkill).toBe('review');
    expect(again.state!.agents.find((a) => a.id === 'test/echo')?.activeSkill).toBeNull();
    const listed = (await (await fetch(`${second.httpUrl}/agents`, { headers: { Authorization: `Bearer ${second.token}` } })).json()) as AgentInfo[];
    expect(listed.find((a) => a.id === 'test/skills')?.activeSkill).toBe('review');
    // The chat's agent is remembered too, so no `agent` is needed; the count goes on from 1.
    await again.ok('message.send', userMessage(chatId, 'hello'));
    await settle(second, again);
    expect(textOf(lastMessage(again.state))).toBe('run 2');

    await again.ok('message.send', userMessage(chatId, 'skill none'));
    await settle(second, again);
    const third = await restart(second, { agents });
    const last = await h.connect(third);
    expect(skillInfo(last.state)?.activeSkill).toBe('none');
    await last.ok('message.send', userMessage(chatId, 'count?'));
    await settle(third, last);
    expect(textOf(lastMessage(last.state))).toBe('run 4');
  });

  it('removes a deleted chat’s files from DATA_DIR/chats before the ok, and it stays deleted', async () => {
    const first = await h.start();
    const client = await h.connect(first);
    const { chatId: doomed } = await client.ok('chat.create', { title: 'doomed' });
    await client.ok('message.send', userMessage(doomed, 'soon gone'));
    await settle(first, client);
    const { chatId: kept } = await client.ok('chat.create', { title: 'kept' });
    const chatsDir = path.join(first.dataDir, 'chats');
    await waitUntil(() => existsSync(path.join(chatsDir, `${doomed}.jsonl`)) && existsSync(path.join(chatsDir, `${kept}.jsonl`)), 'both chat files');

    await client.ok('chat.delete', { chatId: doomed });
    expect((await chatFiles(first.dataDir)).filter((n) => n.startsWith(doomed))).toEqual([]);
    expect(client.state!.chats[doomed]).toBeUndefined();

    const second = await restart(first);
    const again = await h.connect(second);
    expect(Object.keys(again.state!.chats)).toEqual([kept]);
    expect(again.state!.activeChatId).toBe(kept);
    expect((await again.request('chat.switch', { chatId: doomed })).error?.code).toBe('not_found');
    expect((await chatFiles(second.dataDir)).filter((n) => n.startsWith(doomed))).toEqual([]);
  });

  it('keeps a deleted active chat deleted, with no active chat after the restart', async () => {
    const first = await h.start();
    const client = await h.connect(first);
    const { chatId: other } = await client.ok('chat.create', { title: 'other' });
    const { chatId } = await client.ok('chat.create', { title: 'active' });
    await client.ok('message.send', userMessage(chatId, 'hi'));
    await settle(first, client);
    await client.ok('chat.delete', { chatId });
    expect(client.state!.activeChatId).toBeNull();

    const second = await restart(first);
    const again = await h.connect(second);
    expect(Object.keys(again.state!.chats)).toEqual([other]);
    expect(again.state!.activeChatId).toBeNull();
    expect(again.state!.active).toBeNull();
  });

  it('keeps renames, including one of a chat whose messages are not loaded', async () => {
    const first = await h.start();
    const client = await h.connect(first);
    const { chatId: a } = await client.ok('chat.create', { title: 'A' });
    await client.ok('message.send', userMessage(a, 'first chat'));
    await settle(first, client);
    const { chatId: b } = await client.ok('chat.create', { title: 'B' });
    await client.ok('message.send', userMessage(b, 'second chat'));
    await settle(first, client);
    const messagesOfA = (await readAllChats(first, client)).get(a)!;
    // `a` is not active (switched away from) but still in the server's memory.
    await client.ok('chat.rename', { chatId: a, title: 'Alpha' });
    await client.ok('chat.rename', { chatId: b, title: 'Beta' });

    const second = await restart(first);
    const again = await h.connect(second);
    expect(again.state!.chats[a]).toMatchObject({ title: 'Alpha', messageCount: 2 });
    expect(again.state!.chats[b]).toMatchObject({ title: 'Beta', messageCount: 2 });
    expect(again.state!.activeChatId).toBe(b);

    // After a restart only the active chat is loaded: this rename touches `a`'s info alone.
    await again.ok('chat.rename', { chatId: a, title: 'Alpha 2 “renamed” ✓' });
    const infoOfA = structuredClone(again.state!.chats[a]);
    const third = await restart(second);
    const last = await h.connect(third);
    expect(last.state!.chats[a]).toEqual(infoOfA);
    expect(last.state!.chats[a]!.title).toBe('Alpha 2 “renamed” ✓');
    await last.ok('chat.switch', { chatId: a });
    expect(activeMessages(last.state)).toEqual(messagesOfA);
    expect(third.logs.filter((l) => l.level !== 'info')).toEqual([]);
  });

  it('keeps renames made while the chat file is still being written', async () => {
    const first = await h.start();
    const client = await h.connect(first);
    const titles = new Map<string, string>();
    for (let i = 0; i < 5; i++) {
      // The ok of chat.create comes while its first file write is still going on.
      const { chatId } = await client.ok('chat.create', { title: `draft ${i}` });
      await client.ok('chat.rename', { chatId, title: `final ${i}` });
      titles.set(chatId, `final ${i}`);
    }
    const second = await restart(first);
    const again = await h.connect(second);
    expect(new Map(Object.values(again.state!.chats).map((c) => [c.id, c.title]))).toEqual(titles);
  });

  it('still recognises a clientMessageId sent before the restart: ok with the original messageId, nothing added', async () => {
    const first = await h.start();
    const client = await h.connect(first);
    const { chatId: a } = await client.ok('chat.create', { title: 'A' });
    const { messageId: inA } = await client.ok('message.send', userMessage(a, 'once in A', { clientMessageId: 'cm-a' }));
    await settle(first, client);
    const { chatId: b } = await client.ok('chat.create', { title: 'B' });
    const { messageId: inB } = await client.ok('message.send', userMessage(b, 'once in B', { clientMessageId: 'cm-b' }));
    await settle(first, client);

    const second = await restart(first);
    const again = await h.connect(second);
    const watcher = await h.connect(second);
    expect(again.state!.activeChatId).toBe(b);
    // The active chat, and `a`, which is neither active nor loaded: both answer from disk.
    await expectUnchanged(second, [again, watcher], async () => {
      expect(await again.ok('message.send', userMessage(b, 'retried', { clientMessageId: 'cm-b' }))).toEqual({ messageId: inB });
      expect(await again.ok('message.send', userMessage(a, 'retried', { clientMessageId: 'cm-a' }))).toEqual({ messageId: inA });
    });
    expect(again.state!.chats[a]!.messageCount).toBe(2);
    expect(again.state!.chats[b]!.messageCount).toBe(2);
    // A new id is a new message.
    await again.ok('message.send', userMessage(b, 'new', { clientMessageId: 'cm-b2' }));
    await settle(second, again);
    expect(again.state!.chats[b]!.messageCount).toBe(4);
  });
});

describe('damaged files', () => {
  it('moves an unreadable chat file aside (*.corrupt-*) and starts with the rest', async () => {
    const first = await h.start();
    const client = await h.connect(first);
    const { chatId: a } = await client.ok('chat.create', { title: 'A' });
    await client.ok('message.send', userMessage(a, 'keep me'));
    await settle(first, client);
    const { chatId: b } = await client.ok('chat.create', { title: 'B' });
    await settle(first, client);
    const state = structuredClone(client.state!);
    await first.close();

    const chatsDir = path.join(first.dataDir, 'chats');
    const garbage = 'this is not a chat file\n{"v":1,\n';
    await writeFile(path.join(chatsDir, 'chat_broken.jsonl'), garbage);
    const second = await h.start({ dataDir: first.dataDir });
    const again = await h.connect(second);
    expect(again.state!.chats).toEqual(state.chats);
    expect(again.state!.activeChatId).toBe(b);
    const files = await chatFiles(second.dataDir);
    expect(files).not.toContain('chat_broken.jsonl');
    const aside = files.filter((n) => /^chat_broken\.jsonl\.corrupt-\d+/.test(n));
    expect(aside).toHaveLength(1);
    expect(await readFile(path.join(chatsDir, aside[0]!), 'utf8')).toBe(garbage);
    expect(second.logs.some((l) => l.level === 'warn' && l.message.includes('chat_broken.jsonl'))).toBe(true);
    await again.ok('chat.switch', { chatId: a });
    expect(textOf(lastMessage(again.state))).toBe('echo: keep me');
  });

  it('moves aside the active chat when a message line of it is damaged, and starts with no active chat', async () => {
    const first = await h.start();
    const client = await h.connect(first);
    const { chatId: a } = await client.ok('chat.create', { title: 'A' });
    await client.ok('message.send', userMessage(a, 'fine'));
    await settle(first, client);
    const { chatId: b } = await client.ok('chat.create', { title: 'B' });
    await client.ok('message.send', userMessage(b, 'will be damaged'));
    await settle(first, client);
    await first.close();

    // The header still reads, so the chat is listed at start; its body does not.
    await appendFile(path.join(first.dataDir, 'chats', `${b}.jsonl`), '{"id":"msg_x","role":"user","content":[\n');
    const second = await h.start({ dataDir: first.dataDir });
    const again = await h.connect(second);
    expect(Object.keys(again.state!.chats)).toEqual([a]);
    expect(again.state!.activeChatId).toBeNull();
    const files = await chatFiles(second.dataDir);
    expect(files.filter((n) => n.startsWith(`${b}.jsonl.corrupt-`))).toHaveLength(1);
    expect(files).not.toContain(`${b}.jsonl`);
    expect(second.logs.some((l) => l.level === 'warn' && l.message.includes(b))).toBe(true);
    await again.ok('chat.switch', { chatId: a });
    expect(textOf(lastMessage(again.state))).toBe('echo: fine');
  });
});

describe('the connection file', () => {
  it('is written with mode 0600 and exactly url, http, token and pid, and removed by close()', async () => {
    const server = await h.start();
    const file = path.join(server.dataDir, 'server.json');
    expect(server.connectionFile).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const content = JSON.parse(await readFile(file, 'utf8'));
    expect(content).toEqual({ url: `ws://127.0.0.1:${server.port}/ws`, http: `http://127.0.0.1:${server.port}`, token: server.token, pid: process.pid });
    expect(content.url).toBe(server.url);
    await server.close();
    expect(existsSync(file)).toBe(false);
    await server.close();
  });
});

describe('one server per data directory', () => {
  it('refuses to start in-process while a spawned server uses the directory, naming it', async () => {
    const dataDir = await h.tmpDir();
    const running = await spawnServer(dataDir);
    const refused = h.start({ dataDir });
    await expect(refused).rejects.toThrow(
      new RegExp(`^Another agentbar server \\(pid ${running.pid}, ${escapeRegExp(running.httpUrl)}\\) is using ${escapeRegExp(dataDir)}\\. Stop it, or pass another --data-dir\\.`),
    );
    // The running server and its connection file are untouched.
    expect(JSON.parse(await readFile(path.join(dataDir, 'server.json'), 'utf8')).pid).toBe(running.pid);
    expect((await fetch(`${running.httpUrl}/health`)).status).toBe(200);

    await running.kill('SIGTERM');
    const after = await h.start({ dataDir });
    expect(after.port).toBeGreaterThan(0);
  });

  it('makes `agentbar serve` exit 1 with a clear error while an in-process server uses the directory', async () => {
    const server = await h.start();
    const cli = runCli(['serve', '--port', '0', '--data-dir', server.dataDir]);
    expect(await cli.exited).toEqual({ code: 1, signal: null });
    expect(cli.stderr).toContain(`agentbar: cannot start: Another agentbar server (pid ${process.pid}, ${server.httpUrl}) is using ${server.dataDir}. Stop it`);
    expect(cli.stderr).not.toContain(server.token);
    expect(JSON.parse(await readFile(path.join(server.dataDir, 'server.json'), 'utf8')).pid).toBe(process.pid);
    const client = await h.connect(server);
    expect(client.state).not.toBeNull();
  });

  it('starts over a connection file left by a dead server', async () => {
    const dataDir = await h.tmpDir();
    const crashed = await spawnServer(dataDir);
    await crashed.kill('SIGKILL');
    expect(JSON.parse(await readFile(path.join(dataDir, 'server.json'), 'utf8')).pid).toBe(crashed.pid);
    const server = await h.start({ dataDir });
    expect(JSON.parse(await readFile(path.join(dataDir, 'server.json'), 'utf8')).pid).toBe(process.pid);
    expect(server.port).toBeGreaterThan(0);
  });
});
