/**
 * One ACP agent process: started on first use, spoken to over stdio as an ACP client (the SDK's
 * `client()` and `ndJsonStream`), started again on the next use after it dies. Its stdout must be
 * ACP: a line that is not JSON stops it (a turn would otherwise wait forever). Its stderr is kept,
 * bounded, to explain a failure. Updates and permission requests are routed by session to
 * whichever turn is listening.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type AvailableCommand,
  type SessionConfigOption,
  type ClientConnection,
  type ClientContext,
  type InitializeResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionUpdate,
  type UsageUpdate,
} from '@agentclientprotocol/sdk';
import { checkLines } from './check-lines.ts';
import { describeAcpError } from './describe-acp-error.ts';
import { readTextInside, writeTextInside } from './fs-access.ts';
import { HeldNotices, type NoticeUpdate } from './held-notices.ts';
import { readWarningChunk } from './known-warnings.ts';
import { findStartHint } from './start-failure-hints.ts';
import { StderrRecord } from './stderr-record.ts';

/** What a turn in progress listens to. */
export interface SessionSink {
  update(update: SessionUpdate): void;
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
}

export interface AcpProcessOptions {
  command: string;
  args: readonly string[];
  /** The agent's working folder: its sessions start there and file access stays inside it. */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** How long starting and `initialize` may take. */
  startTimeoutMs?: number;
  log?: (level: 'info' | 'warn', message: string) => void;
  /** The agent announced the commands it takes (`/name` messages), in any session. */
  onCommands?: (commands: readonly AvailableCommand[]) => void;
  /** The agent gave a session's config options anew (`config_option_update`), during a turn or between turns. */
  onConfigOptions?: (sessionId: string, options: SessionConfigOption[]) => void;
  /** The agent changed a session's mode (`current_mode_update`), during a turn or between turns. */
  onModeUpdate?: (sessionId: string, modeId: string) => void;
  /** The agent said how full a session's context is (`usage_update`), during a turn or between turns. */
  onUsage?: (sessionId: string, usage: UsageUpdate) => void;
  /** The agent named a session (`session_info_update` with a title), during a turn or between turns. */
  onTitle?: (sessionId: string, title: string) => void;
}

export interface AcpSession {
  agent: ClientContext;
  init: InitializeResponse;
  /** Sessions this process knows (created or loaded since it started). */
  known: Set<string>;
  /** The environment the process runs with: what it can sign in with. */
  env: NodeJS.ProcessEnv;
  /**
   * Resolves once the session has sent nothing for a moment (at most 2 s): an agent may go on
   * replaying a loaded session's history after it answered `session/load` (Codex does), and a
   * turn that listened meanwhile would show that history as its reply.
   */
  settle?: (sessionId: string) => Promise<void>;
}

/** How long a loaded session must be silent before a turn listens to it, and the longest wait for that. */
const SETTLE_QUIET_MS = 150;
const SETTLE_MAX_MS = 2000;
/** Sessions whose last update time is kept: enough for every open chat. */
const MAX_TRACKED_SESSIONS = 500;

export interface FailureContext {
  /** The failure came as the agent started or opened a session (not during a turn). */
  starting?: boolean;
}

/**
 * Why a command did not start, in the words a user acts on: spawn's ENOENT means the program is
 * not on the PATH (the folder was checked when the agent was set up).
 *
 * @example describeSpawnError('gemini', enoent) // 'Cannot start gemini: command not found (ENOENT); …'
 */
function describeSpawnError(command: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return `Cannot start ${command}: command not found (ENOENT); is it installed, and on the PATH of the agentbar server?`;
  if (error.code === 'EACCES') return `Cannot start ${command}: permission denied (EACCES); is it an executable file?`;
  return `Cannot start ${command}: ${error.message}`;
}

export class AcpProcess {
  private child: ChildProcess | null = null;
  private connection: ClientConnection | null = null;
  private starting: Promise<AcpSession> | null = null;
  private readonly stderr = new StderrRecord();
  private stderrEnded: Promise<void> | null = null;
  private garbage: string | null = null;
  private exited: Promise<number | null> | null = null;
  private exitCode: number | null | undefined = undefined;
  private readonly sinks = new Map<string, SessionSink>();
  private readonly heldNotices = new HeldNotices();
  /** When each session last sent an update, for `settle`. */
  private readonly lastUpdateAt = new Map<string, number>();

  constructor(private readonly o: AcpProcessOptions) {}

  /**
   * The running process, initialized; starts it (again) when needed.
   *
   * @example const { agent, init } = await acp.ensure();
   */
  ensure(): Promise<AcpSession> {
    if (!this.starting) {
      this.starting = this.start();
      this.starting.catch(() => (this.starting = null));
    }
    return this.starting;
  }

