import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits.ts';
import type { Message, State } from '../../shared/schemas.ts';
import { selectShownMessages } from '../../shared/versions.ts';
import { defineAgent } from '../sdk/agent.ts';
import { userMessage } from '../../test-support/test-client.ts';
import { activeMessages, expectRejected, expectUnchanged, Gate, gatedAgent, settle, textOf, useHarness } from '../../test-support/test-server.ts';

const h = useHarness();

/** Answers with a running count and the history it was given, so a test sees both. */
function historianAgent() {
  let count = 0;
  return defineAgent({
    id: 'test/historian',
    description: 'Says what it was given',
    async run(ctx) {
      count++;
      await ctx.reply.text(`answer ${count} to [${ctx.messages.map(textOf).join(' | ')}]`);
    },
  });
}

/** What a client that knows versions shows: the chat's shown branch, as texts. */
function shownTexts(state: State | null): string[] {
  const chatId = state?.activeChatId;
  const head = chatId ? state.chats[chatId]?.head : undefined;
  return selectShownMessages(activeMessages(state), head).map((m: Message) => textOf(m));
}

describe('answer versions', () => {
  it('Regenerate makes a second version of the same answer, the agent sees only the chosen one, and the choice survives a restart', async () => {
    const dataDir = await h.tmpDir();
    const server = await h.start({ agents: [historianAgent()], dataDir });
    const client = await h.connect(server);
    const other = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    const { messageId: question } = await client.ok('message.send', userMessage(chatId, 'q1'));
    await settle(server, client, other);

    expect(await client.ok('message.regenerate', { chatId, messageId: question })).toBeUndefined();
    await settle(server, client, other);
    const [, first, second] = activeMessages(other.state);
    // The second version follows the question, not the first version, and never saw it.
    expect(second).toMatchObject({ role: 'assistant', parentId: question });
    expect(textOf(second)).toBe('answer 2 to [q1]');
    expect(shownTexts(other.state)).toEqual(['q1', 'answer 2 to [q1]']);
    expect(other.state!.chats[chatId]!.head).toBeUndefined();

    // ‹ 1/2 ›: the first version shows again, and the next question follows it.
    await client.ok('version.set', { chatId, messageId: first!.id });
    await settle(server, client, other);
    expect(other.state!.chats[chatId]!.head).toBe(first!.id);
    expect(shownTexts(other.state)).toEqual(['q1', 'answer 1 to [q1]']);
    await client.ok('message.send', userMessage(chatId, 'q2'));
    await settle(server, client, other);
    expect(shownTexts(other.state)).toEqual(['q1', 'answer 1 to [q1]', 'q2', 'answer 3 to [q1 | answer 1 to [q1] | q2]']);
    expect(other.state!.chats[chatId]!.head).toBeUndefined();

    // Back to the second version: its branch ends where it did.
    await client.ok('version.set', { chatId, messageId: second!.id });
    await server.close();
    const again = await h.start({ agents: [historianAgent()], dataDir });
    const later = await h.connect(again);
    expect(later.state!.chats[chatId]!.head).toBe(second!.id);
    expect(shownTexts(later.state)).toEqual(['q1', 'answer 2 to [q1]']);
    // A client that knows nothing of versions still gets every message, in the order they came.
    expect(activeMessages(later.state).map((m) => textOf(m))).toEqual(['q1', 'answer 1 to [q1]', 'answer 2 to [q1]', 'q2', 'answer 3 to [q1 | answer 1 to [q1] | q2]']);
  });

  it('Edit and resend makes a new version of the question, with its own answer, and the agent is not given the old one', async () => {
    const server = await h.start({ agents: [historianAgent()] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    const { messageId: q1 } = await client.ok('message.send', userMessage(chatId, 'q1'));
    await settle(server, client);
    const { messageId: q2 } = await client.ok('message.send', userMessage(chatId, 'q2'));
    await settle(server, client);

    const { messageId: edited } = await client.ok('message.send', userMessage(chatId, 'q2 better', { editOf: q2 }));
    await settle(server, client);
    const messages = activeMessages(client.state);
    expect(messages.find((m) => m.id === edited)).toMatchObject({ parentId: messages[1]!.id });
    expect(shownTexts(client.state)).toEqual(['q1', 'answer 1 to [q1]', 'q2 better', 'answer 3 to [q1 | answer 1 to [q1] | q2 better]']);

    // The chat's first question too: its new version starts the chat.
    const { messageId: restart } = await client.ok('message.send', userMessage(chatId, 'q1 again', { editOf: q1 }));
    await settle(server, client);
    expect(activeMessages(client.state).find((m) => m.id === restart)).toMatchObject({ parentId: null });
    expect(shownTexts(client.state)).toEqual(['q1 again', 'answer 4 to [q1 again]']);
  });

  it('refuses what is not a question, an unknown message, and any change while the agent answers, changing nothing', async () => {
    const gate = new Gate();
    const server = await h.start({ agents: [gatedAgent(gate)] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    const { messageId: question } = await client.ok('message.send', userMessage(chatId, 'q1'));
    await client.waitFor(() => activeMessages(client.state).length === 2);
    const reply = activeMessages(client.state)[1]!.id;

    await expectRejected(server, client, 'message.regenerate', { chatId, messageId: question }, { code: 'busy' });
    await expectRejected(server, client, 'version.set', { chatId, messageId: question }, { code: 'busy' });
    gate.open();
    await settle(server, client);

    await expectRejected(server, client, 'message.regenerate', { chatId, messageId: reply }, {
      code: 'not_allowed',
      path: 'messageId',
      message: `Message ${reply} is not a question of the user's`,
    });
    await expectRejected(server, client, 'message.send', userMessage(chatId, 'x', { editOf: reply }), { code: 'not_allowed', path: 'editOf' });
    await expectRejected(server, client, 'message.regenerate', { chatId, messageId: 'msg_nope' }, { code: 'not_found', path: 'messageId' });
    await expectRejected(server, client, 'version.set', { chatId, messageId: 'msg_nope' }, { code: 'not_found', path: 'messageId' });
    await expectRejected(server, client, 'version.set', { chatId: 'chat_nope', messageId: question }, { code: 'not_found', path: 'chatId' });
  });

  it(`keeps at most ${LIMITS.maxVersions} versions of one answer`, async () => {
    const server = await h.start({ memory: true });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    const { messageId } = await client.ok('message.send', userMessage(chatId, 'again and again'));
    await settle(server, client);
    for (let i = 1; i < LIMITS.maxVersions; i++) {
      await client.ok('message.regenerate', { chatId, messageId });
      await settle(server, client);
    }
    const over = await expectUnchanged(server, [client], () => client.request('message.regenerate', { chatId, messageId }));
    expect(over.error).toMatchObject({ code: 'too_large', message: expect.stringContaining(`${LIMITS.maxVersions} versions`) });
    expect(activeMessages(client.state)).toHaveLength(1 + LIMITS.maxVersions);
  });
});
