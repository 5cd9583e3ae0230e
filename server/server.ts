/**
 * `startServer`, the composition root: one HTTP server on one port, where hono serves the routes
 * (`edge/http-app.ts`) and `ws` takes the upgrade at `/ws` (`edge/websocket-upgrade.ts`), wired to
 * the state store, the chats, the runs and the agents' kept state (`sync/`).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { LIMITS } from '../shared/limits.ts';
import { PAGE_TOOL_DEFINITIONS } from '../shared/page-tool-definitions.ts';
import type { State } from '../shared/schemas.ts';
import type { AgentDefinition } from './sdk/agent.ts';
import { AgentRegistry } from './sdk/agent-registry.ts';
import { AgentStates } from './sync/agent-states.ts';
import { ChatManager } from './sync/chats.ts';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './sync/connection.ts';
import { defaultDataDir } from './host/data-dir.ts';
import { describeBusyDataDir } from './host/busy-data-dir.ts';
import { writeConnectionFile } from './host/connection-file.ts';
import { describeError } from './sync/describe-error.ts';
import { createHttpApp } from './edge/http-app.ts';
import { connectHost, isLoopbackHost } from './edge/listen-address.ts';
import { createPageToolEndpoint } from './mcp/page-tool-endpoint.ts';
import type { ChatRepository, LogFn } from './persistence/chat-repository.ts';
import { createFileChatRepository } from './persistence/file-chat-repository.ts';
import { createMemoryChatRepository } from './persistence/memory-chat-repository.ts';
import { handleRequest, type RequestContext } from './sync/requests.ts';
import { RunManager } from './sync/runs.ts';
import { createSignInLinks, type SignInLinks } from './edge/sign-in-links.ts';
import { DataDirBusyError, lockDataDir, type DataDirLock } from './host/data-dir-lock.ts';
import { PACKAGE_ROOT } from './host/package-info.ts';
import { connectionsCheckingInterval, DEFAULT_SOCKET_LIMITS, guardSockets, type SocketLimits } from './edge/socket-guard.ts';
import { StateStore } from './sync/state-store.ts';
import { ToolCalls } from './sync/tool-calls.ts';
import { ToolDispatcher, type ToolDispatcherOptions } from './sync/tool-dispatcher.ts';
import { attachWebSockets } from './edge/websocket-upgrade.ts';

export { defaultDataDir };

export type { LogFn };

export interface ServerOptions {
  agents: AgentDefinition[];
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback unless told otherwise; anything else also needs `exposeBeyondLoopback`. */
  host?: string;
  /** Explicit opt-in to bind a non-loopback address. */
  exposeBeyondLoopback?: boolean;
  /** Where chats and `server.json` live. Default `$AGENTBAR_DATA_DIR` or `~/.agentbar`. */
  dataDir?: string;
  /** Default: 128 random bits, new at each start. */
  token?: string;
  /** Extra allowed browser origins, e.g. `https://dev.example.test:3000`. */
  allowOrigins?: string[];
  log?: LogFn;
  /** `'memory'` keeps chats in memory only (tests, embedding); or pass your own store. Default: files in `dataDir`. */
  repository?: ChatRepository | 'memory';
  /** Default true: write `DATA_DIR/server.json` once listening. */
  writeConnectionFile?: boolean;
  /** permessage-deflate on the socket (default true). */
  perMessageDeflate?: boolean;
  /**
   * Clients that get permessage-deflate at once (default 16); later ones get plain frames until
   * one of those leaves. Deflate with context takeover is what makes a streamed token cost about
   * 11 bytes, but each compressed client costs its own zlib work and memory: see `npm run bench`
   * (section `scaling`) for why 16.
   */
  maxDeflateClients?: number;
  maxFrameBytes?: number;
  heartbeatMs?: number;
  limits?: Partial<ConnectionLimits>;
  /** Caps and timeouts of the sockets themselves (count, slow headers, silence). */
  sockets?: Partial<SocketLimits>;
  tools?: ToolDispatcherOptions;
  replay?: { frames?: number; bytes?: number };
  toolbarBundlePath?: string;
  /**
   * The one-time sign-in codes (default: the server's own). A proxy given the same redeems the
   * codes `agentbar sign-in` asks the server for.
   */
  signIn?: SignInLinks;
}

export interface AgentbarServer {
  /** `ws://127.0.0.1:PORT/ws` */
  url: string;
  /** `http://127.0.0.1:PORT` */
  httpUrl: string;
  token: string;
  port: number;
  store: StateStore;
  dataDir: string;
  connectionFile: string | null;
  /**
   * A one-time address that opens the demo page (once, within 5 minutes) and signs that browser
   * in with a cookie and a browser key; the token itself stays out of it.
   */
  signInUrl(): string;
  /** Flushes chats, closes every client, removes the connection file. Safe to call twice. */
  close(): Promise<void>;
}

/** See `ServerOptions.maxDeflateClients`. */
export const DEFAULT_MAX_DEFLATE_CLIENTS = 16;

/**
 * Starts an agentbar server.
 *
 * @example
 * const server = await startServer({ agents: [echo], port: 0, dataDir: '/tmp/agentbar-demo' });
 * console.log(server.httpUrl); // open it for the demo page
 * await server.close();
 */
