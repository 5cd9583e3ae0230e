import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../shared/errors.ts';
import { LIMITS } from '../../shared/limits.ts';
import { applyPatch } from '../../shared/patch.ts';
import type { Op, PatchFrame, State, UserMessage } from '../../shared/schemas.ts';
import { ChatManager } from './chats.ts';
import type { ChatRepository } from '../persistence/chat-repository.ts';
import { createMemoryChatRepository } from '../persistence/memory-chat-repository.ts';
import { assistantMessage, userMessage } from '../../test-support/persistence-fixtures.ts';
import { StateStore } from './state-store.ts';

function emptyState(): State {
  return { agents: [], chats: {}, activeChatId: null, active: null, run: null };
}

/** A ChatManager over a memory repository, a clock the test moves, and every repository call. */
function setup() {
  const queued: (() => void)[] = [];
  const store = new StateStore(emptyState(), { schedule: (fn) => queued.push(fn) });
  const frames: string[] = [];
  store.subscribe((frame) => frames.push(frame));
  const flush = () => {
    for (const fn of queued.splice(0)) fn();
  };
  let clock = 1_000;
  const calls: string[] = [];
  let activeChanges = 0;
  let chats: ChatManager;
  const memory = createMemoryChatRepository();
  const repo = new Proxy(memory, {
    get(target, key: keyof ChatRepository) {
      const value = target[key];
      return typeof value === 'function'
        ? (...args: unknown[]) => {
            calls.push(String(key));
            return (value as (...a: unknown[]) => unknown)(...args);
          }
        : value;
    },
  });
  chats = new ChatManager(store, repo, () => activeChanges++, () => clock);
  return {
    store,
    chats,
    repo: memory,
    calls,
    frames,
    flush,
    activeChanges: () => activeChanges,
    setClock: (t: number) => {
      clock = t;
    },
  };
}

describe('ChatManager.nameByAgent', () => {
  it("replaces the default title, the one made from the first message, and the agent's own", () => {
    const { chats, store } = setup();
    const id = chats.create({});
    expect(chats.nameByAgent(id, 'Before any message')).toBe(true);
    expect(store.state.chats[id]).toMatchObject({ title: 'Before any message', titledBy: 'agent' });

    const other = chats.create({});
    chats.addMessage(other, userMessage('u1', 'Fix the header'));
    expect(store.state.chats[other]!.title).toBe('Fix the header');
    expect(chats.nameByAgent(other, 'Header fix')).toBe(true);
    expect(chats.nameByAgent(other, 'Header fix, mobile')).toBe(true);
    expect(store.state.chats[other]).toMatchObject({ title: 'Header fix, mobile', titledBy: 'agent' });
  });

  it('is not named by a command alone: the first message with words names it, and the agent may rename it', () => {
    const { chats, store } = setup();
    const id = chats.create({});
    chats.addMessage(id, userMessage('u1', '/think'));
    expect(store.state.chats[id]!.title).toBe('New chat');
    chats.addMessage(id, userMessage('u2', 'Why is the header blue?'));
    chats.addMessage(id, userMessage('u3', 'And the footer?'));
    expect(store.state.chats[id]!.title).toBe('Why is the header blue?');
    expect(chats.nameByAgent(id, 'Header colours')).toBe(true);
  });

  it('sends nothing when the agent gives the title the chat has', () => {
    const { chats, frames, flush } = setup();
    const id = chats.create({});
    chats.nameByAgent(id, 'Same');
    flush();
    const before = frames.length;
    expect(chats.nameByAgent(id, 'Same')).toBe(true);
    flush();
    expect(frames).toHaveLength(before);
  });

  it("leaves a name the user gave, also on a chat kept before it was recorded who named it", () => {
    const { chats, store } = setup();
    const id = chats.create({});
    chats.addMessage(id, userMessage('u1', 'Fix the header'));
    // As a rename by an older server left it: another title, and no `titledBy`.
    store.change([{ op: 'replace', path: `/chats/${id}/title`, value: 'My header work' }]);
    expect(chats.nameByAgent(id, 'Header fix')).toBe(false);
    expect(store.state.chats[id]!.title).toBe('My header work');
    expect(chats.nameByAgent('chat_missing', 'Nobody')).toBe(false);
  });
});

function protocolError(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError);
    return error as ProtocolError;
  }
  throw new Error('nothing was thrown');
}

/** The state a client holds after applying every frame emitted so far to the empty state. */
function clientState(frames: readonly string[]): State {
  let state = emptyState();
  for (const f of frames) state = applyPatch(state, (JSON.parse(f) as PatchFrame).ops as Op[]);
  return state;
}

