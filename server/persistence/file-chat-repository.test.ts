import { existsSync, mkdtempSync, promises as fsp, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssistantMessage } from '../../shared/schemas.ts';
import { ChatNotFoundError, InvalidChatIdError, StorageError } from './chat-repository.ts';
import { createFileChatRepository, type FileChatRepository } from './file-chat-repository.ts';
import { assistantMessage, everyPartMessages, FakeServer, userMessage } from '../../test-support/persistence-fixtures.ts';

let dir: string;
let logs: { level: string; message: string }[];
const opened: FileChatRepository[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'agentbar-persistence-'));
  logs = [];
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
  rmSync(dir, { recursive: true, force: true });
});

function makeRepo(server: FakeServer = new FakeServer(), options: { writeDelayMs?: number } = {}): FileChatRepository {
  const repo = createFileChatRepository({
    dir,
    log: (level, message) => logs.push({ level, message }),
    writeDelayMs: options.writeDelayMs ?? 60_000,
  });
  server.repo = repo;
  opened.push(repo);
  return repo;
}

/** A new process on the same data dir: a fresh repository, nothing shared in memory. */
async function restart(): Promise<{ repo: FileChatRepository; server: FakeServer; index: Awaited<ReturnType<FileChatRepository['open']>> }> {
  const server = new FakeServer();
  const repo = makeRepo(server);
  const index = await repo.open();
  return { repo, server, index };
}

const chatsDir = (): string => path.join(dir, 'chats');
const chatFile = (id: string): string => path.join(chatsDir(), `${id}.jsonl`);
const journalFile = (id: string): string => path.join(chatsDir(), `${id}.journal`);
const warnings = (): string[] => logs.filter((l) => l.level !== 'info').map((l) => l.message);

function streamText(server: FakeServer, chatId: string, index: number, text: string, delta = 4): void {
  for (let i = 0; i < text.length; i += delta) {
    server.edit(chatId, [{ op: 'append', path: `/${index}/content/0/text`, value: text.slice(i, i + delta) }]);
  }
}

