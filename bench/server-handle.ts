/**
 * Starts a bench server child (server-child.ts through `node --import tsx`), pinned to core 0 with
 * `taskset` when asked and possible, and talks to it over IPC.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildCommand, ChildOptions } from './server-child.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');

export interface BenchServer {
  url: string;
  token: string;
  httpUrl: string;
  pid: number;
  /** How long `startServer` took in the child (ms). */
  startMs: number;
  /** The child's RSS right after `startServer` (bytes). */
  rssAfterStart: number;
  /** True when the child runs pinned to one core. */
  pinned: boolean;
  ask<T>(command: ChildCommand): Promise<T>;
  /** CPU time of the server process (user + system, every thread) in ms. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

interface ReadyInfo {
  url: string;
  token: string;
  httpUrl: string;
  pid: number;
  startMs: number;
  rssAfterStart: number;
}

let tasksetAvailable: boolean | null = null;

/**
 * True when `taskset` runs here and there are at least two cores (one for the server, the rest
 * for clients). BENCH_NO_PIN=1 turns pinning off (to see what it changes).
 */
export function canPin(): boolean {
  tasksetAvailable ??= !process.env.BENCH_NO_PIN && os.cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  return tasksetAvailable;
}

/**
 * Starts a server child; with `pin: true` it runs pinned to core 0 (when `taskset` and 2+ cores exist).
 *
 * @example const server = await spawnBenchServer({ perMessageDeflate: true }); await server.close();
 */
export async function spawnBenchServer(options: ChildOptions, spawnOptions: { pin?: boolean } = {}): Promise<BenchServer> {
  const pinned = (spawnOptions.pin ?? false) && canPin();
  // BENCH_CPU_PROF=dir writes a V8 CPU profile of each server child there (see README: profiling).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const nodeArgs = [...profile, '--import', 'tsx', path.join(HERE, 'server-child.ts'), JSON.stringify(options)];
  const child: ChildProcess = pinned
    ? spawn('taskset', ['-c', '0', process.execPath, ...nodeArgs], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    : spawn(process.execPath, nodeArgs, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });

  let nextId = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  let exited = false;
  const ready = new Promise<ReadyInfo>((resolve, reject) => {
    child.on('message', (msg: { ready?: ReadyInfo; id?: number; result?: unknown }) => {
      if (msg.ready) return resolve(msg.ready);
      if (msg.id !== undefined) {
        waiting.get(msg.id)?.(msg.result);
        waiting.delete(msg.id);
      }
    });
    child.once('exit', (code) => {
      exited = true;
      reject(new Error(`The bench server exited early (code ${code})`));
      for (const resolveWaiting of waiting.values()) resolveWaiting(undefined);
      waiting.clear();
    });
  });
  const info = await ready;

  const ask = <T>(command: ChildCommand): Promise<T> =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error('The bench server is gone'));
      const id = ++nextId;
      waiting.set(id, resolve as (result: unknown) => void);
      child.send({ id, command });
    });

  let closing: Promise<void> | null = null;
  return {
    ...info,
    pinned,
    ask,
    async cpuMs() {
      const usage = await ask<{ userMs: number; systemMs: number }>('cpu');
      return usage.userMs + usage.systemMs;
    },
    close: () =>
      (closing ??= (async () => {
        if (exited) return;
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await ask('close').catch(() => {});
        await gone;
        clearTimeout(timer);
      })()),
  };
}
