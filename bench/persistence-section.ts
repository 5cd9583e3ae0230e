/**
 * Section 6: persistence. Calls `measurePersistence` (bench/persistence-measure.ts,
 * owned by the persistence work) when it exists, and measures a real server starting over
 * 1,000 chats × 50 messages: `startServer` time and the process's RSS.
 */
import { randomUUID } from 'node:crypto';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeId } from '../shared/ids.ts';
import type { ChatInfo, Message } from '../shared/schemas.ts';
import { encodeChatFile, makeGeneration } from '../server/persistence/chat-file-format.ts';
import { resolveChatPaths } from '../server/persistence/chat-paths.ts';
import { createFileChatRepository } from '../server/persistence/file-chat-repository.ts';
import { connectBenchClient, waitConnected } from './bench-client.ts';
import { nowMs } from './clock.ts';
import { atMost, below, judge, type Section } from './report.ts';
import { makeHistory } from './seed-chat.ts';
import { spawnBenchServer } from './server-handle.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MEASURE_MODULE = path.resolve(HERE, './persistence-measure.ts');
const MB = 1024 * 1024;

export interface StartFigures {
  chats: number;
  messages: number;
  startServerMs: number;
  rssAfterStartMb: number;
  firstSnapshotMs: number;
  rssAfterSnapshotMb: number;
  snapshotBytes: number;
}

export interface PersistenceFigures {
  /** What measurePersistence returned, or why it could not run. */
  repository: Record<string, unknown> | { unavailable: string };
  start: StartFigures;
}

async function callMeasurePersistence(chats: number, messages: number): Promise<Record<string, unknown> | { unavailable: string }> {
  try {
    await access(MEASURE_MODULE);
  } catch {
    return { unavailable: 'bench/persistence-measure.ts does not exist' };
  }
  const mod = (await import(MEASURE_MODULE)) as { measurePersistence?: (options: { chats: number; messages: number }) => Promise<Record<string, unknown>> };
  if (typeof mod.measurePersistence !== 'function') return { unavailable: 'persistence-measure.ts exports no measurePersistence' };
  return mod.measurePersistence({ chats, messages });
}

/** Writes `chats` chats of `messages` messages in the chat file format, one of them active. */
async function writeManyChats(dataDir: string, chats: number, messages: number): Promise<void> {
  const history = makeHistory(messages);
  const repo = createFileChatRepository({ dir: dataDir, log: () => {} });
  await mkdir(repo.chatsDir, { recursive: true });
  const ids: string[] = [];
  for (let start = 0; start < chats; start += 50) {
    const writes: Promise<void>[] = [];
    for (let c = start; c < Math.min(chats, start + 50); c++) {
      const id = makeId('chat');
      ids.push(id);
      const own: Message[] = history.map((m) => ({ ...m, id: randomUUID() }));
      const info: ChatInfo = { id, title: `Bench chat ${c}`, createdAt: 1_700_000_000_000 + c, updatedAt: 1_700_000_000_000 + c, messageCount: own.length };
      writes.push(writeFile(resolveChatPaths(repo.chatsDir, id).chat, encodeChatFile(info, own, makeGeneration())));
    }
    await Promise.all(writes);
  }
  await repo.open();
  repo.setMeta({ activeChatId: ids[ids.length - 1] ?? null, agentState: {} });
  await repo.close();
}

async function measureStart(chats: number, messages: number): Promise<StartFigures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-bench-start-'));
  try {
    await writeManyChats(dataDir, chats, messages);
    const server = await spawnBenchServer({ perMessageDeflate: true, dataDir });
    try {
      const t0 = nowMs();
      const client = connectBenchClient({ url: server.url, token: server.token, perMessageDeflate: true });
      await waitConnected([client]);
      const firstSnapshotMs = nowMs() - t0;
      const snapshotBytes = client.meter.payloadBytes;
      client.close();
      const memory = await server.ask<NodeJS.MemoryUsage>('memory');
      return {
        chats,
        messages,
        startServerMs: server.startMs,
        rssAfterStartMb: server.rssAfterStart / MB,
        firstSnapshotMs,
        rssAfterSnapshotMb: memory.rss / MB,
        snapshotBytes,
      };
    } finally {
      await server.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function measurePersistenceSection(config: { smoke: boolean }): Promise<PersistenceFigures> {
  const chats = config.smoke ? 100 : 1000;
  const messages = config.smoke ? 20 : 50;
  const repository = await callMeasurePersistence(chats, messages);
  return { repository, start: await measureStart(chats, messages) };
}

function num(record: Record<string, unknown>, key: string): number | null {
  const value = record[key];
  return typeof value === 'number' ? value : null;
}

export function persistenceSection(figures: PersistenceFigures): Section {
  const { repository, start } = figures;
  const scale = `${start.chats.toLocaleString('en-US')} chats × ${start.messages} messages`;
  const disk = atMost(3, ' B/text B');
  const startTarget = below(1000, ' ms');
  const rss = below(150, ' MB');
  const rows: (string | number | null)[][] = [];
  const notes: string[] = [];
  if ('unavailable' in repository) {
    rows.push(['repository figures (measurePersistence)', 'not available', '', '', '']);
    notes.push(`measurePersistence not available: ${repository.unavailable}.`);
  } else {
    const bytes = num(repository, 'bytesPerTextByte');
    rows.push(
      [`repository open(), ${scale}`, num(repository, 'openMs'), 'ms', '', ''],
      ['repository loadMessages() of one chat', num(repository, 'loadMessagesMs'), 'ms', '', ''],
      ['disk bytes per streamed text byte', bytes, 'B/text B', disk.text, judge(bytes, disk)],
    );
    for (const key of ['rss', 'rssMb', 'heapUsed']) {
      if (num(repository, key) !== null) rows.push([`repository ${key}`, num(repository, key), '', '', '']);
    }
    notes.push(
      `Repository rows come from measurePersistence (bench/persistence-measure.ts): its own chats and its own 50,000-char reply in 4-char deltas at 100 deltas/s, run ${String(repository.timeScale ?? '?')}× faster than real time with the write delay scaled alike. Raw result in latest.json.`,
    );
  }
  rows.push(
    [`startServer() over ${scale}`, start.startServerMs, 'ms', startTarget.text, judge(start.startServerMs, startTarget)],
    ['server RSS after start', start.rssAfterStartMb, 'MB', rss.text, judge(start.rssAfterStartMb, rss)],
    ['server RSS after a client took its snapshot', start.rssAfterSnapshotMb, 'MB', rss.text, judge(start.rssAfterSnapshotMb, rss)],
    ['connect → snapshot applied (first client)', start.firstSnapshotMs, 'ms', '', ''],
  );
  notes.push(
    'Server rows: chat files written in the repository\'s format (bench history: UUID ids, ~600 chars per message), the last one active, then a real server child (node --import tsx, so the RSS includes tsx) timed around startServer() and read with process.memoryUsage().',
  );
  return {
    key: 'persistence',
    title: '6. Persistence and start',
    columns: ['metric', 'value', 'unit', 'target', 'result'],
    rows,
    notes,
    data: figures,
  };
}
