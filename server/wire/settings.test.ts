import { describe, expect, it } from 'vitest';
import type { AgentSetting } from '../../shared/schemas.ts';
import { defineAgent, type AgentDefinition, type SettingRequest } from '../sdk/agent.ts';
import { userMessage } from '../../test-support/test-client.ts';
import { echoAgent, expectUnchanged, lastMessage, settle, textOf, useHarness } from '../../test-support/test-server.ts';

const h = useHarness();

const SETTINGS: AgentSetting[] = [
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    defaultValue: 'sonnet',
    options: [
      { value: 'opus', name: 'Opus', description: 'Most capable', group: 'Claude' },
      { value: 'sonnet', name: 'Sonnet', group: 'Claude' },
      { value: 'local', name: 'Local model', group: 'Ollama' },
    ],
  },
  { id: 'effort', name: 'Thinking', category: 'thought_level', defaultValue: 'low', options: [{ value: 'low', name: 'Low' }, { value: 'high', name: 'High' }] },
];

/** Says the settings it works with, and falls back to `local` when told "offline". */
function configurableAgent(options: Pick<AgentDefinition, 'onSettingChange'> = {}) {
  return defineAgent({
    id: 'test/configurable',
    description: 'Works with settings',
    settings: SETTINGS,
    ...options,
    async run(ctx) {
      if (ctx.text === 'offline') ctx.setSetting('model', 'local');
      if (ctx.text === 'bad value') ctx.setSetting('model', 'gpt');
      if (ctx.text === 'bad setting') ctx.setSetting('temperature', 'hot');
      await ctx.reply.text(`model ${ctx.settings.model}, thinking ${ctx.settings.effort}`);
    },
  });
}

