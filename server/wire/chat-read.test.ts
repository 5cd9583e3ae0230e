import { describe, expect, it } from 'vitest';
import { userMessage } from '../../test-support/test-client.ts';
import { activeMessages, echoAgent, expectRejected, expectUnchanged, gatedAgent, Gate, settle, useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();

describe('chat.read', () => {
  it("answers a chat's messages without switching to it, for this client only: nobody's state moves", async () => {
    const server = await h.start({ agents: [echoAgent()] });
    const client = await h.connect(server);
    const other = await h.connect(server);
    const { chatId: first } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(first, 'hello there'));
    await settle(server, client, other);
    const written = activeMessages(client.state);
    expect(written.map((m) => m.role)).toEqual(['user', 'assistant']);
    const { chatId: second } = await client.ok('chat.create', {});

    const value = await expectUnchanged(server, [client, other], () => client.ok('chat.read', { chatId: first }));
    expect(value.messages).toEqual(written);
    expect(client.state!.activeChatId).toBe(second);
    // The active chat reads too, and an empty one is an empty list.
    expect((await client.ok('chat.read', { chatId: second })).messages).toEqual([]);
  });

  it('reads a chat from disk after a restart', async () => {
    const dataDir = await h.tmpDir();
    const server = await h.start({ agents: [echoAgent()], dataDir });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'kept on disk'));
    await settle(server, client);
    const written = activeMessages(client.state);
    await client.ok('chat.create', {});
    await server.close();

    const again = await h.start({ agents: [echoAgent()], dataDir });
    const later = await h.connect(again);
    expect((await later.ok('chat.read', { chatId })).messages).toEqual(written);
  });

  it('reads the chat the agent is writing in, as far as it got', async () => {
    const gate = new Gate();
    const server = await h.start({ agents: [gatedAgent(gate)] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', { agent: 'test/gated' });
    await client.ok('message.send', userMessage(chatId, 'wait for it'));
    await waitUntil(() => gate.entered === 1, 'the agent to reach its gate');
    const { messages } = await client.ok('chat.read', { chatId });
    expect(messages).toMatchObject([
      { role: 'user', content: [{ type: 'text', text: 'wait for it' }] },
      { role: 'assistant', status: 'streaming', content: [{ type: 'text', text: 'working' }] },
    ]);
    gate.open();
    await settle(server, client);
  });

  it('answers not_found for a chat that does not exist, and invalid_message without a chatId', async () => {
    const server = await h.start({ agents: [echoAgent()] });
    const client = await h.connect(server);
    await client.ok('chat.create', {});
    for (const chatId of ['chat_missing', '../x', '']) {
      await expectRejected(server, client, 'chat.read', { chatId }, { code: 'not_found', path: 'chatId' });
    }
    await expectRejected(server, client, 'chat.read', {}, { code: 'invalid_message', path: 'chatId' });
  });
});
