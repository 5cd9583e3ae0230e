/**
 * Puts a long chat on disk before a server starts, through the public ChatRepository contract
 * (the same file repository the server then opens), and makes it the active chat.
 */
import { randomUUID } from 'node:crypto';
import { makeId } from '../shared/ids.ts';
import type { ChatInfo, Message } from '../shared/schemas.ts';
import { createFileChatRepository } from '../server/persistence/file-chat-repository.ts';
import { BENCH_AGENT_ID } from './bench-agent.ts';
import { createRandom } from '../test-support/seeded-random.ts';
import { makeReplyText } from './reply-text.ts';

/**
 * A chat history of `count` messages alternating user (80–400 chars) and assistant (200–2,000
 * chars) turns of the bench's markdown, with UUID message ids. Deterministic for a seed.
 *
 * @example makeHistory(500).length === 500
 */
export function makeHistory(count: number, seed = 7): Message[] {
  const random = createRandom(seed);
  const pool = makeReplyText(200_000, seed);
  const slice = (min: number, max: number) => {
    const length = min + Math.floor(random() * (max - min));
    const start = Math.floor(random() * (pool.length - length));
    return pool.slice(start, start + length);
  };
  const t0 = 1_700_000_000_000;
  return Array.from({ length: count }, (_, i): Message =>
    i % 2 === 0
      ? {
          id: randomUUID(),
          role: 'user',
          content: [{ type: 'text', text: slice(80, 400) }],
          metadata: { source: 'toolbar', selectedElements: [] },
          agent: BENCH_AGENT_ID,
          createdAt: t0 + i * 1000,
        }
      : {
          id: randomUUID(),
          role: 'assistant',
          agent: BENCH_AGENT_ID,
          content: [{ type: 'text', text: slice(200, 2000) }],
          status: 'done',
          createdAt: t0 + i * 1000,
        },
  );
}

/**
 * Writes one chat into `dataDir` and marks it active; returns its id. `history` is a message
 * count (the bench's history, see makeHistory) or the messages themselves.
 *
 * @example await seedActiveChat(dir, 2000)
 */
export async function seedActiveChat(dataDir: string, history: number | Message[]): Promise<string> {
  const chatId = makeId('chat');
  const messages = typeof history === 'number' ? makeHistory(history) : history;
  const count = messages.length;
  const info: ChatInfo = {
    id: chatId,
    title: `Bench history (${count} messages)`,
    createdAt: messages[0]?.createdAt ?? Date.now(),
    updatedAt: messages[messages.length - 1]?.createdAt ?? Date.now(),
    messageCount: messages.length,
    agent: BENCH_AGENT_ID,
  };
  const repo = createFileChatRepository({
    dir: dataDir,
    log: (level, message) => console.error(`[bench seed] ${level}: ${message}`),
  });
  await repo.open();
  repo.recordInfo(chatId, { info, messages });
  repo.setMeta({ activeChatId: chatId, agentState: {} });
  await repo.close();
  return chatId;
}
