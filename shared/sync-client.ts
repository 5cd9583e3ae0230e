/**
 * The framework-free client of protocol v1: the connection loop. It keeps one connection up
 * (handshake, resume, backoff, refusals) and wires each frame to the piece that owns it: the state
 * mirror (state-mirror.ts), the request table (request-table.ts) and the client's tool runs
 * (tool-runs.ts). Runs unchanged in Node and in browsers: no Node or DOM imports, timers through
 * `globalThis`, sockets behind `ConnectTransport`.
 */
import * as v from 'valibot';
import { DEFAULT_BACKOFF, computeBackoffDelay, type BackoffOptions } from './backoff.ts';
import { describeIssues } from './errors.ts';
import { createRequestTable, RequestError } from './request-table.ts';
import { PROTOCOL_VERSION, ServerFrameSchema } from './schemas.ts';
import type { ClientKind, ErrorFrame, Hello, RequestPayload, RequestType, ResultValues, State, ToolDefinition, ToolRunFrame, WelcomeFrame } from './schemas.ts';
import { EMPTY_MIRROR, findResumePoint, receivePatch, receiveSnapshot, receiveWelcome, type Mirror } from './state-mirror.ts';
import { createToolRuns, type ToolRunResult } from './tool-runs.ts';
import type { ConnectTransport, Transport } from './transport.ts';

export { RequestError, type LocalErrorCode } from './request-table.ts';
export type { ToolRunResult } from './tool-runs.ts';
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
/** Close codes that end the client for good (PROTOCOL §2). */
const CLOSE_UNSUPPORTED_PROTOCOL = 4001;
const CLOSE_POLICY_VIOLATION = 1008;

type Timer = ReturnType<typeof globalThis.setTimeout>;

/**
 * One connection attempt. Its phase only moves forward: `opening` (socket not open yet), `open`
 * (hello sent, no welcome yet), `welcomed` (requests may be sent). A connection that ends is
 * forgotten (`current` moves on), so its late events are ignored.
 */
interface Connection {
  phase: 'opening' | 'open' | 'welcomed';
  transport: Transport | null;
  /** The last error frame on this connection: it explains a refusal that closes it. */
  lastError: { code: string; message: string } | null;
  handshakeTimer: Timer | undefined;
}

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

  /** `idle` until start(), `running` until close() or a refusal for good, then `closed`. */
  let lifecycle: 'idle' | 'running' | 'closed' = 'idle';
  let current: Connection | null = null;
  let reconnectTimer: Timer | undefined;
  let everWelcomed = false;
  let mirror: Mirror = EMPTY_MIRROR;
  /** Resyncs since a patch last applied (a snapshot alone is no progress): the first is immediate, repeats back off. */
  let resyncStreak = 0;
  const requests = createRequestTable({ timeoutMs: requestTimeoutMs });
  const toolRuns = createToolRuns({
    onToolRun: options.onToolRun,
    sendResult(chatId, toolCallId, result) {
      request('tool.result', { chatId, toolCallId, ...result }).catch((err: RequestError) => {
        warn(`tool.result for ${toolCallId} failed: ${err.code}: ${err.message}`);
      });
    },
    warn,
  });

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

  function setMirror(next: Mirror): void {
    mirror = next;
    update({ state: next.state, rev: next.rev });
  }

  // ------------------------------------------------------------ connection lifecycle

  function openConnection(): void {
    reconnectTimer = undefined;
    if (lifecycle !== 'running') return;
    const conn: Connection = { phase: 'opening', transport: null, lastError: null, handshakeTimer: undefined };
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
          if (conn !== current || conn.phase !== 'opening') return;
          conn.phase = 'open';
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
    if (conn === current && conn.phase === 'open') sendHello(conn);
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
    requests.rejectAll(pendingCode, pendingCode === 'closed' ? 'The client was closed' : 'The connection was lost before the result');
  }

  function scheduleReconnect(failed: boolean): void {
    if (lifecycle !== 'running') return;
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
    const refused = code === CLOSE_UNSUPPORTED_PROTOCOL || (code === CLOSE_POLICY_VIOLATION && conn.phase !== 'welcomed');
    if (refused) {
      // The server will refuse every retry the same way; the error frame before the close says why.
      stop(conn.lastError ?? { code: 'closed', message: closeMessage(code, reason) });
      return;
    }
    update({ error: { code: 'disconnected', message: closeMessage(code, reason) } });
    scheduleReconnect(conn.phase !== 'welcomed');
  }

  function stop(error: SyncView['error']): void {
    lifecycle = 'closed';
    globalThis.clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    if (current) endConnection(current, true, 'closed');
    toolRuns.abortAll();
    update({ status: 'closed', error });
  }

  function sendHello(conn: Connection): void {
    const hello: Hello = { type: 'hello', protocol: PROTOCOL_VERSION, client: options.client };
    if (options.tools) hello.tools = options.tools;
    const resume = findResumePoint(mirror);
    if (resume) hello.resume = resume;
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
    switch (frame.type) {
      case 'welcome':
        return handleWelcome(conn, frame);
      case 'snapshot':
        return setMirror(receiveSnapshot(mirror, frame, view.session));
      case 'patch': {
        const outcome = receivePatch(mirror, frame);
        if (outcome.kind === 'applied') {
          resyncStreak = 0;
          setMirror(outcome.mirror);
        } else if (outcome.kind === 'ignored') {
          warn(outcome.reason);
        } else if (outcome.kind === 'resync') {
          mirror = outcome.mirror;
          resync(conn, outcome.why);
        }
        return;
      }
      case 'result':
        return requests.settle(frame);
      case 'error':
        conn.lastError = { code: frame.code, message: frame.message };
        return handleErrorFrame(frame);
      case 'tool.run':
        return toolRuns.run(frame);
      case 'tool.cancel':
        return toolRuns.cancel(frame);
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
    if (conn.phase === 'welcomed') {
      warn('Ignored a second welcome');
      return;
    }
    conn.phase = 'welcomed';
    globalThis.clearTimeout(conn.handshakeTimer);
    everWelcomed = true;
    mirror = receiveWelcome(mirror, frame.resumed);
    update({ status: 'connected', attempt: 0, session: frame.session, error: null });
  }

  function handleErrorFrame(frame: ErrorFrame): void {
    const error = { code: frame.code, message: frame.message };
    if (frame.code === 'unsupported_protocol') stop(error);
    else update({ error });
  }

  // ------------------------------------------------------------ requests

  function request<T extends RequestType>(type: T, payload: RequestPayload<T>): Promise<ResultValues[T]> {
    if (lifecycle === 'closed') return Promise.reject(new RequestError('closed', 'The client is closed'));
    const conn = current;
    if (!conn || conn.phase !== 'welcomed') return Promise.reject(new RequestError('offline', 'Not connected to the agent server'));
    return requests.send(type, payload, (data) => sendRaw(conn, data));
  }

  return {
    start() {
      if (lifecycle !== 'idle') return;
      lifecycle = 'running';
      openConnection();
    },
    close() {
      if (lifecycle !== 'closed') stop(view.error);
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