  /** Routes a session's updates and permission requests to a turn. */
  listen(sessionId: string, sink: SessionSink): void {
    this.sinks.set(sessionId, sink);
    // What the agent told while nobody listened (as the session started, say) comes first.
    for (const notice of this.heldNotices.take(sessionId)) sink.update(notice);
  }

  /** The turn stops listening, unless a newer turn of the session already took its place. */
  unlisten(sessionId: string, sink: SessionSink): void {
    if (this.sinks.get(sessionId) === sink) this.sinks.delete(sessionId);
  }

  /**
   * Why the process failed, for the user: its exit, garbage it wrote, or its answer; what its
   * stderr says (the first error line, then its last lines); and what to do when the cause is known.
   *
   * @example throw new Error(await acp.describeFailure(error, { starting: true }));
   */
  async describeFailure(error: unknown, context: FailureContext = {}): Promise<string> {
    const reason = describeAcpError(error);
    const failed = `The agent failed: ${reason.replace(/[.!?]$/, '')}.`;
    // An error the agent answered with comes from a live process: its answer is its account, and
    // there is no exit to wait for. Only a failure to start says more (the stderr of what it runs).
    const answered = error instanceof RequestError && this.exitCode === undefined && this.garbage === null;
    if (answered && !context.starting) return failed;
    if (!answered) await this.waitForExit();
    // What it wrote to stderr before it answered may still wait to be read.
    else await new Promise((resolve) => setImmediate(resolve));
    const said = this.stderr.summarize({ answered });
    const output = said ? ` Its output: ${said}${/[.!?]$/.test(said) ? '' : '.'}` : '';
    const hint = findStartHint(`${reason}\n${this.stderr.text}`);
    const end = `${output}${hint ? ` ${hint}` : ''}`;
    if (this.garbage !== null) return `The agent wrote something that is not ACP to stdout ("${this.garbage.slice(0, 120)}"), so agentbar stopped it.${end}`;
    if (this.exitCode !== undefined) return `The agent process exited${this.exitCode === null ? '' : ` with code ${this.exitCode}`}.${end}`;
    return `${failed}${end}`;
  }

  /** The exit code and the last of stderr come after stdout closes: waits a moment for them. */
  private async waitForExit(): Promise<void> {
    if (!this.exited || this.exitCode !== undefined) return;
    const moment = new Promise((r) => setTimeout(r, 2000).unref());
    await Promise.race([Promise.all([this.exited, this.stderrEnded]), moment]);
  }

  /** Whether the process is running now. */
  get running(): boolean {
    return this.child !== null && this.exitCode === undefined;
  }