export async function startServer(options: ServerOptions): Promise<AgentbarServer> {
  const log: LogFn = options.log ?? ((level, message) => (level === 'info' ? console.log : console.error)(`[agentbar] ${message}`));
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !options.exposeBeyondLoopback) {
    throw new Error(`Refusing to listen on ${host}: it is not a loopback address. Pass --unsafe-expose (exposeBeyondLoopback) if you really mean it.`);
  }
  const token = options.token ?? randomBytes(24).toString('base64url');
  if (token.length < 16) throw new Error('The token must be at least 16 characters');
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir());
  await mkdir(dataDir, { recursive: true, mode: 0o700 });

  // Two servers on one data folder would overwrite each other's chats.
  let lock: DataDirLock | null = null;
  if (options.writeConnectionFile !== false) {
    try {
      lock = await lockDataDir(dataDir);
    } catch (error) {
      if (error instanceof DataDirBusyError) throw new Error(await describeBusyDataDir(error));
      throw error;
    }
  }

  const registry = new AgentRegistry(options.agents);
  const repo =
    options.repository === 'memory'
      ? createMemoryChatRepository({ log })
      : (options.repository ?? createFileChatRepository({ dir: dataDir, log }));
  const index = await repo.open();
  const agentStates = new AgentStates(index.agentState, registry);

  const initial: State = {
    agents: agentStates.describe(),
    chats: Object.fromEntries(index.chats.map((c) => [c.id, c])),
    activeChatId: null,
    active: null,
    run: null,
  };
  const store = new StateStore(initial, { replayFrames: options.replay?.frames, replayBytes: options.replay?.bytes });
  const saveMeta = () => repo.setMeta({ activeChatId: store.state.activeChatId, agentState: agentStates.toJSON() });
  const chats = new ChatManager(store, repo, saveMeta);
  if (index.activeChatId && chats.info(index.activeChatId)) {
    try {
      await chats.load(index.activeChatId);
      chats.activate(index.activeChatId);
    } catch (error) {
      log('warn', `Could not restore the active chat ${index.activeChatId}: ${error instanceof Error ? error.message : error}`);
    }
  }
  store.flush();

  const agentState = agentStates.accessors({ store, save: saveMeta, nameChat: (chatId, title) => chats.nameByAgent(chatId, title) });

  const dispatcher = new ToolDispatcher(options.tools);
  const tools = new ToolCalls({ chats, dispatcher, now: Date.now });
  let port = 0;
  const ownUrl = () => `http://${connectHost(host)}:${port}`;
  const runs = new RunManager({
    store,
    chats,
    tools,
    agentState,
    log,
    pageTools: () => dispatcher.toolDefinitions(),
    pageToolServer: (chatId) => {
      const url = `${ownUrl()}/mcp/chats/${encodeURIComponent(chatId)}`;
      const stdio = { command: process.execPath, args: [path.join(PACKAGE_ROOT, 'bin', 'agentbar.mjs'), 'mcp', '--url', url], env: { AGENTBAR_TOKEN: token } };
      return { url, headers: { Authorization: `Bearer ${token}` }, stdio };
    },
  });
  const mcp = createPageToolEndpoint({
    tools: () => dispatcher.toolDefinitions(),
    knownTools: PAGE_TOOL_DEFINITIONS,
    call: ({ chatId, toolName, input, signal }) => {
      const target = chatId ?? store.state.activeChatId ?? 'none';
      // The toolbar of the user who started the run in this chat answers when it can.
      const prefer = runs.current?.chatId === target ? runs.currentOriginClientId : undefined;
      return tools.callDetached({ chatId: target, toolName, input, preferClientId: prefer, signal });
    },
  });
  const ctx: RequestContext = { store, chats, runs, tools, agents: registry, log, persisted: () => repo.flush() };

  const policy = { port: () => port, token, allowOrigins: options.allowOrigins ?? [] };
  const limits: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };

  const signIn = options.signIn ?? createSignInLinks();
  const app = createHttpApp({
    policy,
    signIn,
    agents: () => store.state.agents,
    toolbarBundlePath: options.toolbarBundlePath ?? path.join(PACKAGE_ROOT, 'dist', 'toolbar.js'),
    httpUrl: ownUrl,
    mcp,
    allowSlowAnswer: (bindings) => guard.allowSlowAnswer(bindings),
  });
  const socketLimits: SocketLimits = { ...DEFAULT_SOCKET_LIMITS, ...options.sockets };
  const http = createServer({ connectionsCheckingInterval: connectionsCheckingInterval(socketLimits) }, getRequestListener(app.fetch));
  const guard = guardSockets(http, socketLimits, (message) => log('warn', message));
  const sockets = attachWebSockets(http, {
    policy,
    guard,
    connection: {
      store,
      limits,
      log,
      handle: (request, client) => handleRequest(ctx, request, client),
      joined: (client) => dispatcher.addClient(client),
      left: (clientId) => dispatcher.removeClient(clientId),
    },
    maxFrameBytes: options.maxFrameBytes ?? LIMITS.maxFrameBytes,
    maxDeflateClients: options.perMessageDeflate === false ? 0 : (options.maxDeflateClients ?? DEFAULT_MAX_DEFLATE_CLIENTS),
    heartbeatMs: options.heartbeatMs ?? 30_000,
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const shownHost = connectHost(host);
  const url = `ws://${shownHost}:${port}/ws`;
  const httpUrl = `http://${shownHost}:${port}`;

  let connectionFile: string | null = null;
  if (options.writeConnectionFile !== false) {
    connectionFile = await writeConnectionFile(dataDir, { url, http: httpUrl, token, pid: process.pid });
  }

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      runs.shutdown();
      store.flush();
      dispatcher.close();
      sockets.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await repo.close();
      await registry.disposeAll((agentId, error) => log('warn', `Agent ${agentId} failed to stop: ${describeError(error)}`));
      if (connectionFile) await rm(connectionFile, { force: true });
      await lock?.release();
    })());

  const signInUrl = () => `${httpUrl}/sign-in/${signIn.issue().code}`;
  return { url, httpUrl, token, port, store, dataDir, connectionFile, signInUrl, close };
}
