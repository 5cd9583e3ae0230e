import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits.ts';
import type { AgentDefinition } from '../sdk/agent.ts';
import { defineAgent } from '../sdk/agent.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import {
  Gate,
  activeMessages,
  declaredAgent,
  echoAgent,
  expectErrorFrame,
  expectRejected,
  expectUnchanged,
  gatedAgent,
  lastMessage,
  settle,
  textOf,
  toolCallsOf,
  useHarness,
  waitUntil,
  type TestServer,
} from '../../test-support/test-server.ts';

const h = useHarness();

/** Chat hooks keyed on titles, so each test picks the behaviour by naming its chat. */
function pickyAgent(slowCreate?: Gate): AgentDefinition {
  const titleOf = (state: { chats: Record<string, { title: string }> }, chatId: string | undefined) => (chatId ? state.chats[chatId]?.title : undefined);
  return defineAgent({
    id: 'test/picky',
    description: 'Has opinions about chats',
    async run(ctx) {
      await ctx.reply.text(`picky: ${ctx.text}`);
    },
    async onChatCreate(req) {
      if (req.title === 'forbidden') return { reject: 'Titles like that are not allowed' };
      if (req.title === 'explode') throw new Error('create hook bug');
      if (req.title === 'slow') await slowCreate?.wait();
    },
    onChatSwitch(req) {
      const title = titleOf(req.state, req.chatId);
      if (title === 'locked') return { reject: 'That chat is locked' };
      if (title === 'boom') throw new Error('switch hook bug');
    },
    onChatDelete(req) {
      if (titleOf(req.state, req.chatId) !== 'disposable') return { reject: 'Picky keeps its chats' };
    },
  });
}

/** Asks for approval of a `cli` tool, then reports its result. */
function askerAgent(): AgentDefinition {
  return defineAgent({
    id: 'test/asker',
    description: 'Asks before it acts',
    tools: [{ name: 'confirm', runtime: 'cli', execute: (input) => ({ confirmed: input.what }) }],
    async run(ctx) {
      const result = await ctx.callTool({ name: 'confirm', input: { what: ctx.text }, requiresApproval: true });
      await ctx.reply.text(`result: ${JSON.stringify(result.output)}`);
    },
  });
}

interface Setup {
  server: TestServer;
  client: TestClient;
  other: TestClient;
  gate: Gate;
}

async function setup(options: Parameters<typeof h.start>[0] = {}): Promise<Setup> {
  const gate = new Gate();
  const server = await h.start({
    agents: [echoAgent(), gatedAgent(gate), declaredAgent(), pickyAgent(), askerAgent()],
    ...options,
  });
  const client = await h.connect(server);
  const other = await h.connect(server);
  return { server, client, other, gate };
}

/** Starts a gated run in a new chat and waits until the agent is at its gate. */
async function startGatedRun(s: Setup, title = 'busy chat'): Promise<string> {
  const { chatId } = await s.client.ok('chat.create', { title });
  await s.client.ok('message.send', userMessage(chatId, 'go', { agent: 'test/gated' }));
  await waitUntil(() => s.gate.entered > 0, 'the agent to reach its gate');
  await s.client.waitFor(() => textOf(lastMessage(s.client.state)) === 'working');
  return chatId;
}

