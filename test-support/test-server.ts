/**
 * The shared fixture of the real-socket tests: servers on 127.0.0.1 port 0 in fresh temp dirs,
 * clients that are all closed after each test, a few small test agents, and the assertion every
 * error test makes (the right error, and nothing changed).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import type { Message, State, ToolCallPart } from '../shared/schemas.ts';
import { defineAgent, type AgentDefinition } from '../server/sdk/agent.ts';
import { createMemoryChatRepository } from '../server/persistence/memory-chat-repository.ts';
import { startServer, type AgentbarServer, type ServerOptions } from '../server/server.ts';
import { TestClient, type TestClientOptions } from './test-client.ts';

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
}

export interface TestServer extends AgentbarServer {
  /** Everything the server logged (the fixture keeps it quiet). */
  logs: LogEntry[];
}

export interface TestServerOptions extends Partial<ServerOptions> {
  /** Keep chats in memory instead of files under the temp data dir. */
  memory?: boolean;
}

export interface Harness {
  /** Starts a server; without `dataDir` it gets a fresh temp dir, removed at cleanup. */
  start(options?: TestServerOptions): Promise<TestServer>;
  /** Connects a client that cleanup closes. */
  connect(server: { url: string; token: string }, options?: TestClientOptions): Promise<TestClient>;
  /** A fresh temp dir, removed at cleanup. */
  tmpDir(): Promise<string>;
  /** Closes every client and server it made, then removes its temp dirs. */
  cleanup(): Promise<void>;
}

/**
 * Makes a harness; `useHarness` also registers its cleanup with `afterEach`.
 *
 * @example
 * const h = useHarness();
 * it('creates a chat', async () => {
 *   const server = await h.start({ agents: [echoAgent()] });
 *   const client = await h.connect(server);
 * });
 */
export function createHarness(): Harness {
  const servers: AgentbarServer[] = [];
  const clients: TestClient[] = [];
  const dirs: string[] = [];

  const tmpDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-wire-'));
    dirs.push(dir);
    return dir;
  };

  return {
    tmpDir,
    async start(options = {}) {
      const logs: LogEntry[] = [];
      const { memory, ...rest } = options;
      const server = await startServer({
        agents: [echoAgent()],
        port: 0,
        host: '127.0.0.1',
        heartbeatMs: 60_000,
        log: (level, message) => logs.push({ level, message }),
        ...(memory ? { repository: createMemoryChatRepository() } : {}),
        ...rest,
        dataDir: rest.dataDir ?? (await tmpDir()),
      });
      servers.push(server);
      return Object.assign(server, { logs });
    },
    async connect(server, options = {}) {
      const client = await TestClient.connect(server, options);
      clients.push(client);
      return client;
    },
    async cleanup() {
      await Promise.all(clients.splice(0).map((c) => c.terminate()));
      await Promise.all(servers.splice(0).map((s) => s.close()));
      // A process a test started may write into its folder for a moment after it was stopped.
      await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })));
    },
  };
}

export function useHarness(): Harness {
  const harness = createHarness();
  afterEach(() => harness.cleanup());
  return harness;
}

// ------------------------------------------------------------------ agents

/** Replies `echo: TEXT`. */
export function echoAgent(id = 'test/echo'): AgentDefinition {
  return defineAgent({
    id,
    description: 'Echoes the message',
    async run(ctx) {
      await ctx.reply.text(`echo: ${ctx.text}`);
    },
  });
}

/** Declared, not implemented. */
export function declaredAgent(id = 'test/planner'): AgentDefinition {
  return defineAgent({ id, description: 'Not implemented', implemented: false, workflows: ['plan'] });
}

/** A door the test opens: agents wait on it, and a stopped run stops waiting. */
export class Gate {
  private opened = false;
  private waiters: (() => void)[] = [];
  /** How many waits began: the test knows the agent reached the gate. */
  entered = 0;

  open(): void {
    this.opened = true;
    for (const w of this.waiters.splice(0)) w();
  }

