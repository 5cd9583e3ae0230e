/**
 * The real `agentbar serve` as a child process, for tests that kill it and for the browser tests
 * (`e2e/demo-server.ts`): spawns `node bin/agentbar.mjs serve --port 0 --data-dir DIR`, waits for the connection file it writes,
 * and keeps every child it made so `killSpawnedServers()` can end them after each test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tryReadConnectionFile } from '../server/host/connection-file.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO_ROOT, 'bin', 'agentbar.mjs');

/**
 * Loaded into the child before the CLI: it exits when its stdin closes, which happens when the
 * test process dies however it dies, so no server outlives the test run. The server itself never
 * reads stdin.
 */
const WATCHDOG = 'data:text/javascript,process.stdin.on("end",()=>process.exit(70)).on("error",()=>process.exit(70)).resume();';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CliProcess {
  child: ChildProcess;
  pid: number;
  /** Resolves once the process has exited (and been reaped). */
  exited: Promise<Exit>;
  readonly stdout: string;
  readonly stderr: string;
  /** Sends `signal` (default SIGKILL) unless it already exited; resolves with its exit. */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
}

export interface SpawnedServer extends CliProcess {
  dataDir: string;
  /** From `DATA_DIR/server.json`. */
  url: string;
  httpUrl: string;
  token: string;
}

export interface SpawnOptions {
  /** Extra environment, e.g. `{ AGENTBAR_DEMO_PACE_MS: '2' }`. */
  env?: Record<string, string>;
  /** How long to wait for the connection file. Default 20 s. */
  readyTimeoutMs?: number;
}

export interface SpawnServerOptions extends SpawnOptions {
  /** Arguments after `serve --data-dir DIR`. Default `['--port', '0']`. */
  args?: string[];
}

const live = new Set<CliProcess>();

/** True while a process with this pid exists (a zombie counts until it is reaped). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `agentbar ARGS` and returns at once. Output is collected (bounded to the last 64 KiB each).
 *
 * @example const cli = runCli(['serve', '--port', '0', '--data-dir', dir]); expect((await cli.exited).code).toBe(1);
 */
export function runCli(args: string[], options: SpawnOptions = {}): CliProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  delete env.AGENTBAR_DATA_DIR;
  const child = spawn(process.execPath, ['--import', WATCHDOG, BIN, ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const keep = (text: string) => (text.length > 65_536 ? text.slice(-65_536) : text);
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout = keep(stdout + d)));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = keep(stderr + d)));
  child.stdin!.on('error', () => {});
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const proc: CliProcess = {
    child,
    pid: child.pid!,
    exited,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

/**
 * Starts `agentbar serve --port 0 --data-dir DATA_DIR` and resolves once the connection file names
 * this child's pid (a file left by a killed server names another). Rejects, with the child's
 * output, when it exits first or is not ready in time.
 *
 * @example const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '2' } });
 */
export async function spawnServer(dataDir: string, options: SpawnServerOptions = {}): Promise<SpawnedServer> {
  const proc = runCli(['serve', '--data-dir', dataDir, ...(options.args ?? ['--port', '0'])], options);
  let exit: Exit | null = null;
  void proc.exited.then((e) => (exit = e));
  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  for (;;) {
    const file = await tryReadConnectionFile(dataDir);
    if (file && file.pid === proc.pid && typeof file.url === 'string' && typeof file.token === 'string') {
      return Object.assign(proc, { dataDir, url: file.url, httpUrl: file.http, token: file.token });
    }
    if (exit || Date.now() > deadline) {
      await proc.kill();
      throw new Error(
        `agentbar serve ${exit ? `exited (${JSON.stringify(exit)})` : 'was not ready in time'} before writing ${path.join(dataDir, 'server.json')}\n` +
          `stdout: ${proc.stdout}\nstderr: ${proc.stderr}`,
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** SIGKILLs every child still running and waits until each is gone; returns their pids. */
export async function killSpawnedServers(): Promise<number[]> {
  const procs = [...live];
  await Promise.all(procs.map((p) => p.kill('SIGKILL')));
  return procs.map((p) => p.pid);
}
