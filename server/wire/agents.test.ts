import http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, UserMessage } from '../../shared/schemas.ts';
import { ToolDeniedError, defineAgent, type AgentDefinition } from '../sdk/agent.ts';
import { MAX_REPLY_CHARS } from '../sync/runs.ts';
import { userMessage } from '../../test-support/test-client.ts';
import {
  Gate,
  activeMessages,
  declaredAgent,
  echoAgent,
  expectUnchanged,
  lastMessage,
  settle,
  textOf,
  toolCallsOf,
  useHarness,
  waitUntil,
  type TestServer,
} from '../../test-support/test-server.ts';

const h = useHarness();

function assistants(messages: Message[]): AssistantMessage[] {
  return messages.filter((m): m is AssistantMessage => m.role === 'assistant');
}

const thrower = defineAgent({
  id: 'test/thrower',
  description: 'Writes, then throws',
  async run(ctx) {
    await ctx.reply.text('partial ');
    throw new Error('agent exploded');
  },
});

const early = defineAgent({
  id: 'test/early',
  description: 'Throws before writing anything',
  run() {
    throw new Error('failed at once');
  },
});

const stringThrower = defineAgent({
  id: 'test/string',
  description: 'Throws a string',
  async run() {
    throw 'a plain string';
  },
});

const flood = defineAgent({
  id: 'test/flood',
  description: 'Streams more than one reply may hold',
  async run(ctx) {
    await ctx.reply.text('start ');
    await ctx.reply.text('x'.repeat(MAX_REPLY_CHARS));
  },
});