  wait(signal?: AbortSignal): Promise<void> {
    this.entered++;
    if (this.opened) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal!.reason ?? new Error('aborted'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }
}

/** Writes `working`, waits for the gate, then writes ` done`. Has no chat hooks (default policy). */
export function gatedAgent(gate: Gate, id = 'test/gated'): AgentDefinition {
  return defineAgent({
    id,
    description: 'Works until the test opens its gate',
    async run(ctx) {
      await ctx.reply.text('working');
      await gate.wait(ctx.signal);
      await ctx.reply.text(' done');
    },
  });
}

// ------------------------------------------------------------------ waiting

/**
 * Resolves once `check` holds, polling; for conditions no frame announces (server-side state,
 * logs). Fails after `timeoutMs` naming `what`.
 *
 * @example await waitUntil(() => server.store.state.run === null, 'the run to end');
 */
export async function waitUntil(check: () => boolean, what = 'condition', timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Resolves once the server has logged a line matching `pattern`. */
export function waitForLog(server: TestServer, pattern: RegExp, timeoutMs = 5000): Promise<void> {
  return waitUntil(() => server.logs.some((l) => pattern.test(l.message)), `a log line matching ${pattern}`, timeoutMs);
}

// ------------------------------------------------------------------ state helpers

export function activeMessages(state: State | null): Message[] {
  return (state?.active?.messages ?? []) as Message[];
}

export function lastMessage(state: State | null): Message | undefined {
  const messages = activeMessages(state);
  return messages[messages.length - 1];
}

/** The text parts of a message, joined. */
export function textOf(message: Message | undefined): string {
  if (!message) return '';
  return (message.content as { type: string; text?: string }[])
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('');
}

/** Every tool-call part of the active chat, in order. */
export function toolCallsOf(state: State | null): ToolCallPart[] {
  const out: ToolCallPart[] = [];
  for (const m of activeMessages(state)) {
    if (m.role === 'assistant') for (const p of m.content) if (p.type === 'tool-call') out.push(p);
  }
  return out;
}

/**
 * Makes every client hold every patch sent so far: a request's result follows the patches before
 * it, so one answered request per client is a barrier. The request (rename of a chat that does
 * not exist) changes nothing.
 */
export async function syncClients(...clients: TestClient[]): Promise<void> {
  for (const c of clients) {
    const r = await c.request('chat.rename', { chatId: 'sync_barrier', title: 'x' });
    expect(r.error?.code).toBe('not_found');
  }
}

/** Waits until the run is over and every client holds the server's state. */
export async function settle(server: AgentbarServer, ...clients: TestClient[]): Promise<void> {
  await waitUntil(() => server.store.state.run === null, 'the run to end', 10_000);
  await syncClients(...clients);
  for (const c of clients) expect(c.state).toEqual(server.store.state);
}

// ------------------------------------------------------------------ error assertions

export interface ExpectedError {
  code: string;
  /** `null` asserts that the error names no path. */
  path?: string | null;
  message?: string | RegExp;
}

function expectErrorInfo(error: { code: string; message: string; path?: string } | undefined, expected: ExpectedError): void {
  expect(error, 'an error').toBeDefined();
  expect(error!.code).toBe(expected.code);
  expect(typeof error!.message).toBe('string');
  if (expected.path === null) expect(error!.path).toBeUndefined();
  else if (expected.path !== undefined) expect(error!.path).toBe(expected.path);
  if (typeof expected.message === 'string') expect(error!.message).toBe(expected.message);
  else if (expected.message) expect(error!.message).toMatch(expected.message);
}

/** Runs `act` and asserts the server's and every watcher's state (and rev) did not change. */
export async function expectUnchanged<T>(server: AgentbarServer, watchers: TestClient[], act: () => Promise<T>): Promise<T> {
  // Watchers first catch up with what the server already sent, so only `act` can move them.
  await waitUntil(() => watchers.every((c) => c.rev === server.store.rev), 'the watchers to catch up');
  const before = structuredClone(server.store.state);
  const revBefore = server.store.rev;
  const mirrors = watchers.map((c) => ({ state: c.state, rev: c.rev }));
  const out = await act();
  expect(server.store.state).toEqual(before);
  expect(server.store.rev).toBe(revBefore);
  watchers.forEach((c, i) => {
    expect(c.state).toEqual(mirrors[i]!.state);
    expect(c.rev).toBe(mirrors[i]!.rev);
  });
  return out;
}

/**
 * Sends a request that must fail: asserts the result's error, and that neither the server's state
 * nor the mirrors of `client` and `watchers` changed.
 */
export async function expectRejected(
  server: AgentbarServer,
  client: TestClient,
  type: string,
  payload: Record<string, unknown>,
  expected: ExpectedError,
  watchers: TestClient[] = [],
): Promise<Record<string, any>> {
  return expectUnchanged(server, [client, ...watchers], async () => {
    const result = await client.request(type, payload);
    expect(result.ok, `${type} should fail with ${expected.code}`).toBe(false);
    expectErrorInfo(result.error, expected);
    return result;
  });
}

/** Sends a raw frame that must get an `error` frame (no result): asserts it, and that nothing changed. */
export async function expectErrorFrame(
  server: AgentbarServer,
  client: TestClient,
  frame: string,
  expected: ExpectedError,
  watchers: TestClient[] = [],
): Promise<Record<string, any>> {
  return expectUnchanged(server, [client, ...watchers], async () => {
    const from = client.frames.length;
    client.sendRaw(frame);
    const error = await client.next('error', from);
    expectErrorInfo(error as { code: string; message: string; path?: string }, expected);
    expect(client.frames.slice(from).filter((f) => f.type === 'result')).toEqual([]);
    return error;
  });
}
