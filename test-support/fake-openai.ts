/**
 * A real HTTP server on 127.0.0.1 port 0 that speaks the OpenAI-compatible chat-completions API
 * (`POST /v1/chat/completions`, streamed as server-sent events, and `GET /v1/models`), answering from a script the test
 * queues: text and reasoning deltas, tool calls whose arguments arrive in pieces, usage, error
 * statuses, pauses (for Stop) and a connection cut mid-stream. It keeps every request body, so a
 * test can assert on what agentbar sent the model.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type FakeStep =
  | { text: string }
  | { reasoning: string }
  /** A tool call; `args` is the JSON arguments text, sent in these pieces. */
  | { toolCall: { id: string; name: string; args: string[] } }
  | { delayMs: number }
  /** Drops the connection here, without finishing the stream. */
  | { cut: true };

export interface FakeReply {
  /** An error status instead of a stream, with `error` as the OpenAI-style error body. */
  status?: number;
  error?: { message: string; type?: string; code?: string };
  steps?: FakeStep[];
  /** Default: `tool_calls` when a step is a tool call, else `stop`. */
  finish?: 'stop' | 'tool_calls' | 'length';
  /** Token counts, sent (as OpenAI does) only to a request with `stream_options.include_usage`. Default 10 in, 5 out. */
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } };
}

export interface FakeRequest {
  body: {
    model: string;
    messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
  };
  headers: IncomingMessage['headers'];
}

/** When each text step's bytes were written, for latency measurements. */
export type SentLog = number[];

export class FakeOpenAi {
  readonly requests: FakeRequest[] = [];
  /** When each text step was written, on `now` (the bench passes its cross-process clock). */
  readonly sent: SentLog = [];
  now: () => number = () => performance.now();
  private readonly replies: FakeReply[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl = '';
  /** What `GET /v1/models` lists. */
  models: string[] = ['fake-model:7b'];
  /** When set, a request without `Authorization: Bearer <apiKey>` gets a 401, as OpenAI answers. */
  apiKey: string | null = null;
  /** When set, a request that offers tools gets a 400 with this message, as Ollama answers for a model without tool support. */
  refuseTools: string | null = null;
  /**
   * When set, a request whose messages hold an image or a file part (one matching `only`, tried on
   * the part's JSON) gets this error: Ollama answers 500 "this model is missing data required for
   * image input" for a model without vision, and 400 "invalid image input" for a GIF to any model.
   */
  refuseMedia: { message: string; status?: number; only?: RegExp } | null = null;

  /** Queues replies for the next requests, in order; with none queued the answer is "ok". */
  queue(...replies: FakeReply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** The system prompt of request `i` (its first system message). */
  systemOf(i: number): string {
    const m = this.requests[i]?.body.messages.find((x) => x.role === 'system');
    return typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '');
  }

  static async start(): Promise<FakeOpenAi> {
    const fake = new FakeOpenAi();
    const server = createServer((req, res) => void fake.handle(req, res));
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    fake.server = server;
    fake.baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
    return fake;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (this.apiKey !== null && req.headers.authorization !== `Bearer ${this.apiKey}`) {
      res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }));
      return;
    }
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ object: 'list', data: this.models.map((id) => ({ id, object: 'model', created: 1, owned_by: 'fake' })) }));
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not found' } }));
      return;
    }
    let body: FakeRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400).end('bad json');
      return;
    }
    this.requests.push({ body, headers: req.headers });
    if (this.refuseTools !== null && body.tools?.length) {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: this.refuseTools, type: 'api_error', param: null, code: null } }));
      return;
    }
    const refused = this.refuseMedia;
    const isRefused = (p: { type?: string }) => ['image_url', 'file', 'input_audio'].includes(p.type ?? '') && (!refused?.only || refused.only.test(JSON.stringify(p)));
    if (refused && body.messages.some((m) => Array.isArray(m.content) && m.content.some(isRefused))) {
      res.writeHead(refused.status ?? 500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: refused.message, type: 'api_error', param: null, code: null } }));
      return;
    }
    const reply = this.replies.shift() ?? { steps: [{ text: 'ok' }] };
    if (reply.status) {
      res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: 'error', type: 'error', ...reply.error } }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    const id = `chatcmpl-${this.requests.length}`;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    let toolIndex = 0;
    let sawTool = false;
    for (const step of reply.steps ?? []) {
      if (res.destroyed) return;
      if ('delayMs' in step) await new Promise((r) => setTimeout(r, step.delayMs));
      else if ('cut' in step) {
        res.socket?.destroy();
        return;
      } else if ('text' in step) {
        res.write(chunk({ content: step.text }));
        this.sent.push(this.now());
      } else if ('reasoning' in step) res.write(chunk({ reasoning_content: step.reasoning }));
      else {
        sawTool = true;
        const index = toolIndex++;
        const [first = '', ...rest] = step.toolCall.args;
        res.write(chunk({ tool_calls: [{ index, id: step.toolCall.id, type: 'function', function: { name: step.toolCall.name, arguments: first } }] }));
        for (const piece of rest) res.write(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
    if (res.destroyed) return;
    res.write(chunk({}, reply.finish ?? (sawTool ? 'tool_calls' : 'stop')));
    if (body.stream_options?.include_usage === true) {
      // OpenAI's last chunk when asked: no choices, the request's token counts.
      const usage = reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }
}
