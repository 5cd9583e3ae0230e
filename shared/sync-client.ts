/**
 * The framework-free client of protocol v1 (`PROTOCOL.md`): it keeps one connection up, mirrors
 * the server's state from snapshots and patches, correlates requests with results and runs the
 * client's tools. Runs unchanged in Node and in browsers: no Node or DOM imports, timers through
 * `globalThis`, sockets behind `ConnectTransport`.
 */
import * as v from 'valibot';
import { DEFAULT_BACKOFF, computeBackoffDelay, type BackoffOptions } from './backoff.ts';
import { describeIssues } from './errors.ts';
import { LIMITS } from './limits.ts';
import { applyPatch } from './patch.ts';
import { PROTOCOL_VERSION, ServerFrameSchema, StateSchema } from './schemas.ts';
import type {
  ClientKind,
  ErrorFrame,
  Hello,
  PatchFrame,
  RequestPayload,
  RequestType,
  ResultFrame,
  ResultValues,
  SnapshotFrame,
  State,
  ToolCancelFrame,
  ToolDefinition,
  ToolRunFrame,
  WelcomeFrame,
} from './schemas.ts';
import type { ConnectTransport, Transport } from './transport.ts';

export type SyncStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'closed';

/** What a UI renders. A new object whenever anything in it changes, the same one otherwise. */
export interface SyncView {
  /**
   * `connecting` until the first welcome; `connected` after a welcome; `reconnecting` after a
   * drop; `offline` after OFFLINE_AFTER_ATTEMPTS failed attempts in a row (it keeps retrying);
   * `closed` after `close()` or when the server refused this client for good.
   */
  readonly status: SyncStatus;
  /** The last state received, kept (possibly stale) while reconnecting; null before the first snapshot. */
  readonly state: State | null;
  /** The rev of `state` (0 while `state` is null). */
  readonly rev: number;
  /** The server session of the last welcome. */
  readonly session: string | null;
  /** The last error the server reported or the reason of the last drop; cleared by a welcome. */
  readonly error: { code: string; message: string } | null;
  /** Failed connection attempts in a row; 0 while connected. */
  readonly attempt: number;
}

/** Codes of failures the client detects itself (the server's codes are in `ErrorCode`). */
export type LocalErrorCode = 'timeout' | 'disconnected' | 'closed' | 'offline' | 'too_large' | 'invalid_message';

/** Rejection of `request()`: the server's `error` of an ok:false result, or a local failure. */
export class RequestError extends Error {
  readonly code: string;
  readonly path: string | undefined;
  constructor(code: string, message: string, path?: string) {
    super(message);
    this.name = 'RequestError';
    this.code = code;
    this.path = path;
  }
}

export interface ToolRunResult {
  output: unknown;
  isError?: boolean;
}

export interface SyncClientOptions {
  /** Opens a connection; called for the first connect and every reconnect. */
  connect: ConnectTransport;
  client: { kind: ClientKind; name?: string };
  /** Tools this client can run, declared in every hello. */
  tools?: ToolDefinition[];
  /** Time allowed for a request's result and for a connection's welcome. Default 15000. */
  requestTimeoutMs?: number;
  /** Reconnect delays; default 250 ms doubling up to 10 s, with full jitter. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Source of jitter in [0, 1). Default Math.random. */
  random?: () => number;
  /**
   * Runs a `tool.run` the server dispatched to this client, at most once per toolCallId. The
   * signal aborts on `tool.cancel` for that call or on `close()`; an aborted run sends nothing.
   * A throw is sent as `isError: true` with the error's message.
   */
  onToolRun?: (run: ToolRunFrame, signal: AbortSignal) => Promise<ToolRunResult>;
  /** Check snapshot states against StateSchema before using them. Default true. */
  validateSnapshots?: boolean;
  /** Hears about ignored frames, resyncs and failed tool results. Default: silent. */
  onWarning?: (message: string) => void;
}

export interface SyncClient {
  /** Opens the first connection. Does nothing when already started or closed. */
  start(): void;
  /** Stops for good: closes the connection, rejects pending requests with `closed`, aborts tool runs. */
  close(): void;
  getSnapshot(): SyncView;
  subscribe(listener: () => void): () => void;
  /**
   * Sends one request and resolves with its result's value. Rejects with a `RequestError`: the
   * server's code and path on ok:false, else `offline` (not connected: at once), `timeout`,
   * `disconnected`, `closed`, `too_large` (frame over LIMITS.maxFrameBytes) or `invalid_message`
   * (payload not JSON-serializable).
   */
  request<T extends RequestType>(type: T, payload: RequestPayload<T>): Promise<ResultValues[T]>;
}

