import { describe, expect, it } from 'vitest';
import { userMessage } from '../../test-support/test-client.ts';
import { Gate, useHarness, waitUntil } from '../../test-support/test-server.ts';
import { defineAgent } from '../sdk/agent.ts';
import { createMemoryChatRepository } from '../persistence/memory-chat-repository.ts';
import type { ChatRepository } from '../persistence/chat-repository.ts';

const h = useHarness();

describe('switching chats while others are created', () => {
  it('keeps the chat being switched to in memory until it is active', async () => {
    const decide = new Gate();
    const work = new Gate();
    // Accepts every switch, but takes its time when a run is in progress.
    const agent = defineAgent({
      id: 'test/slow-to-decide',
      description: 'Thinks before letting you switch while it works',
      onChatSwitch: async ({ run }) => {
        if (run) await decide.wait();
      },
      onChatCreate: () => undefined,
      async run(ctx) {
        await work.wait(ctx.signal);
        await ctx.reply.text('done');
      },
    });
    // Loading a chat from the repository waits for the test.
    const loading = new Gate();
    const memory = createMemoryChatRepository();
    const repository: ChatRepository = {
      ...memory,
      loadMessages: async (chatId) => {
        await loading.wait();
        return memory.loadMessages(chatId);
      },
    };
    const server = await h.start({ agents: [agent], repository });
    const client = await h.connect(server);
    const { chatId: first } = await client.ok('chat.create', { title: 'first' });
    // Enough newer chats that `first` is no longer held in memory.
    let active = first;
    for (let i = 0; i < 9; i++) active = (await client.ok('chat.create', { title: `older ${i}` })).chatId;

    // The switch loads `first`; a run starts meanwhile, so the agent is asked again and waits.
    const switching = client.request('chat.switch', { chatId: first });
    await waitUntil(() => loading.entered === 1, 'the switch to load the chat');
    await client.ok('message.send', userMessage(active, 'work'));
    loading.open();
    await waitUntil(() => decide.entered === 1, 'the agent to be asked again');
    // Enough new chats to push `first` out of memory again, were it not held for the switch.
    for (let i = 0; i < 10; i++) await client.ok('chat.create', { title: `newer ${i}` });
    decide.open();

    const result = await switching;
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    await waitUntil(() => server.store.state.activeChatId === first, 'the switch');
    expect(server.store.state.active?.chatId).toBe(first);
    work.open();
  });
});
