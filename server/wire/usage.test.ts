import { describe, expect, it } from 'vitest';
import { defineAgent } from '../sdk/agent.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { lastMessage, settle, textOf, useHarness, type TestServer } from '../../test-support/test-server.ts';

const h = useHarness();

/** Reports its context as the message says: "used size [amount currency]"; "clear" takes its report away. */
function countingAgent(id = 'test/counting') {
  return defineAgent({
    id,
    description: 'Reports its context usage',
    async run(ctx) {
      if (ctx.text === 'clear') {
        const before = ctx.usage;
        ctx.setUsage(null);
        await ctx.reply.text(`cleared ${JSON.stringify(before)}, now ${JSON.stringify(ctx.usage)}`);
        return;
      }
      const [used, size, amount, currency] = ctx.text.split(' ');
      ctx.setUsage({ used: Number(used), size: Number(size), ...(amount ? { cost: { amount: Number(amount), currency: currency! } } : {}) });
      await ctx.reply.text('counted');
    },
  });
}

/** Sends `text` to `agent` (the chat's own when not named) and waits until the run is over everywhere. */
async function ask(server: TestServer, chatId: string, text: string, agent: string | undefined, ...clients: [TestClient, ...TestClient[]]) {
  await clients[0].ok('message.send', { ...userMessage(chatId, text), ...(agent ? { agent } : {}) });
  await settle(server, ...clients);
}

describe('context usage', () => {
  it("shows an agent's report on its chat, whole tokens, and keeps it across a restart", async () => {
    const dataDir = await h.tmpDir();
    const server = await h.start({ agents: [countingAgent()], dataDir });
    const client = await h.connect(server);
    const other = await h.connect(server);
    const { chatId: second } = await client.ok('chat.create', {});
    const { chatId } = await client.ok('chat.create', {});
    expect(client.state!.chats[chatId]!.usage).toBeUndefined();

    await ask(server, chatId, '41250.4 200000 0.42 USD', undefined, client, other);
    expect(textOf(lastMessage(other.state))).toBe('counted');
    expect(other.state!.chats[chatId]!.usage).toEqual({ 'test/counting': { used: 41_250, size: 200_000, cost: { amount: 0.42, currency: 'USD' } } });
    // Another chat is not touched.
    expect(other.state!.chats[second]!.usage).toBeUndefined();

    await ask(server, chatId, '60000 200000', undefined, client, other);
    expect(other.state!.chats[chatId]!.usage).toEqual({ 'test/counting': { used: 60_000, size: 200_000 } });

    await server.close();
    const again = await h.start({ agents: [countingAgent()], dataDir });
    const later = await h.connect(again);
    expect(later.state!.chats[chatId]!.usage).toEqual({ 'test/counting': { used: 60_000, size: 200_000 } });
  });

  it("keeps each agent's usage apart in a chat that addresses two", async () => {
    const server = await h.start({ agents: [countingAgent('test/a'), countingAgent('test/b')] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await ask(server, chatId, '100 1000', 'test/a', client);
    await ask(server, chatId, '900 8000', 'test/b', client);
    expect(client.state!.chats[chatId]!.usage).toEqual({ 'test/a': { used: 100, size: 1000 }, 'test/b': { used: 900, size: 8000 } });
  });

  it("takes an agent's report away with null, leaves the other agent's, and no empty record behind, across a restart", async () => {
    const dataDir = await h.tmpDir();
    const agents = () => [countingAgent('test/a'), countingAgent('test/b')];
    const server = await h.start({ agents: agents(), dataDir });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await ask(server, chatId, '100 1000', 'test/a', client);
    await ask(server, chatId, '900 8000', 'test/b', client);

    await ask(server, chatId, 'clear', 'test/a', client);
    expect(textOf(lastMessage(client.state))).toBe('cleared {"used":100,"size":1000}, now undefined');
    expect(client.state!.chats[chatId]!.usage).toEqual({ 'test/b': { used: 900, size: 8000 } });
    // Clearing what is not there changes nothing.
    await ask(server, chatId, 'clear', 'test/a', client);
    expect(lastMessage(client.state)).toMatchObject({ status: 'done' });
    expect(client.state!.chats[chatId]!.usage).toEqual({ 'test/b': { used: 900, size: 8000 } });

    await ask(server, chatId, 'clear', 'test/b', client);
    expect(client.state!.chats[chatId]).not.toHaveProperty('usage');

    await server.close();
    const again = await h.start({ agents: agents(), dataDir });
    const later = await h.connect(again);
    expect(later.state!.chats[chatId]).not.toHaveProperty('usage');
  });

  it('fails the run of an agent that reports a usage that is not one, saying why, and keeps the last good one', async () => {
    const server = await h.start({ agents: [countingAgent()] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await ask(server, chatId, '10 100', undefined, client);
    for (const [text, error] of [
      ['-1 100', 'usage.used must be a number of tokens, 0 or more, not -1'],
      ['1 0', "usage.size must be the context window's size in tokens, 1 or more, not 0"],
      ['many 100', 'usage.used must be a number of tokens, 0 or more, not NaN'],
      ['1 100 0.1 ' + 'x'.repeat(17), 'usage.cost.currency must be a code such as USD (1 to 16 characters)'],
    ] as const) {
      await ask(server, chatId, text, undefined, client);
      expect(lastMessage(client.state)).toMatchObject({ status: 'failed', error: expect.stringContaining(error) });
    }
    expect(client.state!.chats[chatId]!.usage).toEqual({ 'test/counting': { used: 10, size: 100 } });
  });
});