/** Failed attempts in a row after which the status reads `offline`. */
export const OFFLINE_AFTER_ATTEMPTS = 3;
/** toolCallIds remembered to never run a call twice. */
const MAX_REMEMBERED_TOOL_CALLS = 1000;
/** Close codes that end the client for good (PROTOCOL §2). */
const CLOSE_UNSUPPORTED_PROTOCOL = 4001;
const CLOSE_POLICY_VIOLATION = 1008;

type Timer = ReturnType<typeof globalThis.setTimeout>;

interface Connection {
  transport: Transport | null;
  opened: boolean;
  welcomed: boolean;
  /** The last error frame on this connection: it explains a refusal that closes it. */
  lastError: { code: string; message: string } | null;
  handshakeTimer: Timer | undefined;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: RequestError): void;
  timer: Timer;
}

type ToolCall =
  | { state: 'running'; controller: AbortController }
  | { state: 'settled'; chatId: string; result: { output: unknown; isError: boolean } }
  | { state: 'aborted' };

/** Snapshots skip the deep state check when `validateSnapshots` is false. */
const LooseSnapshotFrameSchema = v.object({
  type: v.literal('snapshot'),
  rev: v.number(),
  state: v.custom<State>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'Expected an object'),
});

/**
 * Creates a client for one agentbar server. Call `start()` to connect; it reconnects by itself
 * until `close()`. `subscribe`/`getSnapshot` fit React's and Preact's `useSyncExternalStore`.
 *
 * @example
 * // Node 20 has no global WebSocket: pass the `ws` package.
 * import WebSocket from 'ws';
 * import { createWebSocketConnector } from './transport.ts';
 *
 * const client = createSyncClient({
 *   connect: createWebSocketConnector(`${info.url}?token=${info.token}`, WebSocket),
 *   client: { kind: 'cli', name: 'agentbar chat' },
 * });
 * client.subscribe(() => render(client.getSnapshot()));
 * client.start();
 * const { chatId } = await client.request('chat.create', { title: 'Refactor' });
 */