describe('an agent that fails', () => {
  it('stops a reply that grows past the limit, before the text reaches any client', async () => {
    const server = await h.start({ agents: [flood] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await settle(server, client);
    const failed = lastMessage(client.state) as AssistantMessage;
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('the agent was stopped') });
    expect(textOf(failed)).toBe('start ');
  });

  it('ends its message failed with the error text, ends the run, and the server keeps serving', async () => {
    const server = await h.start({ agents: [echoAgent(), thrower] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go', { agent: 'test/thrower' }));
    await settle(server, client);
    const failed = lastMessage(client.state) as AssistantMessage;
    expect(failed).toMatchObject({ role: 'assistant', agent: 'test/thrower', status: 'failed', error: 'agent exploded' });
    expect(textOf(failed)).toBe('partial ');
    expect(client.state!.run).toBeNull();

    await client.ok('message.send', userMessage(chatId, 'still there?', { agent: 'test/echo' }));
    await settle(server, client);
    expect(lastMessage(client.state)).toMatchObject({ role: 'assistant', agent: 'test/echo', status: 'done' });
    const late = await h.connect(server);
    expect(late.state).toEqual(server.store.state);
  });

  it('still shows a failed assistant message when it throws before writing anything', async () => {
    const server = await h.start({ agents: [early, echoAgent()] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await settle(server, client);
    expect(activeMessages(client.state).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(lastMessage(client.state)).toMatchObject({ role: 'assistant', agent: 'test/early', status: 'failed', error: 'failed at once', content: [] });
    expect(client.state!.run).toBeNull();
  });

  it('reports a thrown non-Error by its text', async () => {
    const server = await h.start({ agents: [stringThrower] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await settle(server, client);
    expect(lastMessage(client.state)).toMatchObject({ status: 'failed', error: 'a plain string' });
  });
});

describe('stopping a run', () => {
  function parallelAgent(gate: Gate, seen: { aborted: boolean }): AgentDefinition {
    return defineAgent({
      id: 'test/parallel',
      description: 'Asks for a tool and keeps writing meanwhile',
      tools: [{ name: 'act', runtime: 'cli', execute: () => 'acted' }],
      async run(ctx) {
        const pending = ctx.callTool({ name: 'act', requiresApproval: true });
        pending.catch(() => {});
        await ctx.reply.text('waiting for you');
        try {
          await gate.wait(ctx.signal);
        } finally {
          seen.aborted = ctx.signal.aborted;
        }
      },
    });
  }

  it('ends the message stopped and its open calls interrupted, with value {stopped:true}', async () => {
    const gate = new Gate();
    const seen = { aborted: false };
    const server = await h.start({ agents: [parallelAgent(gate, seen)] });
    const client = await h.connect(server);
    const other = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await waitUntil(() => gate.entered > 0, 'the agent to wait');
    await client.waitFor(() => textOf(lastMessage(client.state)) === 'waiting for you');
    expect(toolCallsOf(client.state)[0]!.state).toBe('awaiting-approval');

    const result = await other.request('run.stop', { chatId });
    expect(result).toMatchObject({ ok: true, value: { stopped: true } });
    const seenAtResult = other.stateAt.get(result.id)!;
    expect(seenAtResult.run).toBeNull();
    expect(lastMessage(seenAtResult)).toMatchObject({ role: 'assistant', status: 'stopped' });
    expect(toolCallsOf(seenAtResult)[0]!.state).toBe('interrupted');
    await settle(server, client, other);
    expect(seen.aborted).toBe(true);
    // The interrupted call can no longer be answered.
    const r = await client.request('tool.approve', { chatId, toolCallId: toolCallsOf(client.state)[0]!.toolCallId, approved: true });
    expect(r.error.code).toBe('already_resolved');
  });

  it('answers {stopped:false} and changes nothing when nothing runs', async () => {
    const server = await h.start();
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    const result = await expectUnchanged(server, [client], () => client.request('run.stop', { chatId }));
    expect(result).toMatchObject({ ok: true, value: { stopped: false } });
  });

  it('keeps the run going when the client that started it leaves', async () => {
    const gate = new Gate();
    const seen = { aborted: false };
    const server = await h.start({ agents: [parallelAgent(gate, seen)] });
    const starter = await h.connect(server);
    const watcher = await h.connect(server);
    const { chatId } = await starter.ok('chat.create', {});
    await starter.ok('message.send', userMessage(chatId, 'go'));
    await waitUntil(() => gate.entered > 0, 'the agent to wait');
    await starter.close();
    await watcher.waitFor(() => textOf(lastMessage(watcher.state)) === 'waiting for you');
    expect(server.store.state.run).not.toBeNull();
    await watcher.ok('tool.approve', { chatId, toolCallId: toolCallsOf(watcher.state)[0]!.toolCallId, approved: true });
    gate.open();
    await settle(server, watcher);
    expect(seen.aborted).toBe(false);
    expect(toolCallsOf(watcher.state)[0]!.state).toBe('done');
    expect(assistants(activeMessages(watcher.state)).map((m) => [m.status, textOf(m)])).toEqual([
      ['done', ''],
      ['done', 'waiting for you'],
    ]);
  });
});

describe('several agents in one chat', () => {
  it('names its agent on each assistant message, and the second agent sees the first agent\'s turns', async () => {
    const seenBySecond: { messages: Message[]; message: UserMessage | null } = { messages: [], message: null };
    const first = defineAgent({
      id: 'test/first',
      description: 'Speaks first',
      async run(ctx) {
        await ctx.reply.text('first says hi');
      },
    });
    const second = defineAgent({
      id: 'test/second',
      description: 'Reads the history',
      async run(ctx) {
        seenBySecond.messages = structuredClone([...ctx.messages]) as Message[];
        seenBySecond.message = ctx.message;
        await ctx.reply.text(`I saw ${ctx.messages.length} messages`);
      },
    });
    const server = await h.start({ agents: [first, second] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'hello first'));
    await settle(server, client);
    const { messageId } = await client.ok('message.send', userMessage(chatId, 'hello second', { agent: 'test/second' }));
    await settle(server, client);

    const messages = activeMessages(client.state);
    expect(messages.map((m) => [m.role, m.role === 'assistant' || m.role === 'user' ? m.agent : null])).toEqual([
      ['user', 'test/first'],
      ['assistant', 'test/first'],
      ['user', 'test/second'],
      ['assistant', 'test/second'],
    ]);
    // The second agent got the whole chat so far, the first agent's reply included, ending with its message.
    expect(seenBySecond.messages).toEqual(messages.slice(0, 3));
    expect(seenBySecond.message!.id).toBe(messageId);
    expect(textOf(messages[3])).toBe('I saw 3 messages');
    expect(client.state!.chats[chatId]!.agent).toBe('test/second');
  });
});

describe('approvals', () => {
  function approverAgent(counter: { runs: number; executed: number }): AgentDefinition {
    return defineAgent({
      id: 'test/approver',
      description: 'Asks before it acts',
      tools: [{ name: 'act', runtime: 'cli', execute: (input) => (counter.executed++, { did: input.what }) }],
      async run(ctx) {
        counter.runs++;
        try {
          const result = await ctx.callTool({ name: 'act', input: { what: 'deploy' }, requiresApproval: true });
          await ctx.reply.text(`done: ${JSON.stringify(result.output)}`);
        } catch (error) {
          if (!(error instanceof ToolDeniedError)) throw error;
          await ctx.reply.text(`denied: ${error.reason ?? 'no reason'}`);
        }
      },
    });
  }

  async function ask(server: TestServer) {
    const client = await h.connect(server, { kind: 'toolbar' });
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'please deploy'));
    await client.waitFor(() => toolCallsOf(client.state)[0]?.state === 'awaiting-approval');
    const run = client.state!.run!;
    return { client, chatId, run, toolCallId: toolCallsOf(client.state)[0]!.toolCallId };
  }

  it('records an approval as a user message that does not start a run; the history reads like model messages', async () => {
    const counter = { runs: 0, executed: 0 };
    const server = await h.start({ agents: [approverAgent(counter)] });
    const { client, chatId, run, toolCallId } = await ask(server);
    const result = await client.request('tool.approve', { chatId, toolCallId, approved: true });
    expect(result.ok).toBe(true);
    // The same run goes on (or has already ended, since the ok waits for the disk): no new run began.
    const runAtResult = client.stateAt.get(result.id)!.run;
    if (runAtResult) expect(runAtResult).toMatchObject({ chatId, agent: 'test/approver', startedAt: run.startedAt });
    await settle(server, client);
    expect(counter).toEqual({ runs: 1, executed: 1 });
    const messages = activeMessages(client.state);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'tool', 'assistant']);
    expect(messages[2]).toMatchObject({
      role: 'user',
      content: [{ type: 'tool-approval-response', toolCallId, approved: true }],
      metadata: { source: 'toolbar', selectedElements: [] },
    });
    expect((messages[2] as UserMessage).agent).toBeUndefined();
    expect(toolCallsOf(client.state)[0]).toMatchObject({ requiresApproval: true, state: 'done' });
    expect(textOf(messages[4])).toBe('done: {"did":"deploy"}');
    expect(assistants(messages).map((m) => m.status)).toEqual(['done', 'done']);
  });

  it('denies the call on rejection: the call is denied, the approval holds the reason, the agent gets ToolDeniedError', async () => {
    const counter = { runs: 0, executed: 0 };
    const server = await h.start({ agents: [approverAgent(counter)] });
    const { client, chatId, toolCallId } = await ask(server);
    const result = await client.request('tool.approve', { chatId, toolCallId, approved: false, reason: 'not on a Friday' });
    expect(result.ok).toBe(true);
    expect(toolCallsOf(client.stateAt.get(result.id)!)[0]!.state).toBe('denied');
    await settle(server, client);
    expect(counter).toEqual({ runs: 1, executed: 0 });
    const messages = activeMessages(client.state);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messages[2]!.content).toEqual([{ type: 'tool-approval-response', toolCallId, approved: false, reason: 'not on a Friday' }]);
    expect(toolCallsOf(client.state)[0]!.state).toBe('denied');
    expect(textOf(messages[3])).toBe('denied: not on a Friday');
  });

  it('ends the run cleanly when the agent does not catch the denial', async () => {
    const careless = defineAgent({
      id: 'test/careless',
      description: 'Does not expect a no',
      tools: [{ name: 'act', runtime: 'cli', execute: () => 'acted' }],
      async run(ctx) {
        await ctx.callTool({ name: 'act', requiresApproval: true });
        await ctx.reply.text('never written');
      },
    });
    const server = await h.start({ agents: [careless] });
    const { client, chatId, toolCallId } = await ask(server);
    await client.ok('tool.approve', { chatId, toolCallId, approved: false });
    await settle(server, client);
    const messages = activeMessages(client.state);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(assistants(messages).map((m) => m.status)).toEqual(['done']);
    expect(messages[2]!.content).toEqual([{ type: 'tool-approval-response', toolCallId, approved: false }]);
    expect(client.state!.run).toBeNull();
  });
});

describe('agent state', () => {
  it('shows an active skill set by the agent to every client', async () => {
    const skilled = defineAgent({
      id: 'test/skilled',
      description: 'Learns skills',
      async run(ctx) {
        ctx.state.setActiveSkill(ctx.text);
        await ctx.reply.text('ok');
      },
    });
    const server = await h.start({ agents: [skilled] });
    const client = await h.connect(server);
    const other = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'review'));
    await settle(server, client, other);
    expect(other.state!.agents[0]!.activeSkill).toBe('review');
  });
});