describe('ChatManager.create', () => {
  it('makes the new chat active with no messages', () => {
    const { chats, store, activeChanges } = setup();
    const id = chats.create({ title: '  Fix the header  ' });
    expect(store.state.activeChatId).toBe(id);
    expect(store.state.active).toEqual({ chatId: id, messages: [] });
    expect(store.state.chats[id]).toEqual({ id, title: 'Fix the header', createdAt: 1_000, updatedAt: 1_000, messageCount: 0, titledBy: 'user' });
    expect(activeChanges()).toBe(1);
  });

  it('names an untitled chat and remembers the agent asked for', () => {
    const { chats, store } = setup();
    const id = chats.create({ title: '   ', agent: 'wisp/concierge' });
    expect(store.state.chats[id]).toMatchObject({ title: 'New chat', agent: 'wisp/concierge' });
    expect(store.state.chats[id]!.titledBy).toBeUndefined();
  });

  it('stores the chat in the repository', async () => {
    const { chats, repo } = setup();
    const id = chats.create();
    const index = await repo.open();
    expect(index.chats.map((c) => c.id)).toEqual([id]);
  });

  it('leaves the previous chat in the list', () => {
    const { chats, store } = setup();
    const first = chats.create();
    const second = chats.create();
    expect(Object.keys(store.state.chats).sort()).toEqual([first, second].sort());
    expect(store.state.activeChatId).toBe(second);
  });
});

describe('ChatManager.edit', () => {
  it('changes the active chat in the state once, not twice', () => {
    const { chats, store, frames, flush } = setup();
    const id = chats.create();
    chats.addMessage(id, assistantMessage('m1', 'Hel'));
    chats.edit(id, [{ op: 'append', path: '/0/content/0/text', value: 'lo' }]);
    chats.edit(id, [{ op: 'append', path: '/0/content/0/text', value: '!' }]);
    flush();
    const text = (m: State['active']) => (m!.messages[0] as { content: { text: string }[] }).content[0]!.text;
    expect(text(store.state.active)).toBe('Hello!');
    expect(chats.messages(id)).toBe(store.state.active!.messages);
    expect(text(clientState(frames).active)).toBe('Hello!');
    expect(clientState(frames)).toEqual(store.state);
  });

  it('sends the edit as ops under /active/messages', () => {
    const { chats, frames, flush } = setup();
    const id = chats.create();
    chats.addMessage(id, assistantMessage('m1', 'Hel'));
    flush();
    chats.edit(id, [{ op: 'append', path: '/0/content/0/text', value: 'lo' }]);
    flush();
    expect((JSON.parse(frames.at(-1)!) as PatchFrame).ops).toEqual([
      { op: 'append', path: '/active/messages/0/content/0/text', value: 'lo' },
    ]);
  });

  it('records the edit in the repository', async () => {
    const { chats, repo } = setup();
    const id = chats.create();
    chats.addMessage(id, assistantMessage('m1', 'Hel'));
    chats.edit(id, [{ op: 'append', path: '/0/content/0/text', value: 'lo' }]);
    const saved = await repo.loadMessages(id);
    expect((saved[0] as { content: { text: string }[] }).content[0]!.text).toBe('Hello');
  });

  it('does not touch the state when the chat is loaded but not active', () => {
    const { chats, store, frames, flush } = setup();
    const first = chats.create();
    chats.addMessage(first, assistantMessage('m1', 'Hel'));
    chats.create();
    flush();
    const before = structuredClone(store.state);
    const rev = store.rev;
    chats.edit(first, [{ op: 'append', path: '/0/content/0/text', value: 'lo' }]);
    flush();
    expect(store.state).toEqual(before);
    expect(store.rev).toBe(rev);
    expect(frames).toHaveLength(rev);
    const edited = chats.messages(first)[0] as { content: { text: string }[] };
    expect(edited.content[0]!.text).toBe('Hello');
  });

  it('shows the edits of an inactive chat once it is switched to', async () => {
    const { chats, store } = setup();
    const first = chats.create();
    chats.addMessage(first, assistantMessage('m1', 'Hel'));
    chats.create();
    chats.edit(first, [{ op: 'append', path: '/0/content/0/text', value: 'lo' }]);
    await chats.load(first);
    chats.activate(first);
    expect((store.state.active!.messages[0] as { content: { text: string }[] }).content[0]!.text).toBe('Hello');
  });

  it('ignores a chat that is not loaded and an empty edit', () => {
    const { chats, calls } = setup();
    const id = chats.create();
    calls.length = 0;
    chats.edit(id, []);
    chats.edit('chat_unknown', [{ op: 'append', path: '/0/content/0/text', value: 'x' }]);
    expect(calls).toEqual([]);
  });
});

