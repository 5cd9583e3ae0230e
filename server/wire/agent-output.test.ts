/**
 * Agent output is input for every client and for the disk: whatever an agent hands over, the
 * server keeps a valid state, keeps serving, and tells the agent (or the user) what went wrong.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { StateSchema, type AssistantMessage, type ToolMessage } from '../../shared/schemas.ts';
import { defineAgent } from '../sdk/agent.ts';
import { MAX_REPLY_CHARS } from '../sync/runs.ts';
import { userMessage } from '../../test-support/test-client.ts';
import { Gate, activeMessages, gatedAgent, lastMessage, settle, useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();

describe('agent output the protocol cannot carry', () => {
  it('refuses an invalid file part with an error the agent sees, and the state stays valid', async () => {
    let seen = '';
    const agent = defineAgent({
      id: 'test/files',
      description: 'Writes a file that is not a data URL',
      async run(ctx) {
        try {
          ctx.reply.file({ data: 'https://example.test/x.png', mimeType: 'image/png' });
        } catch (error) {
          seen = (error as Error).message;
        }
        await ctx.reply.text('after');
      },
    });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await settle(server, client);
    expect(seen).toMatch(/invalid file part: data/);
    expect(v.safeParse(StateSchema, client.state).success).toBe(true);
    expect((lastMessage(client.state) as AssistantMessage).content).toEqual([{ type: 'text', text: 'after' }]);
  });

  it('keeps notices on the reply they came with: clipped, an unknown severity as info, at most 20, and one without a title refused', async () => {
    let refused = '';
    const agent = defineAgent({
      id: 'test/notices',
      description: 'Tells a lot besides its reply',
      async run(ctx) {
        ctx.reply.notice({ severity: 'warning', title: `  Rate\n limited ${'x'.repeat(300)}`, description: 'Retrying in 30 s.' });
        ctx.reply.notice({ severity: 'fatal' as 'error', title: 'Odd severity' });
        try {
          ctx.reply.notice({ title: '  ' });
        } catch (error) {
          refused = (error as Error).message;
        }
        for (let i = 0; i < 30; i++) ctx.reply.notice({ title: `Notice ${i}` });
        await ctx.reply.text('Done anyway.');
      },
    });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await settle(server, client);
    expect(refused).toBe('The agent wrote a notice without a title');
    const reply = lastMessage(client.state) as AssistantMessage;
    expect(reply.status).toBe('done');
    expect(reply.notices).toHaveLength(20);
    expect(reply.notices![0]).toEqual({ severity: 'warning', title: `Rate limited ${'x'.repeat(186)}…`, description: 'Retrying in 30 s.' });
    expect(reply.notices![0]!.title).toHaveLength(200);
    expect(reply.notices![1]).toEqual({ severity: 'info', title: 'Odd severity' });
    expect(reply.notices![19]).toEqual({ severity: 'info', title: 'Notice 17' });
    expect(v.safeParse(StateSchema, client.state).success).toBe(true);
    // Kept across a restart, like the rest of the reply.
    await server.close();
    const again = await h.start({ agents: [agent], dataDir: server.dataDir });
    const other = await h.connect(again);
    expect((lastMessage(other.state) as AssistantMessage).notices).toEqual(reply.notices);
  });

  it('turns a cli result JSON cannot hold into an error result, and keeps serving', async () => {
    const agent = defineAgent({
      id: 'test/bigint',
      description: 'A tool that returns a BigInt',
      tools: [{ name: 'count', runtime: 'cli', execute: () => ({ rows: 10n }) }],
      async run(ctx) {
        const result = await ctx.callTool({ name: 'count' });
        await ctx.reply.text(result.isError ? 'tool failed' : 'tool ok');
      },
    });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await settle(server, client);
    const tool = activeMessages(client.state).find((m) => m.role === 'tool') as ToolMessage;
    expect(tool.content[0]).toMatchObject({ isError: true, output: expect.stringContaining('cannot be sent as JSON') });
    expect(lastMessage(client.state)).toMatchObject({ role: 'assistant', status: 'done' });
    expect(await client.ok('chat.create', {})).toHaveProperty('chatId');
  });

  it('survives a Stop while the agent has a tool call it never awaits', async () => {
    const gate = new Gate();
    const agent = defineAgent({
      id: 'test/careless',
      description: 'Starts a call and forgets it',
      async run(ctx) {
        void ctx.callTool({ name: 'get_page_info', runtime: 'toolbar', requiresApproval: true });
        await gate.wait(ctx.signal);
      },
    });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await waitUntil(() => gate.entered === 1, 'the agent to wait');
    expect(await client.ok('run.stop', { chatId })).toEqual({ stopped: true });
    await settle(server, client);
    expect(JSON.stringify(client.state)).not.toMatch(/awaiting-approval/);
    expect(await client.ok('chat.create', {})).toHaveProperty('chatId');
  });
});

describe('an agent that does not await its writes', () => {
  it('survives a Stop while the agent streams text it never awaits', async () => {
    const gate = new Gate();
    let wroteAfterStop = false;
    const agent = defineAgent({
      id: 'test/unawaited',
      description: 'Writes text as if it were synchronous',
      async run(ctx) {
        void ctx.reply.text('before the stop');
        await gate.wait();
        // Refused: the run was stopped. Nobody handles it; it used to end the server.
        void ctx.reply.text(' after the stop');
        void ctx.reply.reasoning('and some reasoning');
        wroteAfterStop = true;
      },
    });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await waitUntil(() => gate.entered === 1, 'the agent to wait');
    expect(await client.ok('run.stop', { chatId })).toEqual({ stopped: true });
    gate.open();
    await waitUntil(() => wroteAfterStop, 'the writes after the stop');
    await settle(server, client);
    const reply = lastMessage(client.state) as AssistantMessage;
    expect(reply).toMatchObject({ status: 'stopped', content: [{ type: 'text', text: 'before the stop' }] });
    expect(await client.ok('chat.create', {})).toHaveProperty('chatId');
  });

  it('ends the run failed, saying why, when a write it never awaited was refused', async () => {
    const agent = defineAgent({
      id: 'test/unawaited-too-long',
      description: 'Writes more than one reply may hold, without awaiting it',
      async run(ctx) {
        void ctx.reply.text('x'.repeat(MAX_REPLY_CHARS + 1));
      },
    });
    const server = await h.start({ agents: [agent], memory: true });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    await settle(server, client);
    const reply = lastMessage(client.state) as AssistantMessage;
    expect(reply.status).toBe('failed');
    expect(reply.error).toMatch(/The reply is over 8,000,000 characters/);
  });

  it('leaves a refused write the agent awaited and handled to the agent', async () => {
    const agent = defineAgent({
      id: 'test/handles-too-long',
      description: 'Catches its own oversized write and says something shorter',
      async run(ctx) {
        try {
          await ctx.reply.text('x'.repeat(MAX_REPLY_CHARS + 1));
        } catch {
          await ctx.reply.text('That was too long to show.');
        }
      },
    });
    const server = await h.start({ agents: [agent], memory: true });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    await settle(server, client);
    expect(lastMessage(client.state)).toMatchObject({ status: 'done', content: [{ type: 'text', text: 'That was too long to show.' }] });
  });
});

describe('a run in a chat that is not active', () => {
  it('lets the user switch back to the chat the agent works in, where Stop is', async () => {
    const gate = new Gate();
    const server = await h.start({ agents: [gatedAgent(gate)] });
    const client = await h.connect(server);
    const { chatId: working } = await client.ok('chat.create', { title: 'Working' });
    await client.ok('message.send', userMessage(working, 'go'));
    await waitUntil(() => gate.entered === 1, 'the agent to wait');
    await client.ok('chat.create', { title: 'Elsewhere' });
    await client.ok('chat.switch', { chatId: working });
    expect(client.state!.activeChatId).toBe(working);
    expect(await client.ok('run.stop', { chatId: working })).toEqual({ stopped: true });
  });

  it('sends tool.run after the patch that creates the call', async () => {
    const agent = defineAgent({
      id: 'test/tool',
      description: 'Calls a toolbar tool',
      async run(ctx) {
        await ctx.callTool({ name: 'get_page_info', runtime: 'toolbar' });
      },
    });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server, { kind: 'toolbar', tools: [{ name: 'get_page_info', description: '', inputSchema: {} }] });
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    const run = await client.next('tool.run', 0);
    const at = client.frames.indexOf(run);
    const before = JSON.stringify(client.frames.slice(0, at).filter((f) => f.type === 'patch'));
    expect(before).toContain(run.toolCallId);
  });
});
