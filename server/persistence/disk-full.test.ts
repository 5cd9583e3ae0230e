/**
 * A data folder on a real, small tmpfs, filled until writes fail, then freed; and remounted
 * read-only. Needs root (to mount); skipped, with the reason, elsewhere. CI runs as root.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rm, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFileChatRepository } from './file-chat-repository.ts';
import { userMessage } from '../../test-support/test-client.ts';
import { echoAgent, settle, textOf, useHarness, type TestServer } from '../../test-support/test-server.ts';

const h = useHarness();

function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const mounts: string[] = [];
afterEach(async () => {
  await h.cleanup();
  for (const dir of mounts.splice(0)) {
    try {
      execFileSync('umount', [dir]);
    } catch {
      execFileSync('umount', ['-l', dir]);
    }
    await rm(dir, { recursive: true, force: true });
  }
});

async function mountTmpfs(size: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

/** Writes a filler file until the disk refuses; returns its path. */
async function fillDisk(dir: string): Promise<string> {
  const file = path.join(dir, 'filler.bin');
  const handle = await open(file, 'w');
  const chunk = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) await handle.write(chunk);
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    await handle.close();
  }
  return file;
}

async function startOn(dataDir: string): Promise<TestServer> {
  const logs: { level: string; message: string }[] = [];
  // Short write delays, so the retries after a failure come within a test's patience.
  const repository = createFileChatRepository({ dir: dataDir, writeDelayMs: 20, log: (level, message) => logs.push({ level, message }) });
  return h.start({ agents: [echoAgent()], dataDir, repository });
}

/** Everything written for the chat so far (chat file and journal), as text. */
async function chatOnDisk(dataDir: string, chatId: string): Promise<string> {
  const dir = path.join(dataDir, 'chats');
  let text = '';
  for (const name of await readdir(dir)) if (name.startsWith(chatId)) text += await readFile(path.join(dir, name), 'utf8');
  return text;
}

describe.skipIf(!canMount())('a full disk (tmpfs, as root)', () => {
  it('answers storage while nothing can be written, recovers by itself with little space, and loses no acknowledged change', async () => {
    const dataDir = await mountTmpfs('3m');
    let server = await startOn(dataDir);
    let client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', { title: 'big' });
    // A chat of about 1.2 MB on disk.
    for (let i = 0; i < 6; i++) await client.ok('message.send', userMessage(chatId, `${i} ${'x'.repeat(100_000)}`));
    await settle(server, client);
    expect((await chatOnDisk(dataDir, chatId)).length).toBeGreaterThan(1_000_000);

    const filler = await fillDisk(dataDir);
    // Bigger than the slack at the end of the files' last pages, which a full tmpfs still fills.
    const whileFull = `sent while full ${'y'.repeat(20_000)}`;
    const full = await client.request('message.send', userMessage(chatId, whileFull));
    expect(full.ok).toBe(false);
    expect(full.error.code).toBe('storage');
    expect(full.error.message).toMatch(/ENOSPC/);
    // The message is in the chat; it is only not saved yet.
    await settle(server, client);
    expect(client.state!.active!.messages.some((m) => m.role === 'user' && textOf(m) === whileFull)).toBe(true);
    const rename = await client.request('chat.rename', { chatId, title: `renamed while full ${'t'.repeat(150)}` });
    expect(rename.error?.code).toBe('storage');

    // Free far less than the chat's size: appending what is pending fits, a rewrite would not.
    const { size } = await import('node:fs').then((fs) => fs.statSync(filler));
    await truncate(filler, size - 256 * 1024);
    await vi.waitFor(async () => {
      const disk = await chatOnDisk(dataDir, chatId);
      expect(disk).toContain('sent while full');
      expect(disk).toContain('renamed while full');
    }, { timeout: 15_000, interval: 100 });

    // Acknowledged from here on.
    const acknowledged: string[] = [];
    for (let i = 0; i < 6; i++) {
      await client.ok('message.send', userMessage(chatId, `after ${i}`));
      acknowledged.push(`after ${i}`);
      await settle(server, client);
    }
    await client.ok('chat.rename', { chatId, title: 'final title' });

    await server.close();
    server = await startOn(dataDir);
    client = await h.connect(server);
    expect(client.state!.chats[chatId]!.title).toBe('final title');
    await client.ok('chat.switch', { chatId });
    const texts = client.state!.active!.messages.filter((m) => m.role === 'user').map((m) => textOf(m));
    for (const text of [whileFull, ...acknowledged]) expect(texts).toContain(text);
    expect(texts.filter((t) => t.startsWith('after ')).length).toBe(6);
  }, 60_000);

  it('keeps a chat whose delete the read-only folder refused, everywhere, and saves again once writable', async () => {
    const dataDir = await mountTmpfs('4m');
    const server = await startOn(dataDir);
    const client = await h.connect(server);
    const other = await h.connect(server);
    const { chatId } = await client.ok('chat.create', { title: 'keep me' });
    await client.ok('message.send', userMessage(chatId, 'hello'));
    await settle(server, client, other);

    execFileSync('mount', ['-o', 'remount,ro', dataDir]);
    const refused = await client.request('chat.delete', { chatId });
    expect(refused.ok).toBe(false);
    expect(refused.error.code).toBe('storage');
    expect(refused.error.message).toMatch(/EROFS/);
    await settle(server, client, other);
    for (const c of [client, other]) expect(c.state!.chats[chatId]?.title).toBe('keep me');
    expect(server.store.state.activeChatId).toBe(chatId);
    const rename = await client.request('chat.rename', { chatId, title: 'renamed read-only' });
    expect(rename.error?.code).toBe('storage');

    execFileSync('mount', ['-o', 'remount,rw', dataDir]);
    await vi.waitFor(async () => expect(await chatOnDisk(dataDir, chatId)).toContain('renamed read-only'), { timeout: 15_000, interval: 100 });
    await client.ok('chat.delete', { chatId });
    expect(existsSync(path.join(dataDir, 'chats', `${chatId}.jsonl`))).toBe(false);
    await settle(server, client, other);
    expect(other.state!.chats[chatId]).toBeUndefined();
  }, 60_000);
});