describe('ChatManager.addMessage', () => {
  it('updates the count, the time and the agent of the chat', () => {
    const { chats, store, setClock } = setup();
    const id = chats.create();
    setClock(2_000);
    const user: UserMessage = userMessage('m1', 'hi', { agent: 'acme/reviewer', clientMessageId: 'c-1' });
    expect(chats.addMessage(id, user)).toBe(0);
    expect(store.state.chats[id]).toMatchObject({ messageCount: 1, updatedAt: 2_000, agent: 'acme/reviewer' });
    setClock(3_000);
    expect(chats.addMessage(id, assistantMessage('m2', 'hello'))).toBe(1);
    // An assistant message leaves the chat's agent alone.
    expect(store.state.chats[id]).toMatchObject({ messageCount: 2, updatedAt: 3_000, agent: 'acme/reviewer' });
    expect(store.state.chats[id]!.createdAt).toBe(1_000);
  });

  it('indexes the message and its clientMessageId', () => {
    const { chats } = setup();
    const id = chats.create();
    chats.addMessage(id, userMessage('m1', 'hi'));
    chats.addMessage(id, userMessage('m2', 'again', { clientMessageId: 'c-2' }));
    expect(chats.messageIndex(id, 'm2')).toBe(1);
    expect(chats.findByClientId(id, 'c-2')).toBe('m2');
    expect(chats.findByClientId(id, 'c-9')).toBeUndefined();
    expect(protocolError(() => chats.messageIndex(id, 'm9')).code).toBe('not_found');
  });

  it('counts the messages of an inactive chat', () => {
    const { chats, store } = setup();
    const first = chats.create();
    chats.create();
    chats.addMessage(first, userMessage('m1', 'hi'));
    chats.addMessage(first, userMessage('m2', 'there'));
    expect(store.state.chats[first]!.messageCount).toBe(2);
    expect(store.state.active!.messages).toEqual([]);
  });
});

describe('ChatManager.rename and touch', () => {
  it('renames a chat and moves its time', () => {
    const { chats, store, setClock } = setup();
    const id = chats.create();
    setClock(5_000);
    chats.rename(id, 'Better title');
    expect(store.state.chats[id]).toMatchObject({ title: 'Better title', updatedAt: 5_000 });
  });

  it('refuses to rename an unknown chat', () => {
    const { chats } = setup();
    expect(protocolError(() => chats.rename('chat_nope', 'x')).code).toBe('not_found');
  });
});

describe('ChatManager.delete', () => {
  it('leaves no active chat when the active one is deleted', async () => {
    const { chats, store, repo, activeChanges } = setup();
    const id = chats.create();
    chats.addMessage(id, userMessage('m1', 'hi'));
    await chats.delete(id);
    expect(store.state.activeChatId).toBeNull();
    expect(store.state.active).toBeNull();
    expect(store.state.chats).toEqual({});
    expect(activeChanges()).toBe(2);
    await expect(repo.loadMessages(id)).rejects.toThrow(/Chat not found/);
  });

  it('keeps the active chat when another one is deleted', async () => {
    const { chats, store, activeChanges } = setup();
    const first = chats.create();
    const second = chats.create();
    await chats.delete(first);
    expect(store.state.activeChatId).toBe(second);
    expect(Object.keys(store.state.chats)).toEqual([second]);
    expect(activeChanges()).toBe(2);
  });

  it('refuses an unknown chat without touching anything', async () => {
    const { chats, store, calls } = setup();
    chats.create();
    calls.length = 0;
    const rev = store.rev;
    await expect(chats.delete('chat_nope')).rejects.toMatchObject({ code: 'not_found' });
    expect(calls).toEqual([]);
    expect(store.rev).toBe(rev);
  });
});

describe('ChatManager.require', () => {
  it.each(['../x', '../../etc/passwd', 'a/b', '', 'constructor', '__proto__', 'toString', 'x'.repeat(65)])(
    'answers not_found for %j without touching the repository',
    async (chatId) => {
      const { chats, calls } = setup();
      chats.create();
      calls.length = 0;
      const error = protocolError(() => chats.require(chatId));
      expect(error.code).toBe('not_found');
      expect(error.message).toBe(`Chat not found: ${chatId}`);
      expect(error.path).toBe('chatId');
      await expect(chats.load(chatId)).rejects.toMatchObject({ code: 'not_found' });
      expect(chats.info(chatId)).toBeUndefined();
      expect(calls).toEqual([]);
    },
  );

  it('returns the info of a known chat', () => {
    const { chats } = setup();
    const id = chats.create({ title: 'Known' });
    expect(chats.require(id).title).toBe('Known');
  });
});

