/**
 * One client's WebSocket: the handshake, every inbound frame through valibot, results after the
 * patches that carry their effects, and backpressure (a client that stops reading stops getting
 * patches, then gets a fresh snapshot once drained, or is terminated if stuck; PROTOCOL §3).
 */
import * as v from 'valibot';
import type { WebSocket } from 'ws';
import { describeIssues, ProtocolError } from '../../shared/errors.ts';
import { makeId } from '../../shared/ids.ts';
import {
  HelloSchema,
  PROTOCOL_VERSION,
  REQUEST_SCHEMAS,
  RequestIdSchema,
  type ClientKind,
  type ErrorInfo,
  type Request,
  type ToolDefinition,
} from '../../shared/schemas.ts';
import type { RequestClient } from './requests.ts';
import { LIMITS } from '../../shared/limits.ts';
import { truncateText } from '../../shared/truncate.ts';
import { exceedsJsonDepth } from './json-depth.ts';
import type { StateStore } from './state-store.ts';
import type { ToolClient } from './tool-dispatcher.ts';

export interface ConnectionLimits {
  /** A client whose send buffer holds more than this stops getting patches. */
  sendBufferBytes: number;
  /** A client lagging for longer than this is terminated. */
  stuckTimeoutMs: number;
  /** A client that has not said hello by then is closed. */
  helloTimeoutMs: number;
  /** Requests of one client being handled at once. */
  maxInFlight: number;
  /**
   * Requests of one client waiting for a slot. The socket is not read while any wait, so a
   * pipelining client is slowed down by TCP instead of answered `busy`.
   */
  maxQueued: number;
  /** Bad frames in a row before the client is closed with 1008. */
  maxBadFrames: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  sendBufferBytes: 4 * 1024 * 1024,
  stuckTimeoutMs: 30_000,
  helloTimeoutMs: 5_000,
  maxInFlight: 64,
  maxQueued: 1_024,
  maxBadFrames: 20,
};

/** Error messages and paths can quote client input (an unknown chat id): never echo it whole. */
const MAX_ERROR_MESSAGE = 500;
const MAX_ERROR_PATH = 200;

/** The error as sent: message and path clipped, so an answer never grows with the input. */
export function clipError(error: ErrorInfo): ErrorInfo {
  const message = truncateText(error.message, MAX_ERROR_MESSAGE);
  return error.path === undefined ? { code: error.code, message } : { code: error.code, message, path: truncateText(error.path, MAX_ERROR_PATH) };
}

export interface ConnectionHost {
  store: StateStore;
  limits: ConnectionLimits;
  handle(request: Request, client: RequestClient): Promise<unknown>;
  /** Called once the handshake is done and the client is up to date. */
  joined(client: ToolClient): void;
  left(clientId: string): void;
  log(level: 'info' | 'warn' | 'error', message: string): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ClientConnection implements ToolClient, RequestClient {
  readonly id = makeId('client');
  kind: ClientKind = 'other';
  tools: ReadonlySet<string> = new Set();
  toolDefinitions: readonly ToolDefinition[] = [];
  alive = true;
  private ready = false;
  private closed = false;
  private lagging = false;
  private lagSince = 0;
  private lagTimer: ReturnType<typeof setInterval> | null = null;
  /** Frames other than patches, held while lagging so they still follow the state they refer to. */
  private held: string[] = [];
  private inFlight = 0;
  /** Valid requests waiting for an in-flight slot, in arrival order. */
  private queued: Array<{ request: Request; id: string }> = [];
  /** Bytes of `held`, bounded like the send buffer. */
  private heldBytes = 0;
  private badFrames = 0;
  /**
   * The largest frame handed to the socket since its buffer was last under the limit. A client
   * still reading a big frame (a snapshot of a big chat, a message with images) is not lagging:
   * only what is buffered beyond that frame counts.
   */
  private pinnedBytes = 0;
  /** bufferedAmount right after the last state frame was handed to the socket. */
  private bufferedAfterSend = 0;
  private readonly helloTimer: ReturnType<typeof setTimeout>;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ws: WebSocket,
    private readonly host: ConnectionHost,
  ) {
    this.helloTimer = setTimeout(() => this.closeWith(1008, 'invalid_message', 'No hello received'), host.limits.helloTimeoutMs);
    ws.on('message', (data, isBinary) => this.onFrame(isBinary ? null : data.toString()));
    ws.on('pong', () => {
      this.alive = true;
    });
    ws.on('close', () => this.onClose());
    ws.on('error', (error) => host.log('warn', `Client ${this.id} socket error: ${error.message}`));
  }

