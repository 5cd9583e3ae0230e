/**
 * Kills a busy writer (crash-child.ts) with SIGKILL at random moments, many times over one data
 * folder, and checks after each kill that every file parses and nothing reported durable was lost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../../shared/schemas.ts';
import { bundleScript } from '../../test-support/cli-bundle.ts';
import { parseChatFile } from './chat-file-format.ts';
import { createFileChatRepository } from './file-chat-repository.ts';
import { parseJournal } from './journal.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const childScript = path.resolve(here, '../../test-support/crash-child.ts');
const ROUNDS = 20;

const children = new Set<ChildProcess>();
const dir = mkdtempSync(path.join(os.tmpdir(), 'agentbar-crash-'));

afterAll(async () => {
  await Promise.all([...children].map(kill));
  rmSync(dir, { recursive: true, force: true });
});

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function firstText(message: Message): string {
  const part = message.content.find((p) => p.type === 'text');
  return part && part.type === 'text' ? part.text : '';
}

/** Runs the child until a random moment, kills it, returns the lines it printed and its stderr. */
async function runAndKill(round: number): Promise<{ lines: string[]; stderr: string }> {
  const child = spawn(process.execPath, [await bundleScript(childScript), dir, String(round * 7919 + 1)], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  // Most rounds kill the child mid-work, some while it is still starting up and opening the folder.
  if (round % 4 === 3) {
    await Promise.race([sleep(150 + Math.random() * 600), exited]);
  } else {
    const ready = new Promise<void>((resolve) => {
      const check = (): void => {
        if (stdout.includes('ready\n')) resolve();
      };
      child.stdout!.on('data', check);
      check();
    });
    await Promise.race([ready, exited, sleep(15_000)]);
    await Promise.race([sleep(Math.random() * 700), exited]);
  }
  await kill(child);
  children.delete(child);
  await exited;
  const lines = stdout.split('\n');
  lines.pop(); // an unfinished line was not reported
  return { lines, stderr };
}

interface Expected {
  messages: Map<string, Map<string, string>>; // chatId → messageId → text hash
  titles: Map<string, number>;
  deleted: Set<string>;
}

function record(expected: Expected, lines: readonly string[]): void {
  for (const line of lines) {
    const [kind, chatId, a, b] = line.split(' ');
    if (kind === 'created') expected.messages.set(chatId!, new Map());
    else if (kind === 'deleting' || kind === 'deleted') {
      // Once a delete has started the chat may be gone whenever the kill came.
      if (kind === 'deleted') expected.deleted.add(chatId!);
      expected.messages.delete(chatId!);
      expected.titles.delete(chatId!);
    } else if (kind === 'renamed') expected.titles.set(chatId!, Number(a));
    else if (kind === 'done') {
      if (!expected.messages.has(chatId!)) expected.messages.set(chatId!, new Map());
      expected.messages.get(chatId!)!.set(a!, b!);
    }
  }
}

/** Every chat file parses whole; every journal parses but for a torn last line. */
function checkFiles(): void {
  const chatsDir = path.join(dir, 'chats');
  for (const name of readdirSync(chatsDir)) {
    expect(name, 'no file was moved aside').not.toMatch(/corrupt/);
    const full = path.join(chatsDir, name);
    if (name.endsWith('.jsonl')) {
      const parsed = parseChatFile(readFileSync(full, 'utf8'), name.slice(0, -'.jsonl'.length));
      expect(parsed.ok ? 'ok' : parsed.reason, name).toBe('ok');
      const journal = path.join(chatsDir, name.replace(/\.jsonl$/, '.journal'));
      if (parsed.ok && readdirSync(chatsDir).includes(path.basename(journal))) {
        const j = parseJournal(readFileSync(journal, 'utf8'), parsed.value.header.gen);
        expect(j.damaged, `${journal} has no damaged line`).toBe(0);
      }
    } else if (!name.endsWith('.journal')) {
      expect(name, 'only chat files, journals and temp files').toMatch(/\.tmp-\d+-[0-9a-f]+$/);
    }
  }
}

describe('crash safety', () => {
  it(
    'keeps every file parseable and every reported change through SIGKILLs at random moments',
    async () => {
      const expected: Expected = { messages: new Map(), titles: new Map(), deleted: new Set() };
      let reported = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const { lines, stderr } = await runAndKill(round);
        reported += lines.length;
        expect(stderr, `round ${round}: the child logged no warning or error`).not.toMatch(/^(warn|error):/m);
        record(expected, lines);
        checkFiles();

        const logs: string[] = [];
        const repo = createFileChatRepository({
          dir,
          log: (level, message) => {
            if (level !== 'info') logs.push(`${level}: ${message}`);
          },
        });
        const index = await repo.open();
        const infos = new Map(index.chats.map((c) => [c.id, c]));
        for (const chatId of expected.deleted) expect(infos.has(chatId), `deleted ${chatId} stays deleted`).toBe(false);
        for (const [chatId, n] of expected.titles) {
          expect(Number(/^Title (\d+)$/.exec(infos.get(chatId)?.title ?? '')?.[1]), `title of ${chatId}`).toBeGreaterThanOrEqual(n);
        }
        for (const [chatId, messages] of expected.messages) {
          expect(infos.has(chatId), `chat ${chatId} survives`).toBe(true);
          const loaded = await repo.loadMessages(chatId);
          const byId = new Map(loaded.map((m) => [m.id, m]));
          for (const [messageId, hash] of messages) {
            const message = byId.get(messageId);
            expect(message, `message ${messageId} of ${chatId}`).toBeDefined();
            expect(hashText(firstText(message!)), `text of ${messageId}`).toBe(hash);
          }
          expect(loaded.filter((m) => m.role === 'assistant' && m.status === 'streaming')).toEqual([]);
        }
        expect(logs).toEqual([]);
        await repo.close();
        // open() swept the temp files a kill can leave.
        expect(readdirSync(path.join(dir, 'chats')).filter((n) => n.includes('.tmp-'))).toEqual([]);
      }
      // The rounds did real work: the child reported many durable changes.
      expect(reported).toBeGreaterThan(ROUNDS);
      expect(children.size).toBe(0);
    },
    120_000,
  );
});
