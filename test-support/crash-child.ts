/**
 * A busy writer for the SIGKILL test: `npx tsx test-support/crash-child.ts DIR [SEED]` (the test
 * runs it bundled: `bundleScript`).
 * Opens the file repository on DIR, takes over every chat in it, then creates, renames, deletes and
 * streams into chats until killed. After each change it has flushed it prints one line on stdout:
 *   ready
 *   created <chatId>
 *   renamed <chatId> <n>                     (the title is `Title <n>`, n only grows)
 *   deleting <chatId>                        (before the delete starts: the chat may go any time)
 *   deleted <chatId>
 *   done <chatId> <messageId> <sha1 of the message's first text>
 * Exits by itself when stdin closes (its parent died) or after 60 s, so it never lingers.
 */
import { createHash } from 'node:crypto';
import { makeId } from '../shared/ids.ts';
import type { AssistantMessage, Message } from '../shared/schemas.ts';
import { createFileChatRepository } from '../server/persistence/file-chat-repository.ts';
import { assistantMessage, FakeServer, userMessage } from './persistence-fixtures.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: crash-child.ts DIR [SEED]');
  process.exit(2);
}

// A small deterministic generator, so a failing seed can be replayed.
let seed = Number(process.argv[3] ?? Date.now()) >>> 0 || 1;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function firstText(message: Message): string {
  const part = message.content.find((p) => p.type === 'text');
  return part && part.type === 'text' ? part.text : '';
}

process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
setTimeout(() => process.exit(0), 60_000).unref();

const say = (line: string): void => {
  process.stdout.write(line + '\n');
};
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function main(): Promise<void> {
  const server = new FakeServer();
  const repo = createFileChatRepository({
    dir: dir!,
    writeDelayMs: 15,
    log: (level, message) => process.stderr.write(`${level}: ${message}\n`),
  });
  server.repo = repo;
  const index = await repo.open();
  for (const info of index.chats) server.adopt(info, await repo.loadMessages(info.id));
  let titles = Math.max(0, ...index.chats.map((c) => Number(/^Title (\d+)$/.exec(c.title)?.[1] ?? 0)));
  say('ready');

  for (;;) {
    const ids = [...server.chats.keys()];
    const roll = random();
    if (ids.length < 2 || (roll < 0.08 && ids.length < 8)) {
      const id = makeId('chat');
      server.createChat(id, `Title ${++titles}`);
      await repo.flush();
      say(`created ${id}`);
    } else if (roll < 0.13 && ids.length > 3) {
      const id = pick(ids);
      say(`deleting ${id}`);
      server.chats.delete(id);
      await repo.deleteChat(id);
      say(`deleted ${id}`);
    } else if (roll < 0.22) {
      const id = pick(ids);
      const n = ++titles;
      server.rename(id, `Title ${n}`);
      await repo.flush();
      say(`renamed ${id} ${n}`);
    } else {
      await exchange(server, pick(ids));
    }
  }

  async function exchange(fake: FakeServer, chatId: string): Promise<void> {
    const user = userMessage(makeId('m'), `question ${random().toString(36)} "quoted"\n`);
    fake.addMessage(chatId, user, true);
    await repo.flush();
    say(`done ${chatId} ${user.id} ${hashText(firstText(user))}`);

    const reply: AssistantMessage = assistantMessage(makeId('m'), '', { status: 'streaming' });
    const at = fake.addMessage(chatId, reply, false);
    const deltas = 20 + Math.floor(random() * 400);
    for (let i = 0; i < deltas; i++) {
      fake.edit(chatId, [{ op: 'append', path: `/${at}/content/0/text`, value: `w${i % 10}é ` }]);
      if (i % 8 === 0) await tick();
      if (i === 50) {
        fake.edit(chatId, [
          {
            op: 'add',
            path: `/${at}/content/-`,
            value: { type: 'tool-call', toolCallId: `call_${i}`, toolName: 'read', input: { i }, runtime: 'cli', requiresApproval: false, state: 'running' },
          },
        ]);
      }
    }
    const ops = [{ op: 'replace' as const, path: `/${at}/status`, value: 'done' }];
    const message = fake.chats.get(chatId)!.messages[at] as AssistantMessage;
    const call = message.content.findIndex((p) => p.type === 'tool-call');
    if (call >= 0) ops.push({ op: 'replace', path: `/${at}/content/${call}/state`, value: 'done' });
    fake.edit(chatId, ops, true);
    await repo.flush();
    say(`done ${chatId} ${reply.id} ${hashText(firstText(message))}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