describe('ChatManager.load and activate', () => {
  it('loads a chat from the repository after a restart', async () => {
    const first = setup();
    const id = first.chats.create({ title: 'Saved' });
    first.chats.addMessage(id, userMessage('m1', 'remember me', { clientMessageId: 'c-1' }));
    await first.repo.close();
    // A new server on the same repository.
    const index = await first.repo.open();
    const store = new StateStore(
      { ...emptyState(), chats: Object.fromEntries(index.chats.map((c) => [c.id, c])) },
      { schedule: () => {} },
    );
    const chats = new ChatManager(store, first.repo);
    const loaded = await chats.load(id);
    expect(loaded.messages.map((m) => m.id)).toEqual(['m1']);
    expect(chats.findByClientId(id, 'c-1')).toBe('m1');
    chats.activate(id);
    expect(store.state.active).toEqual({ chatId: id, messages: loaded.messages });
  });

  it('keeps a bounded number of chats in memory and reloads an evicted one intact', async () => {
    const { chats, store } = setup();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const id = chats.create({ title: `Chat ${i}` });
      chats.addMessage(id, userMessage(`m${i}`, `message ${i}`, { clientMessageId: `c-${i}` }));
      ids.push(id);
    }
    const inMemory = ids.filter((id) => chats.sourceOf(id).messages !== undefined);
    expect(inMemory.length).toBeLessThan(ids.length);
    expect(inMemory).toContain(store.state.activeChatId);
    const evicted = ids.find((id) => chats.sourceOf(id).messages === undefined)!;
    expect(chats.sourceOf(evicted).info?.id).toBe(evicted);
    const n = ids.indexOf(evicted);
    const loaded = await chats.load(evicted);
    expect(loaded.messages.map((m) => m.id)).toEqual([`m${n}`]);
    expect(chats.findByClientId(evicted, `c-${n}`)).toBe(`m${n}`);
  });

  it('never evicts a pinned chat', () => {
    const { chats } = setup();
    const pinned = chats.create();
    chats.pin(pinned);
    for (let i = 0; i < 12; i++) chats.create();
    expect(chats.sourceOf(pinned).messages).toEqual([]);
    chats.unpin(pinned);
    // Once unpinned it is the oldest, so the next chat pushes it out.
    chats.create();
    expect(chats.sourceOf(pinned).messages).toBeUndefined();
  });

  it('refuses to activate a chat that is not loaded', () => {
    const { chats } = setup();
    expect(protocolError(() => chats.activate('chat_nope')).code).toBe('internal');
  });

  it('deactivates with null', () => {
    const { chats, store } = setup();
    chats.create();
    chats.activate(null);
    expect(store.state.activeChatId).toBeNull();
    expect(store.state.active).toBeNull();
  });
});

describe('the size bounds', () => {
  it(`refuses a chat past ${LIMITS.maxChats.toLocaleString('en')}, and creates again after a delete`, async () => {
    const { chats, store } = setup();
    let last = '';
    for (let i = 0; i < LIMITS.maxChats; i++) last = chats.create({ title: `c${i}` });
    const error = protocolError(() => chats.create({ title: 'one too many' }));
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/holds 10,000 chats.*delete some/);
    expect(Object.keys(store.state.chats).length).toBe(LIMITS.maxChats);
    await chats.delete(last);
    expect(chats.create({ title: 'fits again' })).toMatch(/^chat_/);
  });

  it('will not activate a chat too big for one snapshot, and leaves the active chat as it was', () => {
    const { chats, store } = setup();
    const huge = chats.create({ title: 'huge' });
    // Made before the bound existed: nothing below the manager checks it.
    chats.addMessage(huge, userMessage('m1', 'x'.repeat(LIMITS.maxChatBytes + LIMITS.maxFrameBytes)));
    const small = chats.create({ title: 'small' });
    const error = protocolError(() => chats.activate(huge));
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/more than a client can be sent at once/);
    expect(store.state.activeChatId).toBe(small);
  });

  it('counts what a chat holds as its ops arrive', () => {
    const { chats } = setup();
    const id = chats.create();
    const before = chats.sizeOf(id);
    chats.addMessage(id, userMessage('m1', 'héllo'));
    const afterAdd = chats.sizeOf(id);
    expect(afterAdd - before).toBe(Buffer.byteLength(JSON.stringify(chats.messages(id)[0])));
    chats.edit(id, [{ op: 'append', path: '/0/content/0/text', value: 'ü!' }]);
    expect(chats.sizeOf(id) - afterAdd).toBe(3);
    expect(chats.hasRoom(id, LIMITS.maxChatBytes)).toBe(false);
    expect(chats.hasRoom(id, 1000)).toBe(true);
  });
});