describe('frames that are not requests', () => {
  it('answers unparsable JSON with a bad_json error and keeps the connection', async () => {
    const s = await setup();
    await expectErrorFrame(s.server, s.client, '{"type": "chat.create", "id": ', { code: 'bad_json' }, [s.other]);
    expect(s.client.closed).toBeNull();
    await s.client.ok('chat.create', {});
  });

  it('answers a frame that is not an object with a string type with invalid_message at path type', async () => {
    const s = await setup();
    await expectErrorFrame(s.server, s.client, '[1,2,3]', { code: 'invalid_message', path: 'type' }, [s.other]);
    await expectErrorFrame(s.server, s.client, '42', { code: 'invalid_message', path: 'type' }, [s.other]);
  });

  it('answers a request with a usable id but no string type with a result, so the client is not left waiting', async () => {
    const s = await setup();
    s.client.sendJson({ type: 7, id: 'x' });
    const result = await s.client.next('result');
    expect(result).toMatchObject({ id: 'x', ok: false, error: { code: 'invalid_message', path: 'type' } });
  });

  it('answers a request without a usable id with an invalid_message error at path id', async () => {
    const s = await setup();
    await expectErrorFrame(s.server, s.client, JSON.stringify({ type: 'chat.create' }), { code: 'invalid_message', path: 'id' }, [s.other]);
    await expectErrorFrame(s.server, s.client, JSON.stringify({ type: 'chat.create', id: '' }), { code: 'invalid_message', path: 'id' }, [s.other]);
    await expectErrorFrame(s.server, s.client, JSON.stringify({ type: 'chat.create', id: 17 }), { code: 'invalid_message', path: 'id' }, [s.other]);
    const long = 'x'.repeat(LIMITS.maxRequestIdLength + 1);
    await expectErrorFrame(s.server, s.client, JSON.stringify({ type: 'chat.create', id: long }), { code: 'invalid_message', path: 'id' }, [s.other]);
    // At the limit is fine.
    const ok = 'y'.repeat(LIMITS.maxRequestIdLength);
    s.client.sendJson({ type: 'chat.create', id: ok });
    const result = await s.client.next('result');
    expect(result).toMatchObject({ id: ok, ok: true });
  });

  it('answers an unknown request type with unknown_type at path type', async () => {
    const s = await setup();
    await expectRejected(s.server, s.client, 'chat.explode', {}, { code: 'unknown_type', path: 'type' }, [s.other]);
    await expectRejected(s.server, s.client, 'toString', {}, { code: 'unknown_type', path: 'type' }, [s.other]);
    await expectRejected(s.server, s.client, '__proto__', {}, { code: 'unknown_type', path: 'type' }, [s.other]);
  });

  it('closes with 1008 a client that keeps sending bad frames, and the others keep working', async () => {
    const s = await setup({ limits: { maxBadFrames: 3 } });
    const before = s.other.frames.length;
    s.client.sendRaw('nope');
    s.client.sendRaw('{');
    s.client.sendRaw('[]');
    expect((await s.client.waitClosed()).code).toBe(1008);
    expect(s.client.framesOf('error').map((f) => f.code)).toEqual(['bad_json', 'bad_json', 'invalid_message']);
    expect(s.other.frames.length).toBe(before);
    const { chatId } = await s.other.ok('chat.create', {});
    expect(s.other.state!.activeChatId).toBe(chatId);
  });

  it('queues pipelined requests over the in-flight limit and answers every one, never busy', async () => {
    const slow = new Gate();
    const server = await h.start({ agents: [pickyAgent(slow)], limits: { maxInFlight: 2 } });
    const client = await h.connect(server);
    const ids = Array.from({ length: 8 }, (_, i) => `slow-${i}`);
    for (const id of ids) client.sendJson({ type: 'chat.create', id, title: 'slow', agent: 'test/picky' });
    await waitUntil(() => slow.entered > 0, 'the slow hook');
    // Time for the server to read every frame it is willing to read.
    await new Promise((r) => setTimeout(r, 100));
    expect(client.framesOf('result')).toEqual([]);
    slow.open();
    await client.waitFor(() => client.framesOf('result').length === ids.length);
    expect(client.framesOf('result').map((f) => [f.id, f.ok]).sort()).toEqual(ids.map((id) => [id, true]).sort());
    expect(Object.values(client.state!.chats).map((c) => c.title)).toEqual(ids.map(() => 'slow'));
  });
});