describe('agent commands', () => {
  it('shows the commands an agent sets to every client, sends only a change, and clears them', async () => {
    const commanding = defineAgent({
      id: 'test/commanding',
      description: 'Takes /commands',
      async run(ctx) {
        if (ctx.text === 'none') ctx.state.setCommands([]);
        else if (ctx.text === 'bad') (ctx.state.setCommands as (c: unknown) => void)('review');
        else ctx.state.setCommands([{ name: '/review', description: 'Review the diff', hint: 'branch' }, { name: 'not one word', description: '' }]);
        await ctx.reply.text('ok');
      },
    });
    const server = await h.start({ agents: [commanding] });
    const client = await h.connect(server);
    const other = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'set'));
    await settle(server, client, other);
    expect(other.state!.agents[0]!.commands).toEqual([{ name: 'review', description: 'Review the diff', hint: 'branch' }]);
    const framesBefore = other.frames.length;
    await client.ok('message.send', userMessage(chatId, 'set again'));
    await settle(server, client, other);
    // The same list again changes nothing in the state.
    expect(other.frames.slice(framesBefore).some((f) => JSON.stringify(f).includes('/commands'))).toBe(false);
    // An agent's bad call fails its own run, not the server, and the list stays.
    await client.ok('message.send', userMessage(chatId, 'bad'));
    await settle(server, client, other);
    expect(lastMessage(other.state)).toMatchObject({ status: 'failed', error: expect.stringContaining('setCommands takes an array') });
    expect(other.state!.agents[0]!.commands).toHaveLength(1);
    await client.ok('message.send', userMessage(chatId, 'none'));
    await settle(server, client, other);
    expect(other.state!.agents[0]).not.toHaveProperty('commands');
  });
});

