/**
 * The real `agentbar serve` (demo agents) as a child process, for the browser tests and the tour:
 * started with `--port 0` in a temp data dir, found through the connection file it writes, stopped
 * with SIGTERM (SIGKILL if it hangs), and restartable on the same port, token and data dir so an
 * open page can reconnect to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO_ROOT, 'bin', 'agentbar.mjs');

/**
 * Preloaded into the child: it exits once its stdin closes, which happens when the process that
 * started it dies however it dies (a killed test runner leaves no server behind). The server
 * itself never reads stdin.
 */
const WATCHDOG = 'data:text/javascript,process.stdin.on("end",()=>process.exit(70)).on("error",()=>process.exit(70)).resume();';

const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;
const MAX_OUTPUT = 64 * 1024;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface DemoServerOptions {
  /** `AGENTBAR_DEMO_PACE_MS`: delay between streamed pieces. Default 5. */
  paceMs?: number;
  /** Default: a new temp dir, removed by `dispose()`. */
  dataDir?: string;
}

interface ConnectionFile {
  url: string;
  http: string;
  token: string;
  pid: number;
}

async function readConnectionFile(dataDir: string): Promise<ConnectionFile | null> {
  try {
    return JSON.parse(await readFile(path.join(dataDir, 'server.json'), 'utf8')) as ConnectionFile;
  } catch {
    // Not written yet, or caught half written.
    return null;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One running (or stopped) demo server; `restart()` brings it back on the same address. */
export class DemoServer {
  /** `http://127.0.0.1:PORT`, the demo page's origin. */
  httpUrl = '';
  /** `ws://127.0.0.1:PORT/ws`. */
  wsUrl = '';
  token = '';
  port = 0;
  pid = 0;
  /** The last exit of a stopped server. */
  lastExit: Exit | null = null;
  private child: ChildProcess | null = null;
  private exited: Promise<Exit> = Promise.resolve({ code: 0, signal: null });
  private output = '';

  private constructor(
    readonly dataDir: string,
    readonly paceMs: number,
    private readonly ownsDataDir: boolean,
  ) {}

  /**
   * Starts `agentbar serve --port 0 --data-dir DIR` and resolves once it listens.
   *
   * @example const server = await DemoServer.start({ paceMs: 5 }); await page.goto(server.httpUrl);
   */
  static async start(options: DemoServerOptions = {}): Promise<DemoServer> {
    const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'agentbar-e2e-')));
    const server = new DemoServer(dataDir, options.paceMs ?? 5, !options.dataDir);
    try {
      await server.launch(['--port', '0']);
    } catch (error) {
      if (server.ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
    return server;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the server printed (the last 64 KiB), for failure messages. */
  get log(): string {
    return this.output;
  }

  /** SIGTERM, then SIGKILL after a grace period; resolves with the exit. */
  async stop(): Promise<Exit> {
    const child = this.child;
    if (!child) return this.lastExit ?? { code: 0, signal: null };
    if (this.running) child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      this.exited,
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), STOP_GRACE_MS))),
    ]);
    clearTimeout(timer);
    if (exit) return (this.lastExit = exit);
    child.kill('SIGKILL');
    return (this.lastExit = await this.exited);
  }

  /** Starts it again on the same port, token and data dir (after `stop()`, or stops it first). */
  async restart(): Promise<void> {
    await this.stop();
    await this.launch(['--port', String(this.port), '--token', this.token]);
  }

  /** Stops it and removes the temp data dir it created. */
  async dispose(): Promise<void> {
    await this.stop();
    if (this.ownsDataDir) await rm(this.dataDir, { recursive: true, force: true });
  }

  private async launch(extraArgs: string[]): Promise<void> {
    const env: NodeJS.ProcessEnv = { ...process.env, AGENTBAR_DEMO_PACE_MS: String(this.paceMs) };
    delete env.AGENTBAR_DATA_DIR;
    const child = spawn(process.execPath, ['--import', WATCHDOG, BIN, 'serve', '--data-dir', this.dataDir, ...extraArgs], {
      cwd: REPO_ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.lastExit = null;
    const keep = (d: string) => {
      this.output = (this.output + d).slice(-MAX_OUTPUT);
    };
    child.stdout!.setEncoding('utf8').on('data', keep);
    child.stderr!.setEncoding('utf8').on('data', keep);
    child.stdin!.on('error', () => {});
    this.exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const file = await readConnectionFile(this.dataDir);
      // A file left by a killed server names another pid.
      if (file && file.pid === child.pid && file.token && file.http) {
        this.httpUrl = file.http;
        this.wsUrl = file.url;
        this.token = file.token;
        this.port = Number(new URL(file.http).port);
        this.pid = file.pid;
        return;
      }
      if (!this.running || Date.now() > deadline) {
        await this.stop();
        throw new Error(`agentbar serve did not start (${JSON.stringify(this.lastExit)}):\n${this.output}`);
      }
      await delay(20);
    }
  }
}