describe('chat.create', () => {
  it('creates a chat, makes it active, and the result follows its patch', async () => {
    const s = await setup();
    const result = await s.client.request('chat.create', { title: 'Fix the header' });
    expect(result.ok).toBe(true);
    const chatId = result.value.chatId as string;
    const seen = s.client.stateAt.get(result.id)!;
    expect(seen.activeChatId).toBe(chatId);
    expect(seen.chats[chatId]).toMatchObject({ id: chatId, title: 'Fix the header', messageCount: 0 });
    expect(seen.active).toEqual({ chatId, messages: [] });
    await s.other.waitFor(() => s.other.state!.activeChatId === chatId);
    expect(s.other.state).toEqual(s.server.store.state);
  });

  it('names an untitled chat "New chat" and records the agent asked for', async () => {
    const s = await setup();
    const a = await s.client.ok('chat.create', {});
    expect(s.client.state!.chats[a.chatId]!.title).toBe('New chat');
    expect(s.client.state!.chats[a.chatId]!.agent).toBeUndefined();
    const b = await s.client.ok('chat.create', { agent: 'test/picky', title: 'with picky' });
    expect(s.client.state!.chats[b.chatId]!.agent).toBe('test/picky');
  });

  it('refuses an unknown agent with unknown_agent and "Unknown agent: X"', async () => {
    const s = await setup();
    await expectRejected(s.server, s.client, 'chat.create', { agent: 'nope/x' }, { code: 'unknown_agent', message: 'Unknown agent: nope/x', path: 'agent' }, [s.other]);
  });

  it("refuses an agent that is not implemented with agent_not_implemented and \"Agent 'X' not implemented\"", async () => {
    const s = await setup();
    await expectRejected(s.server, s.client, 'chat.create', { agent: 'test/planner' }, { code: 'agent_not_implemented', message: "Agent 'test/planner' not implemented" }, [s.other]);
  });

  it('refuses a malformed or oversized title', async () => {
    const s = await setup();
    await expectRejected(s.server, s.client, 'chat.create', { title: 12 }, { code: 'invalid_message', path: 'title' }, [s.other]);
    await expectRejected(s.server, s.client, 'chat.create', { title: 'x'.repeat(LIMITS.maxTitleLength + 1) }, { code: 'too_large', path: 'title' }, [s.other]);
    await expectRejected(s.server, s.client, 'chat.create', { agent: '' }, { code: 'invalid_message', path: 'agent' }, [s.other]);
  });

  it('is rejected with the reason the agent gives', async () => {
    const s = await setup();
    await expectRejected(s.server, s.client, 'chat.create', { title: 'forbidden', agent: 'test/picky' }, { code: 'rejected', message: 'Titles like that are not allowed' }, [s.other]);
  });

  it('answers internal when the agent hook throws, and keeps serving', async () => {
    const s = await setup();
    await expectRejected(s.server, s.client, 'chat.create', { title: 'explode', agent: 'test/picky' }, { code: 'internal', message: /create hook bug/ }, [s.other]);
    await s.client.ok('chat.create', { title: 'fine', agent: 'test/picky' });
  });

  it('is allowed by the default policy while a run is in progress', async () => {
    const s = await setup();
    const running = await startGatedRun(s);
    const { chatId } = await s.client.ok('chat.create', { title: 'meanwhile' });
    expect(s.client.state!.activeChatId).toBe(chatId);
    expect(s.client.state!.run).toMatchObject({ chatId: running, agent: 'test/gated' });
    s.gate.open();
    await settle(s.server, s.client, s.other);
  });
});

describe('chat.switch', () => {
  it('switches every client to the chat with its messages', async () => {
    const s = await setup();
    const first = await s.client.ok('chat.create', { title: 'first' });
    await s.client.ok('message.send', userMessage(first.chatId, 'hello'));
    await settle(s.server, s.client, s.other);
    await s.client.ok('chat.create', { title: 'second' });
    const result = await s.other.request('chat.switch', { chatId: first.chatId });
    expect(result.ok).toBe(true);
    const seen = s.other.stateAt.get(result.id)!;
    expect(seen.activeChatId).toBe(first.chatId);
    expect(activeMessages(seen).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(textOf(activeMessages(seen)[1])).toBe('echo: hello');
    await settle(s.server, s.client, s.other);
  });

  it('accepts a switch to the chat that is already active and changes nothing', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    const before = structuredClone(s.server.store.state);
    const rev = s.server.store.rev;
    await s.client.ok('chat.switch', { chatId });
    expect(s.server.store.state).toEqual(before);
    expect(s.server.store.rev).toBe(rev);
  });

  it('answers not_found for a chat that does not exist, whatever the id looks like', async () => {
    const s = await setup();
    await s.client.ok('chat.create', {});
    for (const chatId of ['chat_missing', '../x', 'a/b', '', '..', '__proto__', 'constructor']) {
      await expectRejected(s.server, s.client, 'chat.switch', { chatId }, { code: 'not_found', path: 'chatId' }, [s.other]);
    }
  });

  it('refuses a request without chatId with invalid_message at path chatId', async () => {
    const s = await setup();
    await expectRejected(s.server, s.client, 'chat.switch', {}, { code: 'invalid_message', path: 'chatId' }, [s.other]);
    await expectRejected(s.server, s.client, 'chat.switch', { chatId: 5 }, { code: 'invalid_message', path: 'chatId' }, [s.other]);
  });

  it('is rejected by the default policy while a run is in progress', async () => {
    const s = await setup();
    const { chatId: idle } = await s.client.ok('chat.create', { title: 'idle' });
    await startGatedRun(s);
    await expectRejected(s.server, s.client, 'chat.switch', { chatId: idle }, { code: 'rejected', message: /working; press Stop/ }, [s.other]);
    s.gate.open();
    await settle(s.server, s.client, s.other);
    await s.client.ok('chat.switch', { chatId: idle });
  });

  it("is rejected with the reason of the chat's agent hook", async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', { title: 'locked', agent: 'test/picky' });
    await s.client.ok('chat.create', { title: 'elsewhere' });
    await expectRejected(s.server, s.client, 'chat.switch', { chatId }, { code: 'rejected', message: 'That chat is locked' }, [s.other]);
  });

  it('answers internal when the switch hook throws', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', { title: 'boom', agent: 'test/picky' });
    await s.client.ok('chat.create', { title: 'elsewhere' });
    await expectRejected(s.server, s.client, 'chat.switch', { chatId }, { code: 'internal', message: /switch hook bug/ }, [s.other]);
  });
});

