import { describe, expect, it } from 'vitest';
import type { AgentMode } from '../../shared/schemas.ts';
import { defineAgent, type AgentDefinition, type ModeRequest } from '../sdk/agent.ts';
import { userMessage } from '../../test-support/test-client.ts';
import { echoAgent, expectUnchanged, lastMessage, settle, textOf, useHarness } from '../../test-support/test-server.ts';

const h = useHarness();

const MODES: AgentMode[] = [
  { id: 'ask', name: 'Ask first', description: 'Asks before every edit' },
  { id: 'plan', name: 'Plan', description: 'Reads only and proposes a plan' },
  { id: 'auto', name: 'Auto' },
];

/** Says the mode it works in, and moves to `auto` when told "go". */
function modalAgent(options: Pick<AgentDefinition, 'onModeChange'> = {}) {
  return defineAgent({
    id: 'test/modal',
    description: 'Works in modes',
    modes: MODES,
    ...options,
    async run(ctx) {
      if (ctx.text === 'go') ctx.setMode('auto');
      if (ctx.text === 'bad') ctx.setMode('yolo');
      await ctx.reply.text(`mode ${ctx.mode}`);
    },
  });
}

describe('agent modes', () => {
  it("starts a chat in the agent's first mode, lets the user pick another for one chat, and the run reads it; kept across a restart", async () => {
    const dataDir = await h.tmpDir();
    const server = await h.start({ agents: [modalAgent()], dataDir });
    const client = await h.connect(server);
    const other = await h.connect(server);
    expect(client.state!.agents[0]!.modes).toEqual(MODES);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'which'));
    await settle(server, client, other);
    expect(textOf(lastMessage(other.state))).toBe('mode ask');

    expect(await client.ok('mode.set', { chatId, mode: 'plan' })).toBeUndefined();
    await settle(server, client, other);
    expect(other.state!.chats[chatId]!.modes).toEqual({ 'test/modal': 'plan' });
    await client.ok('message.send', userMessage(chatId, 'which'));
    await settle(server, client, other);
    expect(textOf(lastMessage(other.state))).toBe('mode plan');

    // Another chat is not touched.
    const { chatId: second } = await client.ok('chat.create', {});
    expect(client.state!.chats[second]!.modes).toBeUndefined();

    await server.close();
    const again = await h.start({ agents: [modalAgent()], dataDir });
    const later = await h.connect(again);
    expect(later.state!.chats[chatId]!.modes).toEqual({ 'test/modal': 'plan' });
  });

  it('refuses a mode the agent does not offer, an agent without modes, and a chat that does not exist, changing nothing', async () => {
    const server = await h.start({ agents: [modalAgent(), echoAgent()] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    const unknownMode = await expectUnchanged(server, [client], () => client.request('mode.set', { chatId, mode: 'yolo' }));
    expect(unknownMode.error).toEqual({ code: 'not_found', message: 'The agent test/modal has no mode "yolo"; its modes are ask, plan, auto', path: 'mode' });
    const noModes = await expectUnchanged(server, [client], () => client.request('mode.set', { chatId, agent: 'test/echo', mode: 'plan' }));
    expect(noModes.error).toMatchObject({ code: 'not_allowed', message: 'The agent test/echo has no modes', path: 'agent' });
    const noAgent = await expectUnchanged(server, [client], () => client.request('mode.set', { chatId, agent: 'test/nobody', mode: 'plan' }));
    expect(noAgent.error).toMatchObject({ code: 'unknown_agent', path: 'agent' });
    const noChat = await expectUnchanged(server, [client], () => client.request('mode.set', { chatId: 'chat_nope', mode: 'plan' }));
    expect(noChat.error.code).toBe('not_found');
    const empty = await expectUnchanged(server, [client], () => client.request('mode.set', { chatId, mode: '' }));
    expect(empty.error).toMatchObject({ code: 'invalid_message', path: 'mode' });
  });

  it('asks the agent: a rejection keeps the mode and says why, a throw fails as internal, and the hook sees the previous mode', async () => {
    const asked: ModeRequest[] = [];
    const agent = modalAgent({
      onModeChange(request) {
        asked.push(request);
        if (request.mode === 'auto') return { reject: 'Auto needs a clean working tree' };
        if (request.mode === 'ask') throw new Error('lost its config');
      },
    });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('mode.set', { chatId, mode: 'plan' });
    expect(asked[0]).toMatchObject({ chatId, mode: 'plan', previous: 'ask', run: null });
    const rejected = await expectUnchanged(server, [client], () => client.request('mode.set', { chatId, mode: 'auto' }));
    expect(rejected.error).toMatchObject({ code: 'rejected', message: 'Auto needs a clean working tree' });
    const failed = await expectUnchanged(server, [client], () => client.request('mode.set', { chatId, mode: 'ask' }));
    expect(failed.error).toMatchObject({ code: 'internal', message: 'The agent test/modal failed to answer: lost its config' });
    // The mode it is already in needs no question.
    await client.ok('mode.set', { chatId, mode: 'plan' });
    expect(asked).toHaveLength(3);
    expect(client.state!.chats[chatId]!.modes).toEqual({ 'test/modal': 'plan' });
  });

  it("shows the mode an agent moves to itself; a mode it does not offer fails its own run, not the server", async () => {
    const server = await h.start({ agents: [modalAgent()] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'go'));
    await settle(server, client);
    expect(client.state!.chats[chatId]!.modes).toEqual({ 'test/modal': 'auto' });
    expect(textOf(lastMessage(client.state))).toBe('mode auto');
    await client.ok('message.send', userMessage(chatId, 'bad'));
    await settle(server, client);
    expect(lastMessage(client.state)).toMatchObject({ status: 'failed', error: expect.stringContaining('setMode takes one of the agent\'s mode ids (ask, plan, auto), not "yolo"') });
    expect(client.state!.chats[chatId]!.modes).toEqual({ 'test/modal': 'auto' });
  });

  it('replaces declared modes with the ones set at run time, across a restart; a chat in a mode no longer offered is in the first', async () => {
    const changing = () =>
      defineAgent({
        id: 'test/changing',
        description: 'Learns its modes when it runs',
        modes: [{ id: 'old', name: 'Old' }],
        async run(ctx) {
          ctx.state.setModes([{ id: ' fast ', name: '' }, { id: 'careful', name: 'Careful\n  work' }, { id: 'fast', name: 'twice' }]);
          await ctx.reply.text(`mode ${ctx.mode}`);
        },
      });
    const dataDir = await h.tmpDir();
    const server = await h.start({ agents: [changing()], dataDir });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('mode.set', { chatId, mode: 'old' });
    await client.ok('message.send', userMessage(chatId, 'which'));
    await settle(server, client);
    expect(client.state!.agents[0]!.modes).toEqual([{ id: 'fast', name: 'fast' }, { id: 'careful', name: 'Careful work' }]);
    expect(textOf(lastMessage(client.state))).toBe('mode fast');
    await server.close();
    const again = await h.start({ agents: [changing()], dataDir });
    const later = await h.connect(again);
    expect(later.state!.agents[0]!.modes).toEqual([{ id: 'fast', name: 'fast' }, { id: 'careful', name: 'Careful work' }]);
  });
});