  /**
   * Sends a control frame (result, error, tool.run, tool.cancel) after the patches it refers to.
   * A client that does not read gets them held (bounded), like its patches, instead of growing
   * the send buffer without end.
   */
  send(frame: string): void {
    if (this.closed) return;
    // A tool.run must not arrive before the patch that creates its call.
    this.host.store.flush();
    if (!this.lagging && this.isBehind()) this.startLagging();
    if (this.lagging) {
      this.heldBytes += frame.length;
      if (this.held.length >= 10_000 || this.heldBytes > this.host.limits.sendBufferBytes) {
        this.terminate('held too many frames while not reading');
        return;
      }
      this.held.push(frame);
      return;
    }
    // Counted as a state frame is: a big result (a chat.read) must not make the patches after it look like lag.
    this.sendFrame(frame);
  }

  private sendPatch(frame: string): void {
    if (this.closed || this.lagging) return;
    if (this.isBehind()) {
      this.startLagging();
      return;
    }
    this.sendFrame(frame);
  }

  /** True when the send buffer holds more than the limit beyond the big frame still going out. */
  private isBehind(): boolean {
    const limit = this.host.limits.sendBufferBytes;
    const buffered = this.ws.bufferedAmount;
    // What left the buffer since the last send (sent, or shrunk by deflate) no longer pins it.
    this.pinnedBytes = Math.max(0, this.pinnedBytes - Math.max(0, this.bufferedAfterSend - buffered));
    this.bufferedAfterSend = buffered;
    if (buffered <= limit) {
      this.pinnedBytes = 0;
      return false;
    }
    return buffered > limit + this.pinnedBytes;
  }

  /** Reads stop while the client is behind or requests wait: its own sending is what slows. */
  private updateReading(): void {
    if (this.closed) return;
    const pause = this.lagging || this.queued.length > 0;
    if (pause && !this.ws.isPaused) this.ws.pause();
    else if (!pause && this.ws.isPaused) this.ws.resume();
  }

  /**
   * Hands a frame to the socket. With deflate on, `bufferedAmount` counts a frame's
   * uncompressed size until zlib is done with it, so right after a big snapshot the buffer is over
   * the limit whether or not the client reads; comparing against the pinned frame keeps that from
   * looking like lag (which used to answer every patch with another snapshot).
   */
  private sendFrame(frame: string): void {
    this.ws.send(frame);
    const limit = this.host.limits.sendBufferBytes;
    this.bufferedAfterSend = this.ws.bufferedAmount;
    if (this.bufferedAfterSend > limit) {
      const bytes = frame.length > limit / 4 ? Buffer.byteLength(frame, 'utf8') : frame.length;
      this.pinnedBytes = Math.max(this.pinnedBytes, bytes);
    }
  }

  private startLagging(): void {
    this.lagging = true;
    this.lagSince = Date.now();
    this.updateReading();
    this.host.log('warn', `Client ${this.id} is not reading; patches paused until it catches up`);
    this.lagTimer = setInterval(() => {
      if (this.ws.bufferedAmount <= this.host.limits.sendBufferBytes / 4) {
        this.stopLagging();
      } else if (Date.now() - this.lagSince > this.host.limits.stuckTimeoutMs) {
        this.terminate('stuck: its send buffer did not drain');
      }
    }, 50);
  }