describe('chat.delete', () => {
  it('deletes a chat that is not active and leaves the active one alone', async () => {
    const s = await setup();
    const gone = await s.client.ok('chat.create', { title: 'gone' });
    const kept = await s.client.ok('chat.create', { title: 'kept' });
    const result = await s.client.request('chat.delete', { chatId: gone.chatId });
    expect(result.ok).toBe(true);
    const seen = s.client.stateAt.get(result.id)!;
    expect(Object.keys(seen.chats)).toEqual([kept.chatId]);
    expect(seen.activeChatId).toBe(kept.chatId);
    await settle(s.server, s.client, s.other);
  });

  it('leaves activeChatId and active null after deleting the active chat', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    const result = await s.client.request('chat.delete', { chatId });
    expect(result.ok).toBe(true);
    const seen = s.client.stateAt.get(result.id)!;
    expect(seen.activeChatId).toBeNull();
    expect(seen.active).toBeNull();
    expect(seen.chats).toEqual({});
    await settle(s.server, s.client, s.other);
    await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'hi'), { code: 'not_found', path: 'chatId' }, [s.other]);
  });

  it('answers not_found for a chat that does not exist, twice deleted included', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    await s.client.ok('chat.delete', { chatId });
    for (const id of [chatId, '../x', 'a/b', '']) {
      await expectRejected(s.server, s.client, 'chat.delete', { chatId: id }, { code: 'not_found', path: 'chatId' }, [s.other]);
    }
  });

  it('is rejected by the default policy while a run is in progress, for any chat', async () => {
    const s = await setup();
    const { chatId: idle } = await s.client.ok('chat.create', { title: 'idle' });
    const running = await startGatedRun(s);
    await expectRejected(s.server, s.client, 'chat.delete', { chatId: running }, { code: 'rejected', message: /press Stop before you delete a chat/ }, [s.other]);
    await expectRejected(s.server, s.client, 'chat.delete', { chatId: idle }, { code: 'rejected' }, [s.other]);
    s.gate.open();
    await settle(s.server, s.client, s.other);
    await s.client.ok('chat.delete', { chatId: running });
  });

  it("is rejected with the reason of the chat's agent hook", async () => {
    const s = await setup();
    const keep = await s.client.ok('chat.create', { title: 'precious', agent: 'test/picky' });
    await expectRejected(s.server, s.client, 'chat.delete', { chatId: keep.chatId }, { code: 'rejected', message: 'Picky keeps its chats' }, [s.other]);
    const drop = await s.client.ok('chat.create', { title: 'disposable', agent: 'test/picky' });
    await s.client.ok('chat.delete', { chatId: drop.chatId });
    expect(Object.keys(s.client.state!.chats)).toEqual([keep.chatId]);
  });
});

describe('chat.rename', () => {
  it('renames a chat for every client, trimmed, and moves its updatedAt', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', { title: 'old' });
    const before = s.client.state!.chats[chatId]!;
    const result = await s.client.request('chat.rename', { chatId, title: '  New name  ' });
    expect(result.ok).toBe(true);
    const after = s.client.stateAt.get(result.id)!.chats[chatId]!;
    expect(after.title).toBe('New name');
    expect(after.updatedAt).toBeGreaterThanOrEqual(before.updatedAt);
    await settle(s.server, s.client, s.other);
  });

  it('renames a chat that is not active', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', { title: 'old' });
    await s.client.ok('chat.create', { title: 'active' });
    await s.client.ok('chat.rename', { chatId, title: 'renamed' });
    expect(s.client.state!.chats[chatId]!.title).toBe('renamed');
  });

  it('refuses an empty, blank, missing or oversized title', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', { title: 'old' });
    await expectRejected(s.server, s.client, 'chat.rename', { chatId, title: '' }, { code: 'invalid_message', path: 'title' }, [s.other]);
    await expectRejected(s.server, s.client, 'chat.rename', { chatId, title: '    ' }, { code: 'invalid_message', path: 'title' }, [s.other]);
    await expectRejected(s.server, s.client, 'chat.rename', { chatId }, { code: 'invalid_message', path: 'title' }, [s.other]);
    await expectRejected(s.server, s.client, 'chat.rename', { chatId, title: 'x'.repeat(LIMITS.maxTitleLength + 1) }, { code: 'too_large', path: 'title' }, [s.other]);
  });

  it('answers not_found for a chat that does not exist', async () => {
    const s = await setup();
    await s.client.ok('chat.create', {});
    for (const chatId of ['chat_missing', '../x', 'a/b', '']) {
      await expectRejected(s.server, s.client, 'chat.rename', { chatId, title: 'x' }, { code: 'not_found', path: 'chatId' }, [s.other]);
    }
  });
});

