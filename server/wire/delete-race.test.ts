/**
 * A chat deleted while another client sends to it: the delete stops the chat's run, then waits for
 * the disk; a message that arrived meanwhile used to start a run that outlived the chat, which no
 * Stop could reach and which kept every other chat `busy` until a restart.
 */
import { describe, expect, it } from 'vitest';
import { userMessage } from '../../test-support/test-client.ts';
import { Gate, useHarness, waitUntil } from '../../test-support/test-server.ts';
import { defineAgent } from '../sdk/agent.ts';
import { StorageError, type ChatRepository } from '../persistence/chat-repository.ts';
import { createMemoryChatRepository } from '../persistence/memory-chat-repository.ts';

const h = useHarness();

describe('a message sent while its chat is being deleted', () => {
  it('is refused as not_found, and the delete leaves no run behind', async () => {
    const agent = defineAgent({
      id: 'test/replies',
      description: 'Answers after a moment',
      async run(ctx) {
        await ctx.sleep(20);
        await ctx.reply.text('answer');
      },
    });
    // The disk takes its time removing the chat's files.
    const disk = new Gate();
    const memory = createMemoryChatRepository();
    const repository: ChatRepository = {
      ...memory,
      deleteChat: async (chatId) => {
        await disk.wait();
        return memory.deleteChat(chatId);
      },
    };
    const server = await h.start({ agents: [agent], repository });
    const deleter = await h.connect(server);
    const sender = await h.connect(server);
    const { chatId } = await deleter.ok('chat.create', { title: 'doomed' });

    const deleting = deleter.request('chat.delete', { chatId });
    await waitUntil(() => disk.entered === 1, 'the delete to reach the disk');
    const sent = await sender.request('message.send', userMessage(chatId, 'are you there?'));
    expect(sent.ok).toBe(false);
    expect(sent.error).toMatchObject({ code: 'not_found', path: 'chatId', message: `Chat is being deleted: ${chatId}` });
    expect(server.store.state.run).toBeNull();
    expect(server.store.state.active?.messages).toEqual([]);

    disk.open();
    expect((await deleting).ok).toBe(true);
    expect(server.store.state.chats[chatId]).toBeUndefined();
    expect(server.store.state.run).toBeNull();
    // The agent is free for the next chat.
    const { chatId: next } = await sender.ok('chat.create', { title: 'next' });
    await sender.ok('message.send', userMessage(next, 'hello'));
    await waitUntil(() => server.store.state.run === null, 'the reply in the next chat');
    expect(server.store.state.active?.messages.at(-1)).toMatchObject({ role: 'assistant', status: 'done', content: [{ type: 'text', text: 'answer' }] });
  });

  it('goes through once a delete the disk refused has failed', async () => {
    const agent = defineAgent({ id: 'test/quiet', description: 'Says nothing', async run() {} });
    const memory = createMemoryChatRepository();
    const repository: ChatRepository = {
      ...memory,
      deleteChat: async () => {
        throw new StorageError('The disk is read-only');
      },
    };
    const server = await h.start({ agents: [agent], repository });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', { title: 'kept' });
    expect((await client.request('chat.delete', { chatId })).error).toMatchObject({ code: 'storage' });
    await client.ok('message.send', userMessage(chatId, 'still here'));
  });
});