  private stopLagging(): void {
    if (this.lagTimer) clearInterval(this.lagTimer);
    this.lagTimer = null;
    // Taking the snapshot flushes pending ops as a patch; while still lagging that patch is
    // skipped here (the snapshot holds it), instead of arriving before the snapshot as a gap.
    const snapshot = this.host.store.snapshotFrame();
    this.lagging = false;
    // A fresh snapshot replaces every patch it missed; its rev jumps ahead.
    this.pinnedBytes = 0;
    this.sendFrame(snapshot);
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const frame of held) this.ws.send(frame);
    this.updateReading();
  }

  private terminate(why: string): void {
    this.host.log('warn', `Client ${this.id} terminated: ${why}`);
    this.ws.terminate();
    this.onClose();
  }

  private sendError(error: ErrorInfo): void {
    this.send(JSON.stringify({ type: 'error', ...clipError(error) }));
  }

  private closeWith(code: number, errorCode: ErrorInfo['code'], message: string, path?: string): void {
    if (this.closed) return;
    this.sendError(path ? { code: errorCode, message, path } : { code: errorCode, message });
    // The reason is the stable code: the message may quote client input, and a close reason must
    // stay under 123 UTF-8 bytes or `ws` throws.
    this.ws.close(code, errorCode);
  }

  private onFrame(text: string | null): void {
    if (this.closed) return;
    if (!this.ready) {
      this.onHello(text);
      return;
    }
    this.onRequestFrame(text);
  }

  private onHello(text: string | null): void {
    clearTimeout(this.helloTimer);
    if (text === null) return this.closeWith(1008, 'invalid_message', 'Frames must be text');
    if (exceedsJsonDepth(text, LIMITS.maxJsonDepth)) return this.closeWith(1008, 'invalid_message', `The first frame nests deeper than ${LIMITS.maxJsonDepth} levels`);
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.closeWith(1008, 'bad_json', 'The first frame is not valid JSON');
    }
    if (!isRecord(msg) || msg.type !== 'hello') {
      return this.closeWith(1008, 'invalid_message', 'The first frame must be hello', 'type');
    }
    if (msg.protocol !== PROTOCOL_VERSION) {
      return this.closeWith(4001, 'unsupported_protocol', `Unsupported protocol ${JSON.stringify(msg.protocol)}; this server speaks ${PROTOCOL_VERSION}`, 'protocol');
    }
    const parsed = v.safeParse(HelloSchema, msg);
    if (!parsed.success) {
      // PROTOCOL §2: any other first frame, an oversized hello included, is invalid_message.
      const error = describeIssues(parsed.issues);
      return this.closeWith(1008, 'invalid_message', error.message, error.path);
    }
    const hello = parsed.output;
    this.kind = hello.client.kind;
    this.tools = new Set((hello.tools ?? []).map((t) => t.name));
    this.toolDefinitions = hello.tools ?? [];
    const store = this.host.store;
    const missed = hello.resume && hello.resume.session === store.session ? store.framesSince(hello.resume.rev) : null;
    this.ws.send(JSON.stringify({ type: 'welcome', protocol: PROTOCOL_VERSION, session: store.session, resumed: missed !== null }));
    if (missed) for (const frame of missed) this.sendFrame(frame);
    else this.sendFrame(store.snapshotFrame());
    this.ready = true;
    this.unsubscribe = store.subscribe((frame) => this.sendPatch(frame));
    this.host.joined(this);
  }

  private onBadFrame(error: ErrorInfo): void {
    this.sendError(error);
    if (++this.badFrames >= this.host.limits.maxBadFrames) {
      this.ws.close(1008, 'Too many bad frames');
    }
  }

  private onRequestFrame(text: string | null): void {
    if (text === null) return this.onBadFrame({ code: 'invalid_message', message: 'Frames must be text' });
    if (exceedsJsonDepth(text, LIMITS.maxJsonDepth)) {
      return this.onBadFrame({ code: 'too_large', message: `Frame nests deeper than ${LIMITS.maxJsonDepth} levels` });
    }
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.onBadFrame({ code: 'bad_json', message: 'Frame is not valid JSON' });
    }
    if (!isRecord(msg)) return this.onBadFrame({ code: 'invalid_message', message: 'Frame must be a JSON object with a string type', path: 'type' });
    if (msg.type === 'hello') {
      return this.onBadFrame({ code: 'invalid_message', message: 'hello was already received on this connection', path: 'type' });
    }
    const id = v.safeParse(RequestIdSchema, msg.id);
    if (!id.success) {
      return this.onBadFrame({ code: 'invalid_message', message: 'Request needs an id: a non-empty string of at most 256 characters', path: 'id' });
    }
    const refuse = (error: ErrorInfo) => {
      this.reply(id.output, { ok: false, error });
      if (++this.badFrames >= this.host.limits.maxBadFrames) this.ws.close(1008, 'Too many bad frames');
    };
    if (typeof msg.type !== 'string') return refuse({ code: 'invalid_message', message: 'Request needs a string type', path: 'type' });
    if (!Object.prototype.hasOwnProperty.call(REQUEST_SCHEMAS, msg.type)) {
      return refuse({ code: 'unknown_type', message: `Unknown request type: ${msg.type.slice(0, 64)}`, path: 'type' });
    }
    const schema = REQUEST_SCHEMAS[msg.type as keyof typeof REQUEST_SCHEMAS];
    const parsed = v.safeParse(schema, msg);
    if (!parsed.success) return refuse(describeIssues(parsed.issues));
    this.badFrames = 0;
    const request = parsed.output as Request;
    if (this.inFlight < this.host.limits.maxInFlight) return this.run(request, id.output);
    // Frames already read when reading paused still arrive; past the queue, the client is told.
    if (this.queued.length >= this.host.limits.maxQueued) {
      return this.reply(id.output, { ok: false, error: { code: 'busy', message: 'Too many requests waiting; wait for their results' } });
    }
    this.queued.push({ request, id: id.output });
    this.updateReading();
  }

  private reply(id: string, result: { ok: true; value?: unknown } | { ok: false; error: ErrorInfo }): void {
    // Patches carrying the request's effects go out first (PROTOCOL §4); send() flushes them.
    const body = result.ok ? result : { ok: false as const, error: clipError(result.error) };
    this.send(JSON.stringify({ type: 'result', id, ...body }));
  }

  private run(request: Request, id: string): void {
    this.inFlight++;
    this.host
      .handle(request, this)
      .then(
        (value) => this.reply(id, value === undefined ? { ok: true } : { ok: true, value }),
        (error: unknown) => {
          if (error instanceof ProtocolError) return this.reply(id, { ok: false, error: error.toInfo() });
          this.host.log('error', `Request ${request.type} failed: ${error instanceof Error ? error.stack : String(error)}`);
          this.reply(id, { ok: false, error: { code: 'internal', message: 'The server failed to handle this request' } });
        },
      )
      .finally(() => {
        this.inFlight--;
        const next = this.closed ? undefined : this.queued.shift();
        if (next) this.run(next.request, next.id);
        this.updateReading();
      });
  }

  /** Heartbeat: returns false when the last ping went unanswered. */
  ping(): boolean {
    if (!this.alive) {
      this.terminate('missed a heartbeat');
      return false;
    }
    this.alive = false;
    try {
      this.ws.ping();
    } catch {
      /* a closing socket; close handles it */
    }
    return true;
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.helloTimer);
    if (this.lagTimer) clearInterval(this.lagTimer);
    this.unsubscribe?.();
    this.held = [];
    this.heldBytes = 0;
    this.queued = [];
    if (this.ready) this.host.left(this.id);
  }

  /** Server shutdown: a 1001 close, then the socket is dropped if the client does not answer. */
  closeGracefully(): void {
    if (this.closed) return;
    this.ws.close(1001, 'Server shutting down');
    setTimeout(() => this.ws.terminate(), 200).unref();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
