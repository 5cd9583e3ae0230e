/**
 * The real `agentbar serve` (demo agents) as a child process, for the browser tests and the tour:
 * started with `--port 0` in a temp data dir, found through the connection file it writes, stopped
 * with SIGTERM (SIGKILL if it hangs), and restartable on the same port, token and data dir so an
 * open page can reconnect to it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type Exit, type SpawnedServer } from '../test-support/spawn-server.ts';

const STOP_GRACE_MS = 5_000;

export type { Exit };

export interface DemoServerOptions {
  /** `AGENTBAR_DEMO_PACE_MS`: delay between streamed pieces. Default 5. */
  paceMs?: number;
  /** Default: a new temp dir, removed by `dispose()`. */
  dataDir?: string;
  /** More `agentbar serve` flags, e.g. `['--model', 'm', '--base-url', url]`; kept on restart. */
  args?: string[];
  /**
   * Holds the demo's long reply and its reasoning after their first line until `openGate()`
   * (`DemoGate`), so a test acts while a reply surely goes on. Default false.
   */
  gate?: boolean;
}

/** One running (or stopped) demo server; `restart()` brings it back on the same address. */
export class DemoServer {
  /** `http://127.0.0.1:PORT`, the demo page's origin. */
  httpUrl = '';
  /** `ws://127.0.0.1:PORT/ws`. */
  wsUrl = '';
  token = '';
  port = 0;
  /** The demo page for a browser that holds the token: the server signs it in (a cookie and a stored browser key) and the page leaves this address for `/`. */
  get pageUrl(): string {
    return `${this.httpUrl}/?token=${encodeURIComponent(this.token)}`;
  }
  pid = 0;
  /** The last exit of a stopped server. */
  lastExit: Exit | null = null;
  private proc: SpawnedServer | null = null;

  private constructor(
    readonly dataDir: string,
    readonly paceMs: number,
    private readonly ownsDataDir: boolean,
    private readonly extraArgs: string[] = [],
    readonly gated = false,
  ) {}

  /**
   * Starts `agentbar serve --port 0 --data-dir DIR` and resolves once it listens.
   *
   * @example const server = await DemoServer.start({ paceMs: 5 }); await page.goto(server.httpUrl);
   */
  static async start(options: DemoServerOptions = {}): Promise<DemoServer> {
    const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'agentbar-e2e-')));
    const server = new DemoServer(dataDir, options.paceMs ?? 5, !options.dataDir, options.args ?? [], options.gate ?? false);
    try {
      await server.launch(['--port', '0']);
    } catch (error) {
      if (server.ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
    return server;
  }

  get running(): boolean {
    const child = this.proc?.child;
    return !!child && child.exitCode === null && child.signalCode === null;
  }

  /** What the server printed (the last 64 KiB of each stream), for failure messages. */
  get log(): string {
    return this.proc ? this.proc.stdout + this.proc.stderr : '';
  }

  /** SIGTERM, then SIGKILL after a grace period; resolves with the exit. */
  async stop(): Promise<Exit> {
    const proc = this.proc;
    if (!proc) return this.lastExit ?? { code: 0, signal: null };
    if (this.running) proc.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      proc.exited,
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), STOP_GRACE_MS))),
    ]);
    clearTimeout(timer);
    return (this.lastExit = exit ?? (await proc.kill('SIGKILL')));
  }

  /** Lets the held replies go on, line after line, until `closeGate()` (a server started with `gate`). */
  openGate(): void {
    this.tellGate('open');
  }

  /** Holds the replies of the gate again, at their next line. A restarted server's gate starts closed. */
  closeGate(): void {
    this.tellGate('close');
  }

  private tellGate(line: 'open' | 'close'): void {
    if (!this.gated) throw new Error('This demo server has no gate: start it with { gate: true }');
    if (!this.running) throw new Error(`The demo server is not running; cannot ${line} its gate`);
    this.proc!.child.stdin!.write(`${line}\n`);
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

  private async launch(args: string[]): Promise<void> {
    this.lastExit = null;
    const proc = await spawnServer(this.dataDir, { args: [...args, ...this.extraArgs], env: { AGENTBAR_DEMO_PACE_MS: String(this.paceMs), ...(this.gated ? { AGENTBAR_DEMO_GATE: 'stdin' } : {}) } });
    this.proc = proc;
    this.httpUrl = proc.httpUrl;
    this.wsUrl = proc.url;
    this.token = proc.token;
    this.port = Number(new URL(proc.httpUrl).port);
    this.pid = proc.pid;
  }
}