describe('message.send', () => {
  it('adds the user message, runs the agent, and the result follows the patch with the message and the run', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    const metadata = { source: 'toolbar', selectedElements: [] };
    const result = await s.client.request('message.send', { chatId, content: [{ type: 'text', text: 'hi there' }], metadata });
    expect(result.ok).toBe(true);
    const messageId = result.value.messageId as string;
    const seen = s.client.stateAt.get(result.id)!;
    expect(activeMessages(seen)[0]).toMatchObject({ id: messageId, role: 'user', content: [{ type: 'text', text: 'hi there' }], metadata, agent: 'test/echo' });
    expect(seen.chats[chatId]!.messageCount).toBeGreaterThanOrEqual(1);
    expect(seen.run === null || seen.run.chatId === chatId).toBe(true);
    await settle(s.server, s.client, s.other);
    const messages = activeMessages(s.client.state);
    expect(messages.map((m) => [m.role, m.role === 'assistant' ? m.status : null])).toEqual([
      ['user', null],
      ['assistant', 'done'],
    ]);
    expect(textOf(messages[1])).toBe('echo: hi there');
    expect(s.client.state!.chats[chatId]!.messageCount).toBe(2);
    expect(s.client.state!.chats[chatId]!.agent).toBe('test/echo');
  });

  it('accepts image and file parts', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    const content = [
      { type: 'text', text: 'look' },
      { type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'file', data: 'data:text/plain;base64,aGk=', filename: 'a.txt', mimeType: 'text/plain' },
    ];
    const { messageId } = await s.client.ok('message.send', userMessage(chatId, '', { content }));
    await settle(s.server, s.client, s.other);
    expect(activeMessages(s.client.state).find((m) => m.id === messageId)!.content).toEqual(content);
  });

  it('refuses malformed content with invalid_message naming the path', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    const send = (extra: Record<string, unknown>, path: string) =>
      expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'x', extra), { code: 'invalid_message', path }, [s.other]);
    await send({ content: [{ type: 'text', text: 42 }] }, 'content.0.text');
    await send({ content: [{ type: 'text', text: 'ok' }, { type: 'text' }] }, 'content.1.text');
    await send({ content: [] }, 'content');
    await send({ content: 'hello' }, 'content');
    await send({ content: [{ type: 'video', url: 'x' }] }, 'content.0.type');
    await send({ content: [{ type: 'image', image: 'https://evil.example/x.png' }] }, 'content.0.image');
    await send({ metadata: undefined }, 'metadata');
    await send({ metadata: { source: 'robot', selectedElements: [] } }, 'metadata.source');
    await send({ metadata: { source: 'toolbar' } }, 'metadata.selectedElements');
    await send({ clientMessageId: '' }, 'clientMessageId');
    await expectRejected(s.server, s.client, 'message.send', { content: [{ type: 'text', text: 'x' }], metadata: { source: 'other', selectedElements: [] } }, { code: 'invalid_message', path: 'chatId' }, [s.other]);
  });

  it('refuses oversized input with too_large naming the path', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    const element = { tagName: 'div', xpath: '/html/body/div', attributes: {}, textContent: '', boundingClientRect: { x: 0, y: 0, width: 1, height: 1 } };
    const send = (extra: Record<string, unknown>, path: string) =>
      expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'x', extra), { code: 'too_large', path }, [s.other]);
    await send({ content: [{ type: 'text', text: 'x'.repeat(LIMITS.maxTextLength + 1) }] }, 'content.0.text');
    await send({ content: Array.from({ length: LIMITS.maxParts + 1 }, () => ({ type: 'text', text: 'x' })) }, 'content');
    await send({ metadata: { source: 'toolbar', selectedElements: Array.from({ length: LIMITS.maxSelectedElements + 1 }, () => element) } }, 'metadata.selectedElements');
    await send({ metadata: { source: 'toolbar', selectedElements: [{ ...element, textContent: 'x'.repeat(LIMITS.maxElementTextLength + 1) }] } }, 'metadata.selectedElements.0.textContent');
    await send({ clientMessageId: 'c'.repeat(LIMITS.maxClientMessageIdLength + 1) }, 'clientMessageId');
    // At the limits it is accepted.
    await s.client.ok('message.send', userMessage(chatId, 'x'.repeat(LIMITS.maxTextLength), { metadata: { source: 'toolbar', selectedElements: Array.from({ length: LIMITS.maxSelectedElements }, () => element) } }));
    await settle(s.server, s.client, s.other);
  });

  it('answers not_found for a chat that does not exist', async () => {
    const s = await setup();
    await s.client.ok('chat.create', {});
    for (const chatId of ['chat_missing', '../x', 'a/b', '']) {
      await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'hi'), { code: 'not_found', path: 'chatId' }, [s.other]);
    }
  });

  it('answers not_active for a chat that exists but is not the active one', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', { title: 'background' });
    await s.client.ok('chat.create', { title: 'foreground' });
    await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'hi'), { code: 'not_active', path: 'chatId' }, [s.other]);
  });

  it('answers unknown_agent with "Unknown agent: X"', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'hi', { agent: 'nope/x' }), { code: 'unknown_agent', message: 'Unknown agent: nope/x' }, [s.other]);
  });

  it("answers agent_not_implemented with \"Agent 'X' not implemented\"", async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'hi', { agent: 'test/planner' }), { code: 'agent_not_implemented', message: "Agent 'test/planner' not implemented" }, [s.other]);
  });

  it('answers busy while a run is in progress', async () => {
    const s = await setup();
    const chatId = await startGatedRun(s);
    await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'again'), { code: 'busy' }, [s.other]);
    s.gate.open();
    await settle(s.server, s.client, s.other);
    await s.client.ok('message.send', userMessage(chatId, 'now it works', { agent: 'test/echo' }));
    await settle(s.server, s.client, s.other);
    expect(textOf(lastMessage(s.client.state))).toBe('echo: now it works');
  });

  it('goes to the chat\'s last agent by default, else to the first implemented one', async () => {
    const s = await setup();
    const { chatId } = await s.client.ok('chat.create', {});
    await s.client.ok('message.send', userMessage(chatId, 'one'));
    await settle(s.server, s.client, s.other);
    expect(lastMessage(s.client.state)).toMatchObject({ role: 'assistant', agent: 'test/echo' });
    await s.client.ok('message.send', userMessage(chatId, 'two', { agent: 'test/picky' }));
    await settle(s.server, s.client, s.other);
    await s.client.ok('message.send', userMessage(chatId, 'three'));
    await settle(s.server, s.client, s.other);
    expect(lastMessage(s.client.state)).toMatchObject({ role: 'assistant', agent: 'test/picky' });
    expect(textOf(lastMessage(s.client.state))).toBe('picky: three');
    expect(s.client.state!.chats[chatId]!.agent).toBe('test/picky');
  });

  describe('clientMessageId', () => {
    it('answers a repeated clientMessageId with the original messageId and adds nothing', async () => {
      const s = await setup();
      const { chatId } = await s.client.ok('chat.create', {});
      const first = await s.client.ok('message.send', userMessage(chatId, 'once', { clientMessageId: 'cm-1' }));
      await settle(s.server, s.client, s.other);
      const again = await expectUnchangedOk(s, () => s.other.request('message.send', userMessage(chatId, 'once', { clientMessageId: 'cm-1' })));
      expect(again.value).toEqual({ messageId: first.messageId });
      expect(activeMessages(s.client.state).filter((m) => m.role === 'user')).toHaveLength(1);
    });

    it('treats the same clientMessageId in another chat as a new message', async () => {
      const s = await setup();
      const a = await s.client.ok('chat.create', {});
      const first = await s.client.ok('message.send', userMessage(a.chatId, 'hi', { clientMessageId: 'cm-1' }));
      await settle(s.server, s.client, s.other);
      const b = await s.client.ok('chat.create', {});
      const second = await s.client.ok('message.send', userMessage(b.chatId, 'hi', { clientMessageId: 'cm-1' }));
      expect(second.messageId).not.toBe(first.messageId);
      await settle(s.server, s.client, s.other);
      expect(activeMessages(s.client.state)).toHaveLength(2);
    });
  });

  describe('order of checks', () => {
    it('checks the schema before the chat', async () => {
      const s = await setup();
      await expectRejected(s.server, s.client, 'message.send', userMessage('chat_missing', 'x', { content: [] }), { code: 'invalid_message', path: 'content' }, [s.other]);
      await expectRejected(s.server, s.client, 'message.send', userMessage('chat_missing', 'x'.repeat(LIMITS.maxTextLength + 1)), { code: 'too_large' }, [s.other]);
    });

    it('answers a known clientMessageId before checking that the chat is active', async () => {
      const s = await setup();
      const a = await s.client.ok('chat.create', {});
      const first = await s.client.ok('message.send', userMessage(a.chatId, 'hi', { clientMessageId: 'cm-x' }));
      await settle(s.server, s.client, s.other);
      await s.client.ok('chat.create', {});
      const again = await expectUnchangedOk(s, () => s.client.request('message.send', userMessage(a.chatId, 'hi', { clientMessageId: 'cm-x' })));
      expect(again.value).toEqual({ messageId: first.messageId });
      // Without the known id the same send is not_active.
      await expectRejected(s.server, s.client, 'message.send', userMessage(a.chatId, 'hi', { clientMessageId: 'cm-y' }), { code: 'not_active' }, [s.other]);
    });

    it('answers a known clientMessageId before busy, even to an unknown agent', async () => {
      const s = await setup();
      const { chatId } = await s.client.ok('chat.create', {});
      const { messageId } = await s.client.ok('message.send', userMessage(chatId, 'go', { agent: 'test/gated', clientMessageId: 'cm-run' }));
      await waitUntil(() => s.gate.entered > 0, 'the gate');
      await s.client.waitFor(() => textOf(lastMessage(s.client.state)) === 'working');
      const again = await expectUnchangedOk(s, () => s.client.request('message.send', userMessage(chatId, 'go', { agent: 'nope/x', clientMessageId: 'cm-run' })));
      expect(again.value).toEqual({ messageId });
      s.gate.open();
      await settle(s.server, s.client, s.other);
    });

    it('checks that the chat is active before the agent', async () => {
      const s = await setup();
      const { chatId } = await s.client.ok('chat.create', {});
      await s.client.ok('chat.create', {});
      await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'x', { agent: 'nope/x' }), { code: 'not_active' }, [s.other]);
    });

    it('checks the agent before busy', async () => {
      const s = await setup();
      const chatId = await startGatedRun(s);
      await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'x', { agent: 'nope/x' }), { code: 'unknown_agent' }, [s.other]);
      await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'x', { agent: 'test/planner' }), { code: 'agent_not_implemented' }, [s.other]);
      await expectRejected(s.server, s.client, 'message.send', userMessage(chatId, 'x', { agent: 'test/echo' }), { code: 'busy' }, [s.other]);
      s.gate.open();
      await settle(s.server, s.client, s.other);
    });
  });
});