  /** Stops the process (server shutdown); waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || this.exitCode !== undefined) return;
    this.connection?.close();
    signalTree(child, 'SIGTERM');
    const killer = setTimeout(() => signalTree(child, 'SIGKILL'), 3000);
    killer.unref();
    await this.exited;
    clearTimeout(killer);
  }

  private noteUpdate(sessionId: string): void {
    this.lastUpdateAt.delete(sessionId);
    this.lastUpdateAt.set(sessionId, Date.now());
    if (this.lastUpdateAt.size > MAX_TRACKED_SESSIONS) this.lastUpdateAt.delete(this.lastUpdateAt.keys().next().value!);
  }

  private async settle(sessionId: string): Promise<void> {
    const deadline = Date.now() + SETTLE_MAX_MS;
    for (;;) {
      const quietFor = Date.now() - (this.lastUpdateAt.get(sessionId) ?? 0);
      if (quietFor >= SETTLE_QUIET_MS || Date.now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(SETTLE_QUIET_MS - quietFor, deadline - Date.now())));
    }
  }

  private async start(): Promise<AcpSession> {
    this.stderr.clear();
    this.garbage = null;
    this.exitCode = undefined;
    // A group of its own, so stopping it stops what it started too (see signalTree).
    const env = this.o.env ?? process.env;
    const child = spawn(this.o.command, [...this.o.args], { cwd: this.o.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: GROUPS });
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => {
        if (this.child === child) this.exitCode = code;
        // What it started and left behind goes with it.
        signalTree(child, 'SIGTERM');
        resolve(code);
      });
      child.once('error', () => resolve(null));
    });
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => reject(new Error(describeSpawnError(this.o.command, error))));
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (this.child === child) this.stderr.add(chunk);
    });
    this.stderrEnded = new Promise((resolve) => child.stderr!.once('close', () => resolve()));
    child.stdin!.on('error', () => {});
    void this.exited.then(() => {
      if (this.child !== child) return;
      this.starting = null;
      this.connection?.close(new Error('The agent process exited'));
      this.connection = null;
    });
    await spawned;

    const stdout = checkLines(Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>, (line) => {
      this.garbage = line;
      signalTree(child, 'SIGKILL');
    });
    const stream = ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, stdout);
    const root = this.o.cwd;
    const app = client({ name: 'agentbar' })
      .onNotification(methods.client.session.update, ({ params }) => {
        this.noteUpdate(params.sessionId);
        // Announcements such as the agent's commands come right after a session starts, before a
        // turn listens: they go to the agent as a whole.
        if (params.update.sessionUpdate === 'available_commands_update') this.o.onCommands?.(params.update.availableCommands);
        if (params.update.sessionUpdate === 'config_option_update') this.o.onConfigOptions?.(params.sessionId, params.update.configOptions);
        if (params.update.sessionUpdate === 'current_mode_update') this.o.onModeUpdate?.(params.sessionId, params.update.currentModeId);
        if (params.update.sessionUpdate === 'usage_update') this.o.onUsage?.(params.sessionId, params.update);
        // A title often comes once a turn is over (an agent names the session from its first exchange).
        if (params.update.sessionUpdate === 'session_info_update' && typeof params.update.title === 'string') this.o.onTitle?.(params.sessionId, params.update.title);
        const sink = this.sinks.get(params.sessionId);
        const notice = sink ? null : readNotice(params.update);
        if (sink) sink.update(params.update);
        else if (notice) {
          const { severity, title, description } = notice;
          this.o.log?.(severity === 'info' ? 'info' : 'warn', `${this.o.command} (session ${params.sessionId}): ${title}${description ? ` (${description})` : ''}`);
          this.heldNotices.hold(params.sessionId, notice);
        }
      })
      .onRequest(methods.client.session.requestPermission, async ({ params, signal }) => {
        const sink = this.sinks.get(params.sessionId);
        // Nobody is there to ask (no turn in progress): the honest answer is "cancelled".
        if (!sink) return { outcome: { outcome: 'cancelled' } };
        return sink.requestPermission(params, signal);
      })
      .onRequest(methods.client.fs.readTextFile, ({ params }) => readTextInside(root, params).catch(toRequestError))
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => writeTextInside(root, params).catch(toRequestError));
    const connection = app.connect(stream);
    this.connection = connection;
    const init = await withTimeout(
      connection.agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        // Boolean config options show as switches, so agents may offer them (ACP v1 asks clients to say so).
        // Notices show on the reply (ACP v1 agents send them only to clients that say so).
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false, session: { configOptions: { boolean: {} }, notices: {} } },
        clientInfo: { name: 'agentbar', version: '0.1.0' },
      }),
      this.o.startTimeoutMs ?? 60_000,
      `${this.o.command} did not answer initialize`,
    ).catch(async (error) => {
      signalTree(child, 'SIGKILL');
      throw new Error(await this.describeFailure(error, { starting: true }));
    });
    this.o.log?.('info', `started ${this.o.command} (pid ${child.pid}), ACP v${init.protocolVersion}`);
    return { agent: connection.agent, init, known: new Set(), env, settle: (sessionId) => this.settle(sessionId) };
  }
}

/** An update that is a notice: ACP's own, or a known warning an agent sends as text (Codex's, as a session starts). */
function readNotice(update: SessionUpdate): NoticeUpdate | null {
  if (update.sessionUpdate === 'notice') return update;
  if (update.sessionUpdate !== 'agent_message_chunk' || update.content.type !== 'text') return null;
  const warning = readWarningChunk(update.content.text);
  return warning ? { sessionUpdate: 'notice', severity: 'warning', title: warning.title, ...(warning.description ? { description: warning.description } : {}) } : null;
}

/** Process groups exist (not on Windows, where the child alone is signalled). */
const GROUPS = process.platform !== 'win32';

/**
 * Signals the agent and every process it started. Agents are often started through something
 * (`npx`, a wrapper script) and start helpers of their own (Claude Code's adapter runs Claude Code):
 * a signal to the child alone left those running after agentbar stopped, one set per restart.
 */
function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (GROUPS && child.pid !== undefined) {
    try {
      process.kill(-child.pid, signal);
      return;
    } catch {
      // The group is gone already; the child itself may still be there to signal.
    }
  }
  child.kill(signal);
}

/** The agent sees why a file request failed (the SDK would send a bare "Internal error"). */
function toRequestError(error: unknown): never {
  const code = (error as NodeJS.ErrnoException)?.code;
  const message = error instanceof Error ? error.message : String(error);
  throw new RequestError(code === 'ENOENT' ? -32002 : -32602, message);
}

/** Rejects with `message` when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
