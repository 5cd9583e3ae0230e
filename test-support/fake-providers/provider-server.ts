/**
 * A real HTTP server on 127.0.0.1 port 0 standing in for a model provider's streaming API, for the
 * real coding agents (Claude Code, Gemini CLI, Codex) to talk to. Each provider's file turns a
 * scripted turn into its own wire format; this one keeps every request and the open sockets.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One step of a scripted model turn, written in the provider's own streaming format. */
export type TurnStep =
  | { text: string }
  | { reasoning: string }
  /** A tool call the model makes, with its arguments as an object (or, for a freeform tool such as Codex's apply_patch, as text). */
  | { toolCall: { id: string; name: string; input: Record<string, unknown>; freeform?: string } }
  /** Waits until `release()` of this hold is called (or the request is gone): a reply in progress, for Stop. */
  | { hold: Hold };

/** A scripted answer: a streamed turn, or an HTTP error with the provider's error body. */
export type Turn = { steps: TurnStep[] } | { status: number; body: unknown };

export interface ProviderRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/** A gate a turn waits at; `reached` resolves when a stream got there. */
export class Hold {
  reached: Promise<void>;
  private reach!: () => void;
  private releaseAll: (() => void)[] = [];
  private released = false;

  constructor() {
    this.reached = new Promise((resolve) => (this.reach = resolve));
  }

  /** Resolves when released; also marks the hold as reached. */
  wait(): Promise<void> {
    this.reach();
    if (this.released) return Promise.resolve();
    return new Promise((resolve) => this.releaseAll.push(resolve));
  }

  release(): void {
    this.released = true;
    for (const resolve of this.releaseAll.splice(0)) resolve();
  }
}

/** Writes one scripted turn as the provider's stream; resolves once the response ended. */
export type TurnWriter = (request: ProviderRequest, turn: { steps: TurnStep[] }, res: ServerResponse) => Promise<void>;

export interface ProviderRoutes {
  /** Answers requests that are not model turns (token counts, model lists, …), or returns false. */
  other?: (request: ProviderRequest, res: ServerResponse) => boolean;
  /** Whether this request is a model turn the script answers. */
  isTurn: (request: ProviderRequest) => boolean;
  write: TurnWriter;
  /** The answer to a turn the script does not cover; default a short text. */
  fallback?: (request: ProviderRequest) => Turn;
  /** A side request the agent makes on its own (a router, a title): always the fallback's, never the script's. */
  isSide?: (request: ProviderRequest) => boolean;
}

/**
 * The server: `respond` decides each model turn from the request (the test sets it); requests the
 * script does not cover get a short text, as a model would answer a side question (titles, summaries).
 */
export class ProviderServer {
  readonly requests: ProviderRequest[] = [];
  respond: (request: ProviderRequest) => Turn | undefined = () => undefined;
  baseUrl = '';
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly routes: ProviderRoutes) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    this.baseUrl = `http://127.0.0.1:${address.port}`;
    return this;
  }

  /** The model turns received so far (side requests left out). */
  turns(): ProviderRequest[] {
    return this.requests.filter((r) => this.routes.isTurn(r));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: kept as text.
    }
    const request: ProviderRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
    this.requests.push(request);
    if (this.routes.other?.(request, res)) return;
    if (!this.routes.isTurn(request)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const scripted = this.routes.isSide?.(request) ? undefined : this.respond(request);
    const turn = scripted ?? this.routes.fallback?.(request) ?? { steps: [{ text: 'OK.' }] };
    if ('status' in turn) {
      res.writeHead(turn.status, { 'content-type': 'application/json' }).end(JSON.stringify(turn.body));
      return;
    }
    await this.routes.write(request, turn, res).catch(() => res.destroy());
  }
}

/** Writes `steps` in order, waiting at holds; stops early when the client went away. */
export async function playSteps(steps: TurnStep[], res: ServerResponse, write: (step: Exclude<TurnStep, { hold: Hold }>) => void): Promise<void> {
  for (const step of steps) {
    if (res.destroyed) return;
    if ('hold' in step) {
      await Promise.race([step.hold.wait(), new Promise((resolve) => res.once('close', resolve))]);
      continue;
    }
    write(step);
  }
}