/** An ok result that must change nothing (an idempotent repeat). */
async function expectUnchangedOk(s: Setup, act: () => Promise<Record<string, any>>): Promise<Record<string, any>> {
  const result = await expectUnchanged(s.server, [s.client, s.other], act);
  expect(result.ok).toBe(true);
  return result;
}

describe('tool.approve', () => {
  async function startAsking(s: Setup): Promise<{ chatId: string; toolCallId: string }> {
    const { chatId } = await s.client.ok('chat.create', {});
    await s.client.ok('message.send', userMessage(chatId, 'deploy', { agent: 'test/asker' }));
    await s.client.waitFor(() => toolCallsOf(s.client.state).some((c) => c.state === 'awaiting-approval'));
    return { chatId, toolCallId: toolCallsOf(s.client.state)[0]!.toolCallId };
  }

  it('records the approval as a user message and runs the call; the result follows that patch', async () => {
    const s = await setup();
    const { chatId, toolCallId } = await startAsking(s);
    const result = await s.other.request('tool.approve', { chatId, toolCallId, approved: true });
    expect(result.ok).toBe(true);
    const seen = s.other.stateAt.get(result.id)!;
    expect(activeMessages(seen).some((m) => m.role === 'user' && m.content.some((p) => p.type === 'tool-approval-response' && p.toolCallId === toolCallId && p.approved))).toBe(true);
    expect(toolCallsOf(seen)[0]!.state).not.toBe('awaiting-approval');
    await settle(s.server, s.client, s.other);
    expect(toolCallsOf(s.client.state)[0]!.state).toBe('done');
    expect(textOf(lastMessage(s.client.state))).toBe('result: {"confirmed":"deploy"}');
  });

  it('lets the first answer win: a second answer gets already_resolved', async () => {
    const s = await setup();
    const { chatId, toolCallId } = await startAsking(s);
    s.client.sendJson({ type: 'tool.approve', id: 'first', chatId, toolCallId, approved: true });
    s.other.sendJson({ type: 'tool.approve', id: 'second', chatId, toolCallId, approved: false });
    await s.client.waitFor(() => s.client.frames.some((f) => f.id === 'first'));
    await s.other.waitFor(() => s.other.frames.some((f) => f.id === 'second'));
    const results = [s.client.frames.find((f) => f.id === 'first')!, s.other.frames.find((f) => f.id === 'second')!];
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => r.error.code)).toEqual(['already_resolved']);
    await settle(s.server, s.client, s.other);
    const approvals = activeMessages(s.client.state).filter((m) => m.role === 'user' && m.content[0]?.type === 'tool-approval-response');
    expect(approvals).toHaveLength(1);
    await expectRejected(s.server, s.client, 'tool.approve', { chatId, toolCallId, approved: true }, { code: 'already_resolved', path: 'toolCallId' }, [s.other]);
  });

  it('answers not_found for an unknown call or chat', async () => {
    const s = await setup();
    const { chatId } = await startAsking(s);
    await expectRejected(s.server, s.client, 'tool.approve', { chatId, toolCallId: 'call_missing', approved: true }, { code: 'not_found', path: 'toolCallId' }, [s.other]);
    await expectRejected(s.server, s.client, 'tool.approve', { chatId, toolCallId: '../x', approved: true }, { code: 'not_found', path: 'toolCallId' }, [s.other]);
    await expectRejected(s.server, s.client, 'tool.approve', { chatId: 'chat_missing', toolCallId: 'call_x', approved: true }, { code: 'not_found', path: 'chatId' }, [s.other]);
  });

  it('refuses a malformed or oversized approval', async () => {
    const s = await setup();
    const { chatId, toolCallId } = await startAsking(s);
    await expectRejected(s.server, s.client, 'tool.approve', { chatId, toolCallId }, { code: 'invalid_message', path: 'approved' }, [s.other]);
    await expectRejected(s.server, s.client, 'tool.approve', { chatId, toolCallId, approved: 'yes' }, { code: 'invalid_message', path: 'approved' }, [s.other]);
    await expectRejected(s.server, s.client, 'tool.approve', { chatId, approved: true }, { code: 'invalid_message', path: 'toolCallId' }, [s.other]);
    await expectRejected(s.server, s.client, 'tool.approve', { chatId, toolCallId, approved: false, reason: 'r'.repeat(LIMITS.maxReasonLength + 1) }, { code: 'too_large', path: 'reason' }, [s.other]);
    expect(toolCallsOf(s.client.state)[0]!.state).toBe('awaiting-approval');
  });
});

