/**
 * A bench server in its own process (started by server-handle.ts, pinned to one core when
 * `taskset` exists): a real `startServer` with the bench agent and a temp data dir. It answers the
 * parent over IPC with its CPU time, the agent's append times and any warnings.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../server/server.ts';
import { createBenchAgent, type AppendLog } from './bench-agent.ts';
import { nowMs } from './clock.ts';
import { seedActiveChat } from './seed-chat.ts';

export interface ChildOptions {
  perMessageDeflate: boolean;
  /** `startServer({ maxDeflateClients })`; the server's default when absent. */
  maxDeflateClients?: number;
  /** Messages of an active chat written to disk before the server starts. */
  seedMessages?: number;
  /** Use this data dir (kept afterwards) instead of a new temp one. */
  dataDir?: string;
}

export type ChildCommand = 'cpu' | 'appends' | 'frames' | 'warnings' | 'memory' | 'clock' | 'close';

const MAX_WARNINGS = 50;
/** Frame times kept for the latency breakdown (a burst run has at most one frame per delta). */
const MAX_FRAME_TIMES = 20_000;

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as ChildOptions;
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'agentbar-bench-')));
  if (options.seedMessages) await seedActiveChat(dataDir, options.seedMessages);
  const log: AppendLog = { times: new Float64Array(0) };
  const warnings: string[] = [];
  const startedAt = performance.now();
  const server = await startServer({
    agents: [createBenchAgent(log)],
    port: 0,
    dataDir,
    writeConnectionFile: false,
    perMessageDeflate: options.perMessageDeflate,
    ...(options.maxDeflateClients !== undefined ? { maxDeflateClients: options.maxDeflateClients } : {}),
    // Hundreds of bench clients are the point of the scaling section.
    sockets: { maxSockets: 2_000 },
    log: (level, message) => {
      if (level !== 'info' && warnings.length < MAX_WARNINGS) warnings.push(`${level}: ${message}`);
    },
  });

  const startMs = performance.now() - startedAt;
  // When each patch frame left the store for the sockets: splits latency into server and delivery.
  let frameTimes: number[] = [];
  server.store.subscribe(() => {
    if (frameTimes.length < MAX_FRAME_TIMES) frameTimes.push(nowMs());
  });

  let closing: Promise<void> | null = null;
  const shutdown = () =>
    (closing ??= (async () => {
      await server.close();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    })());

  process.on('message', (raw: { id: number; command: ChildCommand }) => {
    const reply = (result: unknown) => process.send?.({ id: raw.id, result });
    switch (raw.command) {
      case 'cpu': {
        const usage = process.cpuUsage();
        return reply({ userMs: usage.user / 1000, systemMs: usage.system / 1000 });
      }
      case 'appends':
        return reply(Array.from(log.times));
      case 'frames': {
        const times = frameTimes;
        frameTimes = [];
        return reply(times);
      }
      case 'warnings':
        return reply(warnings.splice(0));
      case 'memory':
        return reply(process.memoryUsage());
      case 'clock':
        // The same instant on both clocks, to turn append times into epoch ms (browser bench).
        return reply({ hr: nowMs(), epoch: performance.timeOrigin + performance.now() });
      case 'close':
        void shutdown().then(() => {
          reply(true);
          process.disconnect?.();
        });
        return;
    }
  });
  // The parent died or let go: never leave a server behind.
  process.on('disconnect', () => void shutdown().then(() => process.exit(0)));
  process.send?.({ ready: { url: server.url, token: server.token, httpUrl: server.httpUrl, pid: process.pid, startMs, rssAfterStart: process.memoryUsage().rss } });
}

main().catch((error: unknown) => {
  console.error(`[bench server] ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