describe('agent settings', () => {
  it("gives a chat each setting's default, lets the user pick another value for one chat, and the run reads it; kept across a restart", async () => {
    const dataDir = await h.tmpDir();
    const server = await h.start({ agents: [configurableAgent()], dataDir });
    const client = await h.connect(server);
    const other = await h.connect(server);
    expect(client.state!.agents[0]!.settings).toEqual(SETTINGS);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'which'));
    await settle(server, client, other);
    expect(textOf(lastMessage(other.state))).toBe('model sonnet, thinking low');

    expect(await client.ok('setting.set', { chatId, setting: 'model', value: 'opus' })).toBeUndefined();
    await client.ok('setting.set', { chatId, setting: 'effort', value: 'high' });
    await settle(server, client, other);
    expect(other.state!.chats[chatId]!.settings).toEqual({ 'test/configurable': { model: 'opus', effort: 'high' } });
    await client.ok('message.send', userMessage(chatId, 'which'));
    await settle(server, client, other);
    expect(textOf(lastMessage(other.state))).toBe('model opus, thinking high');

    // Another chat is not touched.
    const { chatId: second } = await client.ok('chat.create', {});
    expect(client.state!.chats[second]!.settings).toBeUndefined();

    await server.close();
    const again = await h.start({ agents: [configurableAgent()], dataDir });
    const later = await h.connect(again);
    expect(later.state!.chats[chatId]!.settings).toEqual({ 'test/configurable': { model: 'opus', effort: 'high' } });
  });

  it('refuses a setting or value the agent does not offer, an agent without settings, and a chat that does not exist, changing nothing', async () => {
    const server = await h.start({ agents: [configurableAgent(), echoAgent()] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    const unknownSetting = await expectUnchanged(server, [client], () => client.request('setting.set', { chatId, setting: 'temperature', value: 'hot' }));
    expect(unknownSetting.error).toEqual({ code: 'not_found', message: 'The agent test/configurable has no setting "temperature"; its settings are model, effort', path: 'setting' });
    const unknownValue = await expectUnchanged(server, [client], () => client.request('setting.set', { chatId, setting: 'model', value: 'gpt' }));
    expect(unknownValue.error).toEqual({ code: 'not_found', message: 'Model has no value "gpt"; its values are opus, sonnet, local', path: 'value' });
    const noSettings = await expectUnchanged(server, [client], () => client.request('setting.set', { chatId, agent: 'test/echo', setting: 'model', value: 'opus' }));
    expect(noSettings.error).toMatchObject({ code: 'not_allowed', message: 'The agent test/echo has no settings', path: 'agent' });
    const noAgent = await expectUnchanged(server, [client], () => client.request('setting.set', { chatId, agent: 'test/nobody', setting: 'model', value: 'opus' }));
    expect(noAgent.error).toMatchObject({ code: 'unknown_agent', path: 'agent' });
    const noChat = await expectUnchanged(server, [client], () => client.request('setting.set', { chatId: 'chat_nope', setting: 'model', value: 'opus' }));
    expect(noChat.error.code).toBe('not_found');
    const empty = await expectUnchanged(server, [client], () => client.request('setting.set', { chatId, setting: 'model', value: '' }));
    expect(empty.error).toMatchObject({ code: 'invalid_message', path: 'value' });
    const long = await expectUnchanged(server, [client], () => client.request('setting.set', { chatId, setting: 'm'.repeat(129), value: 'opus' }));
    expect(long.error).toMatchObject({ code: 'too_large', path: 'setting' });
  });

  it('asks the agent: a rejection keeps the value and says why, a throw fails as internal, and the hook sees the previous value', async () => {
    const asked: SettingRequest[] = [];
    const agent = configurableAgent({
      onSettingChange(request) {
        asked.push(request);
        if (request.value === 'local') return { reject: 'No local model is running' };
        if (request.value === 'high') throw new Error('lost its config');
      },
    });
    const server = await h.start({ agents: [agent] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('setting.set', { chatId, setting: 'model', value: 'opus' });
    expect(asked[0]).toMatchObject({ chatId, setting: 'model', value: 'opus', previous: 'sonnet', run: null });
    const rejected = await expectUnchanged(server, [client], () => client.request('setting.set', { chatId, setting: 'model', value: 'local' }));
    expect(rejected.error).toMatchObject({ code: 'rejected', message: 'No local model is running' });
    const failed = await expectUnchanged(server, [client], () => client.request('setting.set', { chatId, setting: 'effort', value: 'high' }));
    expect(failed.error).toMatchObject({ code: 'internal', message: 'The agent test/configurable failed to answer: lost its config' });
    // The value it already has needs no question.
    await client.ok('setting.set', { chatId, setting: 'model', value: 'opus' });
    expect(asked).toHaveLength(3);
    expect(client.state!.chats[chatId]!.settings).toEqual({ 'test/configurable': { model: 'opus' } });
  });

  it('shows a value the agent moves to itself; a setting or value it does not offer fails its own run, not the server', async () => {
    const server = await h.start({ agents: [configurableAgent()] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'offline'));
    await settle(server, client);
    expect(client.state!.chats[chatId]!.settings).toEqual({ 'test/configurable': { model: 'local' } });
    expect(textOf(lastMessage(client.state))).toBe('model local, thinking low');
    await client.ok('message.send', userMessage(chatId, 'bad value'));
    await settle(server, client);
    expect(lastMessage(client.state)).toMatchObject({ status: 'failed', error: expect.stringContaining('Model takes one of opus, sonnet, local, not "gpt"') });
    await client.ok('message.send', userMessage(chatId, 'bad setting'));
    await settle(server, client);
    expect(lastMessage(client.state)).toMatchObject({ status: 'failed', error: expect.stringContaining("setSetting takes one of the agent's setting ids (model, effort), not \"temperature\"") });
    expect(client.state!.chats[chatId]!.settings).toEqual({ 'test/configurable': { model: 'local' } });
  });

  it('replaces declared settings with the ones set at run time, across a restart; a chat whose value is no longer offered has the default', async () => {
    const changing = () =>
      defineAgent({
        id: 'test/changing',
        description: 'Learns its models when it runs',
        settings: [{ id: 'model', name: 'Model', options: [{ value: 'old', name: 'Old' }, { value: 'older', name: 'Older' }] }],
        async run(ctx) {
          ctx.state.setSettings([{ id: ' model ', name: 'Model\n  to use', defaultValue: 'nope', options: [{ value: 'new', name: '' }, { value: 'newer', name: 'Newer' }, { value: 'new', name: 'twice' }] }]);
          await ctx.reply.text(`model ${ctx.settings.model}`);
        },
      });
    const dataDir = await h.tmpDir();
    const server = await h.start({ agents: [changing()], dataDir });
    const client = await h.connect(server);
    expect(client.state!.agents[0]!.settings).toEqual([{ id: 'model', name: 'Model', defaultValue: 'old', options: [{ value: 'old', name: 'Old' }, { value: 'older', name: 'Older' }] }]);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('setting.set', { chatId, setting: 'model', value: 'older' });
    await client.ok('message.send', userMessage(chatId, 'which'));
    await settle(server, client);
    const learned = [{ id: 'model', name: 'Model to use', defaultValue: 'new', options: [{ value: 'new', name: 'new' }, { value: 'newer', name: 'Newer' }] }];
    expect(client.state!.agents[0]!.settings).toEqual(learned);
    expect(textOf(lastMessage(client.state))).toBe('model new');
    await server.close();
    const again = await h.start({ agents: [changing()], dataDir });
    const later = await h.connect(again);
    expect(later.state!.agents[0]!.settings).toEqual(learned);
  });
});
