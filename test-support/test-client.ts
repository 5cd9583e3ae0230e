/**
 * A raw protocol client for tests: speaks the wire directly (no sync client), keeps every frame,
 * and mirrors the state with the shared patch applier so tests can compare it with the server's.
 */
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { applyPatch } from '../shared/patch.ts';
import type { ClientKind, Op, State, ToolDefinition } from '../shared/schemas.ts';

export interface TestClientOptions {
  kind?: ClientKind;
  tools?: ToolDefinition[];
  resume?: { session: string; rev: number };
  /** The mirror to continue from when resuming (the state the client held at `resume.rev`). */
  state?: State;
  token?: string | null;
  headers?: Record<string, string>;
  /** Skip the hello (for handshake tests). */
  noHello?: boolean;
  perMessageDeflate?: boolean;
}

type Frame = Record<string, any>;

let nextId = 0;

export class TestClient {
  readonly frames: Frame[] = [];
  state: State | null = null;
  rev = -1;
  session: string | null = null;
  closed: { code: number; reason: string } | null = null;
  /** The mirrored state at the moment each result arrived, by request id. */
  readonly stateAt = new Map<string, State | null>();
  /** Protocol violations seen (a rev gap, a patch that does not apply); waits fail once there is one. */
  readonly failures: string[] = [];
  private waiters: { check: () => boolean; failOnViolation: boolean; resolve: () => void; reject: (error: Error) => void }[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.onFrame(data.toString()));
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.notify();
    });
    ws.on('error', () => {});
  }

  /** Opens a socket to `server` and (unless `noHello`) waits for the welcome and the state. */
  static async connect(server: { url: string; token: string }, options: TestClientOptions = {}): Promise<TestClient> {
    const token = options.token === undefined ? server.token : options.token;
    const url = token === null ? server.url : `${server.url}?token=${encodeURIComponent(token)}`;
    const ws = new WebSocket(url, { headers: options.headers, perMessageDeflate: options.perMessageDeflate ?? false });
    const client = new TestClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (req, res) => {
        // The server refused the upgrade with a plain HTTP answer: read it, then drop the socket.
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          req.destroy();
          reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body }));
        });
      });
      ws.once('error', reject);
    });
    if (options.resume && options.state) {
      client.state = options.state;
      client.rev = options.resume.rev;
    }
    if (!options.noHello) {
      client.sendJson({
        type: 'hello',
        protocol: 1,
        client: { kind: options.kind ?? 'other', name: 'test' },
        ...(options.tools ? { tools: options.tools } : {}),
        ...(options.resume ? { resume: options.resume } : {}),
      });
      await client.waitFor(() => client.frames.some((f) => f.type === 'welcome') && client.state !== null);
    }
    return client;
  }

  private onFrame(text: string): void {
    const frame = JSON.parse(text) as Frame;
    // The server leaves a patch's rev out (the previous + 1): note it on the frame for the tests,
    // and remember that the wire had none.
    if (frame.type === 'patch' && frame.rev === undefined) {
      frame.rev = this.rev + 1;
      frame.implicitRev = true;
    }
    this.frames.push(frame);
    if (frame.type === 'welcome') this.session = frame.session;
    if (frame.type === 'snapshot') {
      this.state = frame.state;
      this.rev = frame.rev;
    } else if (frame.type === 'patch' && this.failures.length === 0) {
      if (frame.rev !== this.rev + 1) {
        this.failures.push(`rev gap: had ${this.rev}, got ${frame.rev}`);
      } else {
        try {
          this.state = applyPatch(this.state, frame.ops as Op[]);
          this.rev = frame.rev;
        } catch (error) {
          this.failures.push(`patch ${frame.rev} does not apply: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    } else if (frame.type === 'result') {
      this.stateAt.set(frame.id, this.state);
    }
    this.notify();
  }

  private notify(): void {
    this.waiters = this.waiters.filter((w) => {
      if (w.failOnViolation && this.failures.length > 0) {
        w.reject(new Error(`Protocol violation: ${this.failures.join('; ')}`));
        return false;
      }
      if (w.check()) {
        w.resolve();
        return false;
      }
      return true;
    });
  }

  /** Resolves once `check` holds; fails the test after `timeoutMs`. */
  waitFor(check: () => boolean, timeoutMs = 5000, what = 'condition', failOnViolation = true): Promise<void> {
    if (failOnViolation && this.failures.length > 0) return Promise.reject(new Error(`Protocol violation: ${this.failures.join('; ')}`));
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.check !== check);
        reject(new Error(`Timed out waiting for ${what}`));
      }, timeoutMs);
      this.waiters.push({
        check,
        failOnViolation,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  sendJson(value: unknown): void {
    this.ws.send(JSON.stringify(value));
  }

  sendRaw(text: string): void {
    this.ws.send(text);
  }

  /** Sends a request and resolves with its result frame (ok or not). */
  async request(type: string, payload: Record<string, unknown> = {}): Promise<Frame> {
    const id = `r${++nextId}`;
    this.sendJson({ type, id, ...payload });
    let result: Frame | undefined;
    await this.waitFor(() => (result = this.frames.find((f) => f.type === 'result' && f.id === id)) !== undefined, 5000, `result of ${type}`);
    return result!;
  }

  /** Like `request`, but throws unless ok; returns the value. */
  async ok(type: string, payload: Record<string, unknown> = {}): Promise<any> {
    const r = await this.request(type, payload);
    if (!r.ok) throw new Error(`${type} failed: ${JSON.stringify(r.error)}`);
    return r.value;
  }

  /** Waits for the next frame of a type after the ones seen so far. */
  async next(type: string, from = this.frames.length): Promise<Frame> {
    let found: Frame | undefined;
    await this.waitFor(() => (found = this.frames.slice(from).find((f) => f.type === type)) !== undefined, 5000, `a ${type} frame`);
    return found!;
  }

  async waitClosed(): Promise<{ code: number; reason: string }> {
    await this.waitFor(() => this.closed !== null, 5000, 'close', false);
    return this.closed!;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.ws.close();
    return this.waitClosed().then(() => {});
  }

  /** Drops the socket at once (no close handshake), as a crashed or paused client would. */
  terminate(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.socket?.resume();
    this.ws.terminate();
    return this.waitClosed().then(() => {});
  }

  /** Stops reading from the socket, so the server's send buffer backs up. */
  pauseReading(): void {
    this.socket?.pause();
  }

  resumeReading(): void {
    this.socket?.resume();
  }

  private get socket(): Socket | null {
    return (this.ws as unknown as { _socket: Socket | null })._socket;
  }

  /** The frames of one type, in arrival order. */
  framesOf(type: string): Frame[] {
    return this.frames.filter((f) => f.type === type);
  }
}

/** A user message payload with the metadata a toolbar would send. */
export function userMessage(chatId: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    chatId,
    content: [{ type: 'text', text }],
    metadata: { source: 'other', selectedElements: [] },
    ...extra,
  };
}
