import { describe, expect, it } from 'vitest';
import { defineAgent, type AgentStateAccess } from '../sdk/agent.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { lastMessage, settle, textOf, useHarness, type TestServer } from '../../test-support/test-server.ts';

const h = useHarness();

/** Names its chat with the message's text ("other CHAT TEXT" names another chat, "blank" gives only spaces) and says whether it took. */
function namingAgent(keep: { state?: AgentStateAccess } = {}) {
  return defineAgent({
    id: 'test/namer',
    description: 'Names chats',
    async run(ctx) {
      keep.state = ctx.state;
      const other = /^other (\S+) (.*)$/s.exec(ctx.text);
      const took = other ? ctx.state.setChatTitle(other[1]!, other[2]!) : ctx.setTitle(ctx.text === 'blank' ? ' \n ' : ctx.text);
      await ctx.reply.text(took ? 'named' : 'kept');
    },
  });
}

async function ask(server: TestServer, client: TestClient, chatId: string, text: string) {
  await client.ok('message.send', userMessage(chatId, text));
  await settle(server, client);
  return textOf(lastMessage(client.state));
}

describe('chat titles from the agent', () => {
  it('replaces the title made from the first message, for every client, as plain words of at most 200 characters', async () => {
    const server = await h.start({ agents: [namingAgent()] });
    const client = await h.connect(server);
    const other = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    const before = client.state!.chats[chatId]!.updatedAt;
    expect(await ask(server, client, chatId, '## Fix the **login** button\non `mobile`')).toBe('named');
    expect(other.state!.chats[chatId]).toMatchObject({ title: 'Fix the login button on mobile', titledBy: 'agent' });
    expect(other.state!.chats[chatId]!.updatedAt).toBeGreaterThanOrEqual(before);

    // The agent may rename its own title as it learns more.
    await ask(server, client, chatId, 'word '.repeat(60));
    const long = other.state!.chats[chatId]!.title;
    expect(long).toHaveLength(200);
    expect(long.endsWith('word word…')).toBe(true);
  });

  it('never replaces a title the user gave at create or by a rename, and says so', async () => {
    const server = await h.start({ agents: [namingAgent()] });
    const client = await h.connect(server);
    const { chatId: named } = await client.ok('chat.create', { title: 'Checkout' });
    expect(client.state!.chats[named]!.titledBy).toBe('user');
    expect(await ask(server, client, named, 'Something else')).toBe('kept');
    expect(client.state!.chats[named]).toMatchObject({ title: 'Checkout', titledBy: 'user' });

    const { chatId } = await client.ok('chat.create', {});
    expect(await ask(server, client, chatId, 'First name')).toBe('named');
    await client.ok('chat.rename', { chatId, title: 'Mine' });
    expect(client.state!.chats[chatId]).toMatchObject({ title: 'Mine', titledBy: 'user' });
    expect(await ask(server, client, chatId, 'Second name')).toBe('kept');
    expect(client.state!.chats[chatId]!.title).toBe('Mine');
  });

  it('names another chat between runs, and nothing for a chat that is gone', async () => {
    const keep: { state?: AgentStateAccess } = {};
    const server = await h.start({ agents: [namingAgent(keep)] });
    const client = await h.connect(server);
    const { chatId: first } = await client.ok('chat.create', {});
    const { chatId } = await client.ok('chat.create', {});
    expect(await ask(server, client, chatId, `other ${first} The first chat`)).toBe('named');
    expect(client.state!.chats[first]).toMatchObject({ title: 'The first chat', titledBy: 'agent' });

    // Between runs, as a coding agent names its session once a turn is over.
    expect(keep.state!.setChatTitle(first, 'Named later')).toBe(true);
    await client.waitFor(() => client.state!.chats[first]!.title === 'Named later', 5000, 'the title given between runs');
    expect(keep.state!.setChatTitle('chat_gone', 'Nobody')).toBe(false);
    await client.ok('chat.delete', { chatId: first });
    expect(keep.state!.setChatTitle(first, 'Too late')).toBe(false);
  });

  it('fails the run of an agent that gives a title without words, leaving the title as it was', async () => {
    const server = await h.start({ agents: [namingAgent()] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'blank'));
    await settle(server, client);
    const reply = lastMessage(client.state)!;
    expect(reply).toMatchObject({ role: 'assistant', status: 'failed' });
    expect(JSON.stringify(reply)).toContain('setChatTitle takes a title with words in it, not \\" \\\\n \\"');
    expect(client.state!.chats[chatId]).toMatchObject({ title: 'blank' });
    expect(client.state!.chats[chatId]!.titledBy).toBeUndefined();
  });

  it("keeps who named the chat across a restart: the user's name stays the user's", async () => {
    const dataDir = await h.tmpDir();
    const server = await h.start({ agents: [namingAgent()], dataDir });
    const client = await h.connect(server);
    const { chatId: agents } = await client.ok('chat.create', {});
    await ask(server, client, agents, 'By the agent');
    const { chatId: users } = await client.ok('chat.create', {});
    await client.ok('chat.rename', { chatId: users, title: 'By me' });
    await server.close();

    const again = await h.start({ agents: [namingAgent()], dataDir });
    const later = await h.connect(again);
    expect(later.state!.chats[agents]).toMatchObject({ title: 'By the agent', titledBy: 'agent' });
    expect(later.state!.chats[users]).toMatchObject({ title: 'By me', titledBy: 'user' });
    expect(await ask(again, later, users, 'Not yours')).toBe('kept');
    expect(later.state!.chats[users]!.title).toBe('By me');
  });
});