describe('agent commands declared with the agent', () => {
  it('shows them from the start; what the agent sets at run time replaces them, across a restart', async () => {
    const declared = () =>
      defineAgent({
        id: 'test/declared',
        description: 'Declares /deploy',
        commands: [{ name: '/deploy', description: 'Deploy', hint: 'env' }],
        async run(ctx) {
          ctx.state.setCommands([{ name: 'rollback', description: 'Roll back' }]);
          await ctx.reply.text('ok');
        },
      });
    const dataDir = await h.tmpDir();
    const server = await h.start({ agents: [declared()], dataDir });
    const client = await h.connect(server);
    expect(client.state!.agents[0]!.commands).toEqual([{ name: 'deploy', description: 'Deploy', hint: 'env' }]);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await settle(server, client);
    expect(client.state!.agents[0]!.commands).toEqual([{ name: 'rollback', description: 'Roll back' }]);
    await server.close();
    const again = await h.start({ agents: [declared()], dataDir });
    const later = await h.connect(again);
    expect(later.state!.agents[0]!.commands).toEqual([{ name: 'rollback', description: 'Roll back' }]);
  });
});

describe('GET /agents', () => {
  function get(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; type: string | undefined }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'] }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('answers AgentInfo[] over HTTP with the token, and 403 without', async () => {
    const tooled = defineAgent({
      id: 'acme/tooled',
      description: 'Has tools and workflows',
      tools: [{ name: 'judge', type: 'decision' }, { name: 'count' }],
      workflows: ['review', 'ship'],
      run: () => {},
    });
    const server = await h.start({ agents: [tooled, declaredAgent()] });
    const expected = [
      { id: 'acme/tooled', description: 'Has tools and workflows', implemented: true, tools: [{ name: 'judge', type: 'decision' }, { name: 'count', type: 'deterministic' }], workflows: ['review', 'ship'], activeSkill: null },
      { id: 'test/planner', description: 'Not implemented', implemented: false, tools: [], workflows: ['plan'], activeSkill: null },
    ];
    const byQuery = await get(server, `/agents?token=${encodeURIComponent(server.token)}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.type).toMatch(/application\/json/);
    expect(JSON.parse(byQuery.body)).toEqual(expected);
    expect(JSON.parse(byQuery.body)).toEqual(server.store.state.agents);
    const byBearer = await get(server, '/agents', { Authorization: `Bearer ${server.token}` });
    expect(byBearer.status).toBe(200);
    expect(JSON.parse(byBearer.body)).toEqual(expected);

    expect((await get(server, '/agents')).status).toBe(403);
    expect((await get(server, '/agents?token=wrong')).status).toBe(403);
    expect((await get(server, '/agents', { Authorization: 'Bearer wrong' })).status).toBe(403);
    const foreign = await get(server, `/agents?token=${encodeURIComponent(server.token)}`, { Host: 'evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toContain('acme/tooled');
  });
});