describe('run.stop', () => {
  it('stops the run: value {stopped:true}, the message ends stopped, run is null, and the result follows the patch', async () => {
    const s = await setup();
    const chatId = await startGatedRun(s);
    const result = await s.other.request('run.stop', { chatId });
    expect(result).toMatchObject({ ok: true, value: { stopped: true } });
    const seen = s.other.stateAt.get(result.id)!;
    expect(seen.run).toBeNull();
    expect(lastMessage(seen)).toMatchObject({ role: 'assistant', status: 'stopped' });
    await settle(s.server, s.client, s.other);
    expect(textOf(lastMessage(s.client.state))).toBe('working');
  });

  it('answers {stopped:false} when nothing runs, or another chat runs', async () => {
    const s = await setup();
    const { chatId: idle } = await s.client.ok('chat.create', {});
    await expect(s.client.ok('run.stop', { chatId: idle })).resolves.toEqual({ stopped: false });
    const running = await startGatedRun(s);
    await expect(s.client.ok('run.stop', { chatId: idle })).resolves.toEqual({ stopped: false });
    expect(s.server.store.state.run?.chatId).toBe(running);
    s.gate.open();
    await settle(s.server, s.client, s.other);
  });

  it('answers not_found for an unknown chat and invalid_message without chatId', async () => {
    const s = await setup();
    await startGatedRun(s);
    await expectRejected(s.server, s.client, 'run.stop', { chatId: 'chat_missing' }, { code: 'not_found', path: 'chatId' }, [s.other]);
    await expectRejected(s.server, s.client, 'run.stop', {}, { code: 'invalid_message', path: 'chatId' }, [s.other]);
    expect(s.server.store.state.run).not.toBeNull();
    s.gate.open();
    await settle(s.server, s.client, s.other);
  });
});
