import { describe, expect, it } from 'vitest';
import type { State } from '../../shared/schemas.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { settle, useHarness, type TestServer } from '../../test-support/test-server.ts';

const h = useHarness();

/** What a client keeps to resume: its session, rev and mirrored state. */
function remember(client: TestClient): { session: string; rev: number; state: State } {
  return { session: client.session!, rev: client.rev, state: client.state! };
}

/** Makes `n` patch frames, each a rename of one chat. */
async function makePatches(server: TestServer, client: TestClient, chatId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const rev = server.store.rev;
    await client.ok('chat.rename', { chatId, title: `title ${i}` });
    expect(server.store.rev).toBe(rev + 1);
  }
}

/** The frames after the welcome, by type. */
function afterWelcome(client: TestClient): Record<string, any>[] {
  const i = client.frames.findIndex((f) => f.type === 'welcome');
  return client.frames.slice(i + 1);
}

describe('resume', () => {
  it('resumes with no gap: resumed true and no frames at all', async () => {
    const server = await h.start();
    const writer = await h.connect(server);
    await writer.ok('chat.create', { title: 'one' });
    const first = await h.connect(server);
    const saved = remember(first);
    await first.close();

    const again = await h.connect(server, { resume: { session: saved.session, rev: saved.rev }, state: saved.state });
    expect(again.frames[0]).toEqual({ type: 'welcome', protocol: 1, session: server.store.session, resumed: true });
    // A round trip proves nothing else was coming: the result is the next frame.
    const r = await again.request('chat.rename', { chatId: 'chat_none', title: 'x' });
    expect(again.frames.map((f) => f.type)).toEqual(['welcome', 'result']);
    expect(r.error.code).toBe('not_found');
    expect(again.state).toEqual(server.store.state);
  });

  it('resumes across a gap inside the buffer with exactly the missed patches, in order', async () => {
    const server = await h.start();
    const writer = await h.connect(server);
    const { chatId } = await writer.ok('chat.create', { title: 'start' });
    const reader = await h.connect(server);
    const saved = remember(reader);
    await reader.close();

    const from = writer.frames.length;
    await makePatches(server, writer, chatId, 4);
    await writer.ok('message.send', userMessage(chatId, 'hello'));
    await settle(server, writer);
    const missed = writer.frames.slice(from).filter((f) => f.type === 'patch');
    expect(missed.length).toBeGreaterThan(4);

    const again = await h.connect(server, { resume: { session: saved.session, rev: saved.rev }, state: saved.state });
    expect(again.frames[0]).toMatchObject({ type: 'welcome', resumed: true });
    await again.waitFor(() => again.rev === server.store.rev, 5000, 'the missed patches');
    const replayed = afterWelcome(again);
    expect(replayed.map((f) => f.type).every((t) => t === 'patch')).toBe(true);
    expect(replayed.map((f) => f.rev)).toEqual(missed.map((f) => f.rev));
    expect(replayed).toEqual(missed);
    expect(replayed[0]!.rev).toBe(saved.rev + 1);
    expect(again.state).toEqual(server.store.state);
  });

  it('resumes from the rev just before the oldest buffered frame, and takes a snapshot one rev earlier', async () => {
    const server = await h.start({ replay: { frames: 3 } });
    const writer = await h.connect(server);
    const { chatId } = await writer.ok('chat.create', {});
    const edge = remember(writer);
    await makePatches(server, writer, chatId, 1);
    const tooOld = { ...edge };
    const atEdge = remember(writer);
    await makePatches(server, writer, chatId, 3);
    // The buffer holds the last 3 patches: atEdge.rev + 1 … current.
    expect(server.store.rev).toBe(atEdge.rev + 3);

    const ok = await h.connect(server, { resume: { session: atEdge.session, rev: atEdge.rev }, state: atEdge.state });
    expect(ok.frames[0]).toMatchObject({ type: 'welcome', resumed: true });
    await ok.waitFor(() => ok.rev === server.store.rev);
    expect(afterWelcome(ok).map((f) => [f.type, f.rev])).toEqual([
      ['patch', atEdge.rev + 1],
      ['patch', atEdge.rev + 2],
      ['patch', atEdge.rev + 3],
    ]);
    expect(ok.state).toEqual(server.store.state);

    const expired = await h.connect(server, { resume: { session: tooOld.session, rev: tooOld.rev }, state: tooOld.state });
    expect(expired.frames[0]).toMatchObject({ type: 'welcome', resumed: false });
    expect(afterWelcome(expired).map((f) => [f.type, f.rev])).toEqual([['snapshot', server.store.rev]]);
    expect(expired.state).toEqual(server.store.state);
  });

  it('answers a rev from the future with a snapshot', async () => {
    const server = await h.start();
    const writer = await h.connect(server);
    await writer.ok('chat.create', {});
    const client = await h.connect(server, { resume: { session: server.store.session, rev: server.store.rev + 5 } });
    expect(client.frames.map((f) => f.type)).toEqual(['welcome', 'snapshot']);
    expect(client.frames[0]!.resumed).toBe(false);
    expect(client.state).toEqual(server.store.state);
  });

  it('answers an unknown session with a snapshot', async () => {
    const server = await h.start();
    const client = await h.connect(server, { resume: { session: 's_unknown', rev: 0 } });
    expect(client.frames.map((f) => f.type)).toEqual(['welcome', 'snapshot']);
    expect(client.frames[0]).toMatchObject({ resumed: false, session: server.store.session });
  });

  it('answers the session of a server that restarted with a snapshot of the restored chats', async () => {
    const first = await h.start();
    const client = await h.connect(first);
    const { chatId } = await client.ok('chat.create', { title: 'survives' });
    await client.ok('message.send', userMessage(chatId, 'remember me'));
    await settle(first, client);
    const saved = remember(client);
    await client.close();
    await first.close();

    const second = await h.start({ dataDir: first.dataDir });
    expect(second.store.session).not.toBe(saved.session);
    const again = await h.connect(second, { resume: { session: saved.session, rev: saved.rev }, state: saved.state });
    expect(again.frames.map((f) => f.type)).toEqual(['welcome', 'snapshot']);
    expect(again.frames[0]).toMatchObject({ resumed: false, session: second.store.session });
    expect(again.state).toEqual(second.store.state);
    expect(again.state!.activeChatId).toBe(chatId);
    expect(again.state!.chats[chatId]).toMatchObject({ title: 'survives', messageCount: 2 });
    expect(again.state!.active!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('keeps a resumed client in step with later patches', async () => {
    const server = await h.start();
    const writer = await h.connect(server);
    const { chatId } = await writer.ok('chat.create', {});
    const reader = await h.connect(server);
    const saved = remember(reader);
    await reader.close();
    await makePatches(server, writer, chatId, 2);
    const again = await h.connect(server, { resume: { session: saved.session, rev: saved.rev }, state: saved.state });
    await writer.ok('message.send', userMessage(chatId, 'after resume'));
    await settle(server, writer, again);
  });
});