describe('file chat repository', () => {
  it('round-trips a chat holding every part type and message role', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_all', 'Every part');
    for (const message of everyPartMessages()) server.addMessage('chat_all', message);
    await repo.close();

    const after = await restart();
    expect(after.index.chats).toEqual([server.chats.get('chat_all')!.info]);
    expect(await after.repo.loadMessages('chat_all')).toEqual(everyPartMessages());
    expect(warnings()).toEqual([]);
  });

  it('replays journaled deltas of a reply that was never compacted', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_j');
    server.addMessage('chat_j', userMessage('m1', 'Write a poem'));
    await repo.flush();
    server.addMessage('chat_j', assistantMessage('m2', '', { status: 'streaming' }), false);
    streamText(server, 'chat_j', 1, 'Roses are red, violets are blue');
    await repo.flush();
    // The reply is only in the journal: the chat file still ends at the user message.
    expect(readFileSync(chatFile('chat_j'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(existsSync(journalFile('chat_j'))).toBe(true);

    const after = await restart();
    const messages = await after.repo.loadMessages('chat_j');
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ content: [{ type: 'text', text: 'Roses are red, violets are blue' }] });
    expect(after.index.chats[0]?.messageCount).toBe(2);
  });

  it('merges consecutive appends to one path into one journal op', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_m');
    server.addMessage('chat_m', assistantMessage('m1', '', { status: 'streaming' }));
    await repo.flush();
    streamText(server, 'chat_m', 0, 'abcdefghijklmnop', 2);
    await repo.flush();
    const lines = readFileSync(journalFile('chat_m'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).ops).toEqual([{ op: 'append', path: '/0/content/0/text', value: 'abcdefghijklmnop' }]);
  });

  it('brings a streaming reply back interrupted, with its open tool calls', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_r');
    const call = (id: string, state: 'awaiting-approval' | 'running' | 'done') =>
      ({ type: 'tool-call', toolCallId: id, toolName: 't', input: {}, runtime: 'cli', requiresApproval: true, state }) as const;
    const reply: AssistantMessage = {
      ...assistantMessage('m1', 'Working'),
      status: 'streaming',
      content: [{ type: 'text', text: 'Working' }, call('a', 'awaiting-approval'), call('b', 'running'), call('c', 'done')],
    };
    server.addMessage('chat_r', reply, false);
    await repo.flush();

    const after = await restart();
    const [message] = (await after.repo.loadMessages('chat_r')) as AssistantMessage[];
    expect(message?.status).toBe('interrupted');
    expect(message?.content.map((p) => (p.type === 'tool-call' ? p.state : p.type))).toEqual([
      'text',
      'interrupted',
      'interrupted',
      'done',
    ]);
  });

  it('moves corrupt and schema-invalid chat files aside, reports them and loads the rest', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_good');
    await repo.close();
    writeFileSync(chatFile('chat_junk'), '{"v":1,"gen":"x","info":{"id":"chat_ju');
    writeFileSync(chatFile('chat_badinfo'), '{"v":1,"gen":"x","info":{"id":"chat_badinfo","title":7}}\n');
    writeFileSync(journalFile('chat_junk'), '{"g":"x","ops":[]}\n');

    const after = await restart();
    expect(after.index.chats.map((c) => c.id)).toEqual(['chat_good']);
    const names = readdirSync(chatsDir()).sort();
    expect(names.filter((n) => n.startsWith('chat_junk.jsonl.corrupt-'))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('chat_junk.journal.corrupt-'))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('chat_badinfo.jsonl.corrupt-'))).toHaveLength(1);
    expect(names).toContain('chat_good.jsonl');
    expect(warnings().some((w) => w.includes(chatFile('chat_junk')))).toBe(true);
    expect(warnings().some((w) => w.includes(chatFile('chat_badinfo')) && w.includes('title'))).toBe(true);
  });

  it('moves a chat aside when a message line is invalid, and says so when loading it', async () => {
    await fsp.mkdir(chatsDir());
    const header = JSON.stringify({ v: 1, gen: 'g', info: { id: 'chat_bad', title: 't', createdAt: 1, updatedAt: 1, messageCount: 1 } });
    writeFileSync(chatFile('chat_bad'), `${header}\n{"id":"m1","role":"user","content":"nope"}\n`);
    const { repo, index } = await restart();
    expect(index.chats.map((c) => c.id)).toEqual(['chat_bad']);
    await expect(repo.loadMessages('chat_bad')).rejects.toThrow(/unreadable.*moved aside/);
    expect(readdirSync(chatsDir()).some((n) => n.startsWith('chat_bad.jsonl.corrupt-'))).toBe(true);
    expect(warnings().some((w) => w.includes(chatFile('chat_bad')) && w.includes('line 2'))).toBe(true);
  });

  it('ignores a torn last journal line and keeps the batches before it', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_t');
    server.addMessage('chat_t', assistantMessage('m1', '', { status: 'streaming' }));
    await repo.flush();
    streamText(server, 'chat_t', 0, 'first ');
    await repo.flush();
    const gen = JSON.parse(readFileSync(journalFile('chat_t'), 'utf8').split('\n')[0]!).g;
    await repo.close();
    await fsp.appendFile(journalFile('chat_t'), `{"g":"${gen}","ops":[{"op":"append","path":"/0/content/0/text","value":"lost`);

    const after = await restart();
    const messages = await after.repo.loadMessages('chat_t');
    expect(messages[0]).toMatchObject({ content: [{ text: 'first ' }], status: 'interrupted' });
    expect(warnings()).toEqual([]);

    // Writing on drops the torn fragment first: nothing recorded later is glued to it.
    after.server.adopt(after.index.chats[0]!, messages);
    after.server.unloaded.add('chat_t'); // no compaction: the journal is appended to
    after.server.edit('chat_t', [{ op: 'append', path: '/0/content/0/text', value: 'second' }]);
    await after.repo.close();
    expect(readFileSync(journalFile('chat_t'), 'utf8')).not.toContain('lost');
    const again = await restart();
    expect(await again.repo.loadMessages('chat_t')).toMatchObject([{ content: [{ text: 'first second' }] }]);
    expect(warnings()).toEqual([]);
  });

  it('stops replay at a damaged journal line and sets the journal aside, keeping what replayed', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_d');
    server.addMessage('chat_d', assistantMessage('m1', '', { status: 'streaming' }));
    await repo.flush();
    streamText(server, 'chat_d', 0, 'kept');
    await repo.flush();
    const gen = JSON.parse(readFileSync(journalFile('chat_d'), 'utf8').split('\n')[0]!).g;
    await fsp.appendFile(journalFile('chat_d'), `garbage\n{"g":"${gen}","ops":[{"op":"append","path":"/0/content/0/text","value":" after"}]}\n`);

    const after = await restart();
    expect(await after.repo.loadMessages('chat_d')).toMatchObject([{ content: [{ text: 'kept' }] }]);
    const aside = readdirSync(chatsDir()).filter((n) => n.startsWith('chat_d.journal.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(chatsDir(), aside[0]!), 'utf8')).toContain('garbage');
    expect(warnings().some((w) => w.includes(journalFile('chat_d')))).toBe(true);
    // The kept text now lives in the chat file itself.
    const third = await restart();
    expect(await third.repo.loadMessages('chat_d')).toMatchObject([{ content: [{ text: 'kept' }] }]);
  });

  it('never applies journal lines of an older chat file twice', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_g');
    server.addMessage('chat_g', assistantMessage('m1', '', { status: 'streaming' }));
    await repo.flush();
    streamText(server, 'chat_g', 0, 'once');
    await repo.flush();
    const oldJournal = readFileSync(journalFile('chat_g'));
    server.edit('chat_g', [{ op: 'replace', path: '/0/status', value: 'done' }], true);
    await repo.flush();
    expect(existsSync(journalFile('chat_g'))).toBe(false);
    // As if the process died after the new chat file landed but before the journal was removed.
    writeFileSync(journalFile('chat_g'), oldJournal);

    const after = await restart();
    expect(await after.repo.loadMessages('chat_g')).toMatchObject([{ content: [{ text: 'once' }], status: 'done' }]);
  });

  it('sweeps temp files left by an interrupted write', async () => {
    await fsp.mkdir(chatsDir(), { recursive: true });
    writeFileSync(path.join(chatsDir(), 'chat_a.jsonl.tmp-123-abcdef'), '{"v":1');
    writeFileSync(path.join(dir, 'meta.json.tmp-9-0a0b'), '{');
    writeFileSync(path.join(chatsDir(), 'notes.txt'), 'not ours');
    await restart();
    expect(readdirSync(chatsDir())).toEqual(['notes.txt']);
    expect(readdirSync(dir).sort()).toEqual(['chats']);
  });

  it('writes far fewer bytes while streaming than a rewrite per delta would', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_s');
    for (let i = 0; i < 20; i++) server.addMessage('chat_s', userMessage(`u${i}`, 'earlier message '.repeat(10)));
    server.addMessage('chat_s', assistantMessage('m1', '', { status: 'streaming' }), false);
    await repo.flush();
    const before = repo.bytesWritten;
    // A 50,000-character reply in 4-character deltas.
    const text = 'All work and no play makes "Jack" a dull boy.\n'.repeat(1100).slice(0, 50_000);
    // 100 deltas per write, as the 1 s timer would see them at 100 deltas/s.
    for (let i = 0; i < text.length; i += 400) {
      streamText(server, 'chat_s', 20, text.slice(i, i + 400));
      await repo.flush();
    }
    server.edit('chat_s', [{ op: 'replace', path: '/20/status', value: 'done' }], true);
    await repo.flush();
    const written = repo.bytesWritten - before;
    const chatBytes = readFileSync(chatFile('chat_s')).length;
    // Rewriting the chat per delta would cost at least (deltas × the chat without the reply).
    const rewritePerDelta = (text.length / 4) * (chatBytes - text.length);
    expect(written).toBeLessThan(3 * text.length);
    expect(written * 100).toBeLessThan(rewritePerDelta);

    const after = await restart();
    expect((await after.repo.loadMessages('chat_s'))[20]).toMatchObject({ content: [{ text }], status: 'done' });
  });

  it('writes non-urgent changes on its own once the delay has passed', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server, { writeDelayMs: 10 });
    await repo.open();
    server.createChat('chat_w');
    server.addMessage('chat_w', assistantMessage('m1', '', { status: 'streaming' }));
    await repo.flush();
    server.edit('chat_w', [{ op: 'append', path: '/0/content/0/text', value: 'tick' }]);
    await vi.waitFor(() => expect(readFileSync(journalFile('chat_w'), 'utf8')).toContain('tick'), { timeout: 5000 });
  });

  it('starts an urgent write within the tick, and holds a non-urgent one back', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_u');
    await repo.flush();
    server.reads.length = 0;
    server.edit('chat_u', [{ op: 'add', path: '/-', value: userMessage('m1', 'hi') }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.reads).toEqual([]);
    server.edit('chat_u', [{ op: 'replace', path: '/0/content/0/text', value: 'hello' }], true);
    await Promise.resolve();
    await Promise.resolve();
    expect(server.reads).toContain('chat_u');
  });

  it('keeps changes recorded while a rewrite is in flight', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_f');
    server.addMessage('chat_f', assistantMessage('m1', 'a', { status: 'streaming' }), true);
    // The rewrite above is now running; these land in the journal of the new file.
    server.edit('chat_f', [{ op: 'append', path: '/0/content/0/text', value: 'b' }]);
    server.addMessage('chat_f', userMessage('m2', 'c'), false);
    await repo.close();
    const after = await restart();
    expect(await after.repo.loadMessages('chat_f')).toMatchObject([{ content: [{ text: 'ab' }] }, { id: 'm2' }]);
    expect(after.index.chats[0]?.messageCount).toBe(2);
  });

  it('refuses ids that could leave the chats folder before touching the disk', async () => {
    const root = path.join(dir, 'never-created');
    const repo = createFileChatRepository({ dir: root, log: () => {} });
    const nothing = { info: undefined, messages: undefined };
    for (const id of ['../x', 'a/b', '', '..', '.', 'a\\b', '/etc/passwd', 'x'.repeat(65), 'ok\n']) {
      expect(() => repo.recordChange(id, [], nothing)).toThrow(InvalidChatIdError);
      expect(() => repo.recordInfo(id, nothing)).toThrow(InvalidChatIdError);
      await expect(repo.loadMessages(id)).rejects.toThrow(InvalidChatIdError);
      await expect(repo.deleteChat(id)).rejects.toThrow(InvalidChatIdError);
    }
    await repo.flush();
    expect(existsSync(root)).toBe(false);
  });

  it('deletes a chat with its journal, and forgets its pending changes', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_del');
    server.createChat('chat_keep');
    server.addMessage('chat_del', assistantMessage('m1', '', { status: 'streaming' }));
    await repo.flush();
    streamText(server, 'chat_del', 0, 'journaled');
    await repo.flush();
    streamText(server, 'chat_del', 0, 'pending');
    expect(existsSync(journalFile('chat_del'))).toBe(true);
    await repo.deleteChat('chat_del');
    server.chats.delete('chat_del');
    await repo.flush();
    expect(readdirSync(chatsDir())).toEqual(['chat_keep.jsonl']);
    await expect(repo.loadMessages('chat_del')).rejects.toThrow(ChatNotFoundError);
    const after = await restart();
    expect(after.index.chats.map((c) => c.id)).toEqual(['chat_keep']);
  });

  it('removes a journal left behind by an interrupted delete', async () => {
    await fsp.mkdir(chatsDir(), { recursive: true });
    writeFileSync(journalFile('chat_gone'), '{"g":"x","ops":[]}\n');
    await restart();
    expect(readdirSync(chatsDir())).toEqual([]);
  });

  it('round-trips the meta, and drops an active chat that no longer exists', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_a');
    repo.setMeta({ activeChatId: 'chat_a', agentState: { 'wisp/concierge': { activeSkill: 'css' } } });
    await repo.close();
    let after = await restart();
    expect(after.index).toMatchObject({ activeChatId: 'chat_a', agentState: { 'wisp/concierge': { activeSkill: 'css' } } });

    after.repo.setMeta({ activeChatId: 'chat_missing', agentState: {} });
    await after.repo.close();
    after = await restart();
    expect(after.index.activeChatId).toBeNull();
    expect(JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8'))).toEqual({ activeChatId: 'chat_missing', agentState: {} });
  });

  it('moves an unreadable meta file aside and starts with none', async () => {
    writeFileSync(path.join(dir, 'meta.json'), '{"activeChatId": 4');
    const { index } = await restart();
    expect(index).toEqual({ chats: [], activeChatId: null, agentState: {} });
    expect(readdirSync(dir).some((n) => n.startsWith('meta.json.corrupt-'))).toBe(true);
    expect(warnings().some((w) => w.includes(path.join(dir, 'meta.json')))).toBe(true);
  });

  it('reads only the header of each chat at open', async () => {
    await fsp.mkdir(chatsDir(), { recursive: true });
    const info = { id: 'chat_big', title: 'Big', createdAt: 1, updatedAt: 2, messageCount: 1 };
    // 16 MiB of body that is not even JSON: open() must neither read nor judge it.
    writeFileSync(chatFile('chat_big'), JSON.stringify({ v: 1, gen: 'g', info }) + '\n' + 'x'.repeat(16 * 1024 * 1024));
    const { repo, index } = await restart();
    expect(index.chats).toEqual([info]);
    expect(repo.bytesRead).toBeLessThan(64 * 1024);
    expect(warnings()).toEqual([]);
  });

  it('loads chats written in the older format', async () => {
    await fsp.mkdir(chatsDir(), { recursive: true });
    const info = { id: 'chat_old', title: 'Old', createdAt: 1, updatedAt: 2, messageCount: 2 };
    const oldAssistant = { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'hi' }], status: 'done', createdAt: 2 };
    writeFileSync(chatFile('chat_old'), [JSON.stringify({ info }), JSON.stringify(userMessage('m1', 'yo')), JSON.stringify(oldAssistant)].join('\n') + '\n');
    const { repo, index } = await restart();
    expect(index.chats).toEqual([info]);
    const messages = await repo.loadMessages('chat_old');
    expect(messages[1]).toEqual({ ...oldAssistant, agent: 'unknown' });
  });

  it('leaves a chat file of a newer format alone', async () => {
    await fsp.mkdir(chatsDir(), { recursive: true });
    writeFileSync(chatFile('chat_new'), '{"v":2,"whatever":true}\n');
    const { index } = await restart();
    expect(index.chats).toEqual([]);
    expect(readdirSync(chatsDir())).toEqual(['chat_new.jsonl']);
    expect(logs.some((l) => l.level === 'error' && l.message.includes('newer'))).toBe(true);
  });

  it('keeps a rename of a chat whose messages are not in memory', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_n', 'Before');
    server.addMessage('chat_n', userMessage('m1', 'hello'));
    await repo.close();

    const after = await restart();
    after.server.adopt(after.index.chats[0]!, []);
    after.server.unloaded.add('chat_n');
    after.server.rename('chat_n', 'After');
    await after.repo.flush();
    const again = await restart();
    expect(again.index.chats[0]).toMatchObject({ title: 'After', messageCount: 1 });
    expect(await again.repo.loadMessages('chat_n')).toMatchObject([{ id: 'm1' }]);
  });

  it('reports a failed write from flush, logs it, and retries it until it succeeds', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server, { writeDelayMs: 5 });
    await repo.open();
    // A folder where the chat file should go makes its rename fail.
    await fsp.mkdir(chatFile('chat_x'));
    writeFileSync(path.join(chatFile('chat_x'), 'blocker'), '');
    server.createChat('chat_x');
    const failed = await repo.flush().then(() => null, (error: unknown) => error);
    expect(failed).toBeInstanceOf(StorageError);
    expect((failed as StorageError).errno).toBe('EISDIR');
    expect(logs.some((l) => l.level === 'error' && l.message.includes(chatFile('chat_x')))).toBe(true);
    rmSync(chatFile('chat_x'), { recursive: true });
    await vi.waitFor(() => expect(existsSync(chatFile('chat_x'))).toBe(true), { timeout: 5000 });
    await repo.flush();
    await vi.waitFor(async () => expect((await restart()).index.chats.map((c) => c.id)).toEqual(['chat_x']), { timeout: 5000 });
  });

  it('flushes and closes repeatedly, and ignores changes after close', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_c');
    await Promise.all([repo.flush(), repo.flush(), repo.close(), repo.close()]);
    await repo.flush();
    await repo.close();
    server.addMessage('chat_c', userMessage('m1', 'late'));
    await repo.flush();
    expect(logs.some((l) => l.level === 'warn' && l.message.includes('after close'))).toBe(true);
    const after = await restart();
    expect(await after.repo.loadMessages('chat_c')).toEqual([]);
  });

  it('folds journals into chat files on close, so the next start reads headers only', async () => {
    const server = new FakeServer();
    const repo = makeRepo(server);
    await repo.open();
    server.createChat('chat_z');
    await repo.flush();
    server.addMessage('chat_z', assistantMessage('m1', '', { status: 'streaming' }), false);
    streamText(server, 'chat_z', 0, 'some text');
    await repo.flush();
    expect(existsSync(journalFile('chat_z'))).toBe(true);
    await repo.close();
    expect(readdirSync(chatsDir())).toEqual(['chat_z.jsonl']);
  });

  it('rejects loading a chat that does not exist', async () => {
    const { repo } = await restart();
    await expect(repo.loadMessages('chat_nope')).rejects.toThrow(ChatNotFoundError);
  });
});