export function createSyncClient(options: SyncClientOptions): SyncClient {
  const requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  const backoff: BackoffOptions = {
    initialMs: options.backoff?.initialMs ?? DEFAULT_BACKOFF.initialMs,
    maxMs: options.backoff?.maxMs ?? DEFAULT_BACKOFF.maxMs,
  };
  const random = options.random ?? Math.random;
  const validateSnapshots = options.validateSnapshots ?? true;
  const warn = (message: string) => options.onWarning?.(message);

  let view: SyncView = Object.freeze({
    status: 'connecting',
    state: null,
    rev: 0,
    session: null,
    error: null,
    attempt: 0,
  } satisfies SyncView);
  const listeners = new Set<() => void>();

  let started = false;
  let stopped = false;
  let current: Connection | null = null;
  let reconnectTimer: Timer | undefined;
  let everWelcomed = false;
  /**
   * The session `view.state` came from. It differs from `view.session` between a new session's
   * welcome and its snapshot; resuming the new session from the old state's rev would splice two
   * histories together.
   */
  let stateSession: string | null = null;
  /** After an unappliable patch our state is suspect: ask for a snapshot, not a replay onto it. */
  let needsSnapshot = false;
  /** Between a welcome with resumed:false and its snapshot, patches have nothing to apply to. */
  let awaitingSnapshot = false;
  /** Resyncs since a patch last applied (a snapshot alone is no progress): the first is immediate, repeats back off. */
  let resyncStreak = 0;
  let requestSeq = 0;
  const pending = new Map<string, Pending>();
  const toolCalls = new Map<string, ToolCall>();

  // ------------------------------------------------------------ view

  function update(changes: Partial<SyncView>): void {
    let changed = false;
    for (const key of Object.keys(changes) as (keyof SyncView)[]) {
      if (!Object.is(changes[key], view[key])) changed = true;
    }
    if (!changed) return;
    view = Object.freeze({ ...view, ...changes });
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (err) {
        // One broken listener must not stop the others or the client; still surface the bug.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  // ------------------------------------------------------------ connection lifecycle

  function openConnection(): void {
    reconnectTimer = undefined;
    if (stopped) return;
    const conn: Connection = {
      transport: null,
      opened: false,
      welcomed: false,
      lastError: null,
      handshakeTimer: undefined,
    };
    current = conn;
    // A socket that never opens, or a server that never welcomes, counts as a failed attempt.
    conn.handshakeTimer = globalThis.setTimeout(() => {
      if (conn !== current) return;
      update({ error: { code: 'timeout', message: 'The server did not answer the handshake' } });
      endConnection(conn, true, 'disconnected');
      scheduleReconnect(true);
    }, requestTimeoutMs);
    let transport: Transport;
    try {
      transport = options.connect({
        onOpen: () => {
          if (conn !== current) return;
          conn.opened = true;
          if (conn.transport) sendHello(conn);
        },
        onMessage: (data) => {
          if (conn === current) handleMessage(conn, data);
        },
        onClose: (code, reason) => {
          if (conn === current) handleClose(conn, code, reason);
        },
      });
    } catch (err) {
      if (conn !== current) return;
      update({ error: { code: 'disconnected', message: `Cannot connect: ${errorMessage(err)}` } });
      endConnection(conn, false, 'disconnected');
      scheduleReconnect(true);
      return;
    }
    conn.transport = transport;
    // Some transports open synchronously inside connect(); the hello waited for `transport`.
    if (conn === current && conn.opened) sendHello(conn);
  }

  /** Forgets `conn` (later events from it are ignored) and fails what was waiting on it. */
  function endConnection(conn: Connection, closeTransport: boolean, pendingCode: 'disconnected' | 'closed'): void {
    if (current === conn) current = null;
    globalThis.clearTimeout(conn.handshakeTimer);
    if (closeTransport && conn.transport) {
      try {
        conn.transport.close(1000, pendingCode === 'closed' ? 'client closed' : 'reconnect');
      } catch (err) {
        warn(`Closing the transport failed: ${errorMessage(err)}`);
      }
    }
    const message = pendingCode === 'closed' ? 'The client was closed' : 'The connection was lost before the result';
    for (const [id, p] of pending) {
      pending.delete(id);
      globalThis.clearTimeout(p.timer);
      p.reject(new RequestError(pendingCode, message));
    }
  }

  function scheduleReconnect(failed: boolean): void {
    if (stopped) return;
    const attempt = failed ? view.attempt + 1 : view.attempt;
    const status: SyncStatus =
      attempt >= OFFLINE_AFTER_ATTEMPTS ? 'offline' : everWelcomed ? 'reconnecting' : 'connecting';
    update({ status, attempt });
    const delay = computeBackoffDelay(attempt, backoff, random);
    reconnectTimer = globalThis.setTimeout(openConnection, delay);
  }

  /** Drops a connection whose stream of patches we cannot follow and reconnects to catch up. */
  function resync(conn: Connection, why: string): void {
    warn(`Resyncing: ${why}`);
    endConnection(conn, true, 'disconnected');
    resyncStreak++;
    update({ status: 'reconnecting' });
    // A server that keeps sending frames we cannot apply must not get a reconnect loop.
    const delay = resyncStreak === 1 ? 0 : computeBackoffDelay(resyncStreak - 1, backoff, random);
    reconnectTimer = globalThis.setTimeout(openConnection, delay);
  }

  function handleClose(conn: Connection, code: number, reason: string): void {
    endConnection(conn, false, 'disconnected');
    const refused = code === CLOSE_UNSUPPORTED_PROTOCOL || (code === CLOSE_POLICY_VIOLATION && !conn.welcomed);
    if (refused) {
      // The server will refuse every retry the same way; the error frame before the close says why.
      stop(conn.lastError ?? { code: 'closed', message: closeMessage(code, reason) });
      return;
    }
    update({ error: { code: 'disconnected', message: closeMessage(code, reason) } });
    scheduleReconnect(!conn.welcomed);
  }

  function stop(error: SyncView['error']): void {
    stopped = true;
    globalThis.clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    if (current) endConnection(current, true, 'closed');
    for (const [id, call] of toolCalls) {
      if (call.state !== 'running') continue;
      call.controller.abort();
      toolCalls.set(id, { state: 'aborted' });
    }
    update({ status: 'closed', error });
  }

  function sendHello(conn: Connection): void {
    const hello: Hello = { type: 'hello', protocol: PROTOCOL_VERSION, client: options.client };
    if (options.tools) hello.tools = options.tools;
    if (view.state !== null && stateSession !== null && !needsSnapshot) {
      hello.resume = { session: stateSession, rev: view.rev };
    }
    sendRaw(conn, JSON.stringify(hello));
  }

  function sendRaw(conn: Connection, data: string): boolean {
    try {
      conn.transport!.send(data);
      return true;
    } catch (err) {
      warn(`Sending failed: ${errorMessage(err)}`);
      return false;
    }
  }

  // ------------------------------------------------------------ inbound frames

  function handleMessage(conn: Connection, data: string): void {
    const frame = parseFrame(data);
    if (!frame) return;
    if (frame.type === 'error') conn.lastError = { code: frame.code, message: frame.message };
    switch (frame.type) {
      case 'welcome':
        return handleWelcome(conn, frame);
      case 'snapshot':
        return handleSnapshot(frame);
      case 'patch':
        return handlePatch(conn, frame);
      case 'result':
        return handleResult(frame);
      case 'error':
        return handleErrorFrame(frame);
      case 'tool.run':
        return handleToolRun(frame);
      case 'tool.cancel':
        return handleToolCancel(frame);
    }
  }

  function parseFrame(data: string) {
    let raw: unknown;
    try {
      raw = JSON.parse(data);
    } catch {
      warn(`Ignored a frame that is not JSON: ${preview(data)}`);
      return null;
    }
    const isSnapshot = typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'snapshot';
    const schema = isSnapshot && !validateSnapshots ? LooseSnapshotFrameSchema : ServerFrameSchema;
    // Patch frames are cheap here: OpSchema checks each op's shape, never the values it carries.
    const result = v.safeParse(schema, raw);
    if (!result.success) {
      const info = describeIssues(result.issues);
      const type = typeof raw === 'object' && raw !== null ? String((raw as { type?: unknown }).type) : typeof raw;
      warn(`Ignored an invalid ${type} frame: ${info.message}`);
      if (isSnapshot) update({ error: { code: 'invalid_message', message: `Invalid snapshot: ${info.message}` } });
      return null;
    }
    // The raw input, not valibot's output: object schemas drop unknown keys, and a state missing
    // keys a newer server added would make that server's patches unappliable.
    return raw as v.InferOutput<typeof ServerFrameSchema>;
  }

  function handleWelcome(conn: Connection, frame: WelcomeFrame): void {
    if (conn.welcomed) {
      warn('Ignored a second welcome');
      return;
    }
    conn.welcomed = true;
    globalThis.clearTimeout(conn.handshakeTimer);
    everWelcomed = true;
    awaitingSnapshot = !frame.resumed || view.state === null;
    update({ status: 'connected', attempt: 0, session: frame.session, error: null });
  }

  function handleSnapshot(frame: SnapshotFrame): void {
    awaitingSnapshot = false;
    needsSnapshot = false;
    stateSession = view.session;
    update({ state: frame.state, rev: frame.rev });
  }

  function handlePatch(conn: Connection, frame: PatchFrame): void {
    const state = view.state;
    // A patch without rev is the next one: frames arrive in order, so we keep counting.
    const rev = frame.rev ?? view.rev + 1;
    if (awaitingSnapshot || state === null) {
      warn(`Ignored patch ${rev} that came before the snapshot`);
      return;
    }
    if (rev <= view.rev) return; // a duplicate of what we have
    if (rev !== view.rev + 1) {
      resync(conn, `missed patches ${view.rev + 1}..${rev - 1}`);
      return;
    }
    let next: State;
    try {
      next = applyPatch(state, frame.ops);
    } catch (err) {
      needsSnapshot = true;
      resync(conn, `patch ${rev} does not apply: ${errorMessage(err)}`);
      return;
    }
    resyncStreak = 0;
    update({ state: next, rev });
  }

  function handleResult(frame: ResultFrame): void {
    const p = pending.get(frame.id);
    if (!p) return; // timed out already, or from before a reconnect
    pending.delete(frame.id);
    globalThis.clearTimeout(p.timer);
    if (frame.ok) p.resolve(frame.value);
    else p.reject(new RequestError(frame.error.code, frame.error.message, frame.error.path));
  }

  function handleErrorFrame(frame: ErrorFrame): void {
    const error = { code: frame.code, message: frame.message };
    if (frame.code === 'unsupported_protocol') stop(error);
    else update({ error });
  }

  // ------------------------------------------------------------ tools

  function handleToolRun(frame: ToolRunFrame): void {
    const { chatId, toolCallId } = frame;
    const known = toolCalls.get(toolCallId);
    if (known?.state === 'running') {
      warn(`Tool call ${toolCallId} is already running`);
      return;
    }
    if (known?.state === 'settled') {
      // Re-dispatched, e.g. after our result was lost in a reconnect: answer again, never rerun.
      sendToolResult(known.chatId, toolCallId, known.result);
      return;
    }
    if (known?.state === 'aborted') {
      sendToolResult(chatId, toolCallId, { output: 'This tool call was cancelled on this client', isError: true });
      return;
    }
    const onToolRun = options.onToolRun;
    if (!onToolRun) {
      remember(toolCallId, { state: 'settled', chatId, result: { output: 'This client cannot run tools', isError: true } });
      sendToolResult(chatId, toolCallId, { output: 'This client cannot run tools', isError: true });
      return;
    }
    const controller = new AbortController();
    const call: ToolCall = { state: 'running', controller };
    remember(toolCallId, call);
    const settle = (result: { output: unknown; isError: boolean }) => {
      if (controller.signal.aborted) return;
      const settled: ToolCall = { state: 'settled', chatId, result };
      if (toolCalls.get(toolCallId) === call) toolCalls.set(toolCallId, settled);
      sendToolResult(chatId, toolCallId, result);
    };
    let run: Promise<ToolRunResult>;
    try {
      run = Promise.resolve(onToolRun(frame, controller.signal));
    } catch (err) {
      run = Promise.reject(err);
    }
    run.then(
        (r) => settle({ output: r?.output ?? null, isError: r?.isError === true }),
        (err) => settle({ output: errorMessage(err), isError: true }),
      );
  }

  function handleToolCancel(frame: ToolCancelFrame): void {
    const call = toolCalls.get(frame.toolCallId);
    if (call?.state !== 'running') return;
    toolCalls.set(frame.toolCallId, { state: 'aborted' });
    call.controller.abort();
  }

  function remember(toolCallId: string, call: ToolCall): void {
    toolCalls.set(toolCallId, call);
    while (toolCalls.size > MAX_REMEMBERED_TOOL_CALLS) {
      const [oldestId, oldest] = toolCalls.entries().next().value!;
      toolCalls.delete(oldestId);
      // A run we no longer track could not be told apart from a re-dispatch: stop it.
      if (oldest.state === 'running') oldest.controller.abort();
    }
  }

  function sendToolResult(chatId: string, toolCallId: string, result: { output: unknown; isError: boolean }): void {
    let { output, isError } = result;
    try {
      JSON.stringify(output);
    } catch (err) {
      output = `The tool's output cannot be sent as JSON: ${errorMessage(err)}`;
      isError = true;
    }
    request('tool.result', { chatId, toolCallId, output, isError }).catch((err: RequestError) => {
      warn(`tool.result for ${toolCallId} failed: ${err.code}: ${err.message}`);
    });
  }

  // ------------------------------------------------------------ requests

  function request<T extends RequestType>(type: T, payload: RequestPayload<T>): Promise<ResultValues[T]> {
    if (stopped) return Promise.reject(new RequestError('closed', 'The client is closed'));
    const conn = current;
    if (!conn || !conn.welcomed) return Promise.reject(new RequestError('offline', 'Not connected to the agent server'));
    const id = `r${++requestSeq}`;
    let data: string;
    try {
      // `type` and `id` win over same-named payload keys.
      data = JSON.stringify({ ...payload, type, id });
    } catch (err) {
      return Promise.reject(new RequestError('invalid_message', `The request cannot be sent as JSON: ${errorMessage(err)}`));
    }
    if (exceedsBytes(data, LIMITS.maxFrameBytes)) {
      return Promise.reject(new RequestError('too_large', `The request is larger than ${LIMITS.maxFrameBytes} bytes`));
    }
    return new Promise<ResultValues[T]>((resolve, reject) => {
      const timer = globalThis.setTimeout(() => {
        if (pending.delete(id)) reject(new RequestError('timeout', `No result for ${type} after ${requestTimeoutMs} ms`));
      }, requestTimeoutMs);
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      if (!sendRaw(conn, data)) {
        pending.delete(id);
        globalThis.clearTimeout(timer);
        reject(new RequestError('disconnected', 'The request could not be sent'));
      }
    });
  }

  return {
    start() {
      if (started || stopped) return;
      started = true;
      openConnection();
    },
    close() {
      if (!stopped) stop(view.error);
    },
    getSnapshot: () => view,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    request,
  };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function closeMessage(code: number, reason: string): string {
  return reason ? `Connection closed (${code}: ${reason})` : `Connection closed (${code})`;
}

function preview(data: string): string {
  return data.length > 80 ? `${data.slice(0, 80)}…` : data;
}

/** UTF-8 size check without encoding the whole string when the answer is obvious. */
function exceedsBytes(s: string, max: number): boolean {
  if (s.length * 3 <= max) return false;
  if (s.length > max) return true;
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > max) return true;
  }
  return false;
}
