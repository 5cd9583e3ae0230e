import { describe, expect, it } from 'vitest';
import { ChatNotFoundError, InvalidChatIdError } from './chat-repository.ts';
import { createMemoryChatRepository } from './memory-chat-repository.ts';
import { assistantMessage, everyPartMessages, FakeServer, userMessage } from '../../test-support/persistence-fixtures.ts';

function setup() {
  const server = new FakeServer();
  const repo = createMemoryChatRepository();
  server.repo = repo;
  return { server, repo };
}

describe('memory chat repository', () => {
  it('round-trips every part type, independent of later edits in memory', async () => {
    const { server, repo } = setup();
    await repo.open();
    server.createChat('chat_1', 'All parts');
    for (const message of everyPartMessages()) server.addMessage('chat_1', message);
    server.chats.get('chat_1')!.messages[0]!.id = 'mutated_in_place';
    await repo.close();

    const index = await repo.open();
    expect(index.chats.map((c) => [c.id, c.title, c.messageCount])).toEqual([['chat_1', 'All parts', 4]]);
    expect(await repo.loadMessages('chat_1')).toEqual(everyPartMessages());
  });

  it('applies streamed ops and recovers a streaming reply as interrupted', async () => {
    const { server, repo } = setup();
    server.createChat('chat_1');
    server.addMessage('chat_1', userMessage('m1', 'hi'));
    server.addMessage('chat_1', assistantMessage('m2', '', { status: 'streaming' }), false);
    server.edit('chat_1', [{ op: 'append', path: '/1/content/0/text', value: 'Hel' }]);
    server.edit('chat_1', [{ op: 'append', path: '/1/content/0/text', value: 'lo' }]);
    expect(await repo.loadMessages('chat_1')).toMatchObject([{ id: 'm1' }, { content: [{ text: 'Hello' }], status: 'interrupted' }]);
  });

  it('keeps messages from ops alone when the server holds nothing of the chat', async () => {
    const repo = createMemoryChatRepository();
    const nothing = { info: undefined, messages: undefined };
    repo.recordInfo('chat_1', nothing);
    repo.recordChange('chat_1', [{ op: 'add', path: '/-', value: userMessage('m1', 'hi') }], nothing);
    expect(await repo.loadMessages('chat_1')).toEqual([userMessage('m1', 'hi')]);
    expect((await repo.open()).chats[0]).toMatchObject({ id: 'chat_1', messageCount: 1 });
  });

  it('deletes chats, keeps the meta, and refuses bad ids', async () => {
    const { server, repo } = setup();
    server.createChat('chat_1');
    server.createChat('chat_2');
    await repo.deleteChat('chat_1');
    repo.setMeta({ activeChatId: 'chat_2', agentState: { a: { skill: 'x' } } });
    expect(await repo.open()).toMatchObject({ chats: [{ id: 'chat_2' }], activeChatId: 'chat_2', agentState: { a: { skill: 'x' } } });
    await expect(repo.loadMessages('chat_1')).rejects.toThrow(ChatNotFoundError);
    const nothing = { info: undefined, messages: undefined };
    expect(() => repo.recordChange('../x', [], nothing)).toThrow(InvalidChatIdError);
    expect(() => repo.recordInfo('a/b', nothing)).toThrow(InvalidChatIdError);
    await expect(repo.loadMessages('..')).rejects.toThrow(InvalidChatIdError);
    await expect(repo.deleteChat('')).rejects.toThrow(InvalidChatIdError);
  });
});
