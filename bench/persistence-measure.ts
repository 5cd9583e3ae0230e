/**
 * Persistence bench: how long `open()` takes over many chats, and how many bytes reach the disk
 * per streamed text byte. Run `npx tsx bench/persistence-measure.ts [chats] [messages]`,
 * or call `measurePersistence` from the bench harness.
 */
import { mkdtempSync, promises as fsp, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { ChatInfo, Message } from '../shared/schemas.ts';
import { encodeChatFile, makeGeneration } from '../server/persistence/chat-file-format.ts';
import { createFileChatRepository } from '../server/persistence/file-chat-repository.ts';
import { assistantMessage, FakeServer, userMessage } from '../test-support/persistence-fixtures.ts';

export interface PersistenceMeasurement {
  chats: number;
  messages: number;
  /** `open()` over `chats` chat files of `messages` messages each. */
  openMs: number;
  /** Bytes `open()` read, all files together (headers only). */
  openBytesRead: number;
  chatsLoaded: number;
  /** One `loadMessages` of a `messages`-message chat. */
  loadMessagesMs: number;
  /** Disk bytes written per text byte for a 50,000-char reply in 4-char deltas at 100 deltas/s. */
  bytesPerTextByte: number;
  streamedChars: number;
  streamBytesWritten: number;
  /** The stream ran `timeScale` times faster than real time, the write delay likewise shorter. */
  timeScale: number;
}

function conversation(count: number, seed: number): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < count; i++) {
    const text = `Message ${i} of chat ${seed}: ` + 'some ordinary prose about a web page and its header. '.repeat(4);
    out.push(i % 2 === 0 ? userMessage(`m${i}`, text) : assistantMessage(`m${i}`, text));
  }
  return out;
}

async function writeChats(chatsDir: string, chats: number, messages: number): Promise<void> {
  await fsp.mkdir(chatsDir, { recursive: true });
  const batch = 32;
  for (let start = 0; start < chats; start += batch) {
    const writes: Promise<void>[] = [];
    for (let c = start; c < Math.min(chats, start + batch); c++) {
      const id = `chat_bench${c}`;
      const info: ChatInfo = { id, title: `Bench chat ${c}`, createdAt: c, updatedAt: c, messageCount: messages };
      writes.push(fsp.writeFile(path.join(chatsDir, `${id}.jsonl`), encodeChatFile(info, conversation(messages, c), makeGeneration())));
    }
    await Promise.all(writes);
  }
}

async function measureStream(dir: string, priorMessages: number, timeScale: number): Promise<{ chars: number; bytes: number }> {
  const server = new FakeServer();
  const repo = createFileChatRepository({ dir, writeDelayMs: 1000 / timeScale });
  server.repo = repo;
  await repo.open();
  server.createChat('chat_stream', 'Stream');
  for (const message of conversation(priorMessages, -1)) server.addMessage('chat_stream', message);
  await repo.flush();

  const before = repo.bytesWritten;
  const text = 'The quick brown fox jumps over the "lazy" dog;\n\tthen it writes some code. '.repeat(700).slice(0, 50_000);
  const index = server.addMessage('chat_stream', assistantMessage('m_reply', '', { status: 'streaming' }), false);
  const deltasPerMs = (100 * timeScale) / 1000;
  const start = performance.now();
  let sent = 0;
  while (sent < text.length) {
    // Catch up with the clock, so timer jitter changes the batching but not the rate.
    const due = Math.min(text.length, Math.floor((performance.now() - start) * deltasPerMs) * 4);
    for (; sent < due; sent += 4) {
      server.edit('chat_stream', [{ op: 'append', path: `/${index}/content/0/text`, value: text.slice(sent, sent + 4) }]);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  server.edit('chat_stream', [{ op: 'replace', path: `/${index}/status`, value: 'done' }], true);
  await repo.flush();
  const bytes = repo.bytesWritten - before;
  await repo.close();
  return { chars: text.length, bytes };
}

/**
 * @example const { openMs, bytesPerTextByte } = await measurePersistence({ chats: 1000, messages: 50 });
 */
export async function measurePersistence(
  options: { chats?: number; messages?: number; timeScale?: number } = {},
): Promise<PersistenceMeasurement> {
  const chats = options.chats ?? 1000;
  const messages = options.messages ?? 50;
  const timeScale = options.timeScale ?? 50;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agentbar-bench-persistence-'));
  try {
    await writeChats(path.join(dir, 'chats'), chats, messages);
    const repo = createFileChatRepository({ dir });
    const t0 = performance.now();
    const index = await repo.open();
    const openMs = performance.now() - t0;
    const openBytesRead = repo.bytesRead;
    let loadMessagesMs = 0;
    const first = index.chats[0];
    if (first) {
      const t1 = performance.now();
      await repo.loadMessages(first.id);
      loadMessagesMs = performance.now() - t1;
    }
    await repo.close();

    const streamDir = path.join(dir, 'stream');
    const stream = await measureStream(streamDir, messages, timeScale);
    return {
      chats,
      messages,
      openMs: Math.round(openMs * 10) / 10,
      openBytesRead,
      chatsLoaded: index.chats.length,
      loadMessagesMs: Math.round(loadMessagesMs * 10) / 10,
      bytesPerTextByte: Math.round((stream.bytes / stream.chars) * 1000) / 1000,
      streamedChars: stream.chars,
      streamBytesWritten: stream.bytes,
      timeScale,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [chats, messages] = process.argv.slice(2).map(Number);
  measurePersistence({ chats: chats || undefined, messages: messages || undefined }).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
