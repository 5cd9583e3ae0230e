/**
 * `startServer`: one HTTP server on one port. hono serves the routes, `ws` (noServer) takes the
 * upgrade at `/ws` after the Host, Origin and token checks.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { homedir } from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { LIMITS } from '../shared/limits.ts';
import { PAGE_TOOL_DEFINITIONS } from '../shared/page-tool-definitions.ts';
import type { AgentCommand, AgentMode, AgentSetting, State } from '../shared/schemas.ts';
import type { AgentDefinition, AgentStateAccess } from './sdk/agent.ts';
import { normalizeCommands } from './sdk/agent-commands.ts';
import { normalizeModes } from './sdk/agent-modes.ts';
import { normalizeSettings } from './sdk/agent-settings.ts';
import { AgentRegistry } from './sdk/agent-registry.ts';
import { titleFromText } from './sync/chat-title.ts';
import { ChatManager } from './sync/chats.ts';
import { ClientConnection, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './sync/connection.ts';
import { writeConnectionFile } from './host/connection-file.ts';
import { describeError } from './sync/describe-error.ts';
import { createHttpApp } from './edge/http-app.ts';
import { createPageToolEndpoint } from './mcp/page-tool-endpoint.ts';
import type { ChatRepository, LogFn } from './persistence/chat-repository.ts';
import { createFileChatRepository } from './persistence/file-chat-repository.ts';
import { createMemoryChatRepository } from './persistence/memory-chat-repository.ts';
import { handleRequest, type RequestContext } from './sync/requests.ts';
import { RunManager } from './sync/runs.ts';
import { checkAccess, describeRefusal } from './edge/security.ts';
import { createSignInLinks } from './edge/sign-in-links.ts';
import { DataDirBusyError, lockDataDir, type DataDirLock } from './host/data-dir-lock.ts';
import { PACKAGE_ROOT } from './host/package-info.ts';
import { connectionsCheckingInterval, DEFAULT_SOCKET_LIMITS, guardSockets, type SocketLimits } from './edge/socket-guard.ts';
import { statePath } from './sync/state-paths.ts';
import { StateStore } from './sync/state-store.ts';
import { ToolCalls } from './sync/tool-calls.ts';
import { ToolDispatcher, type ToolDispatcherOptions } from './sync/tool-dispatcher.ts';

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
   * in with a cookie; the token itself stays out of it.
   */
  signInUrl(): string;
  /** Flushes chats, closes every client, removes the connection file. Safe to call twice. */
  close(): Promise<void>;
}

/** See `ServerOptions.maxDeflateClients`. */
export const DEFAULT_MAX_DEFLATE_CLIENTS = 16;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function defaultDataDir(): string {
  return process.env.AGENTBAR_DATA_DIR || path.join(homedir(), '.agentbar');
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The host clients put in URLs. Clients on this machine connect over loopback, which the Host
 * check accepts; a wildcard bind (0.0.0.0, ::) is reachable there too, and is no address to dial.
 */
function connectHost(host: string): string {
  return formatHost(host === 'localhost' || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);
}

/** The refusal, with the other server's address when its connection file names it. */
async function describeBusy(error: DataDirBusyError): Promise<string> {
  let http = '';
  try {
    const other = JSON.parse(await readFile(path.join(error.dataDir, 'server.json'), 'utf8')) as { pid?: unknown; http?: unknown };
    if (other.pid === error.pid && typeof other.http === 'string') http = `, ${other.http}`;
  } catch {
    // no connection file yet: the pid says enough
  }
  return `Another agentbar server (pid ${error.pid}${http}) is using ${error.dataDir}; stop it or pass another --data-dir`;
}

interface AgentMeta {
  state?: unknown;
  activeSkill?: string | null;
  commands?: AgentCommand[];
  modes?: AgentMode[];
  settings?: AgentSetting[];
}

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
  if (!LOOPBACK.has(host) && !options.exposeBeyondLoopback) {
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
      if (error instanceof DataDirBusyError) throw new Error(await describeBusy(error));
      throw error;
    }
  }

  const registry = new AgentRegistry(options.agents);
  const repo =
    options.repository === 'memory'
      ? createMemoryChatRepository({ log })
      : (options.repository ?? createFileChatRepository({ dir: dataDir, log }));
  const index = await repo.open();
  const agentMeta = new Map<string, AgentMeta>(
    Object.entries(index.agentState).filter(([id]) => registry.get(id)) as [string, AgentMeta][],
  );
  // meta.json is ours, but a hand edit or an older version must not put a bad list in the state.
  for (const meta of agentMeta.values()) {
    if (meta.commands !== undefined) meta.commands = Array.isArray(meta.commands) ? normalizeCommands(meta.commands) : [];
    if (meta.modes !== undefined) meta.modes = Array.isArray(meta.modes) ? normalizeModes(meta.modes) : [];
    if (meta.settings !== undefined) meta.settings = Array.isArray(meta.settings) ? normalizeSettings(meta.settings) : [];
  }

  const initial: State = {
    agents: registry.infos(
      (id) => agentMeta.get(id)?.activeSkill ?? null,
      (id) => agentMeta.get(id)?.commands,
      (id) => agentMeta.get(id)?.modes,
      (id) => agentMeta.get(id)?.settings,
    ),
    chats: Object.fromEntries(index.chats.map((c) => [c.id, c])),
    activeChatId: null,
    active: null,
    run: null,
  };
  const store = new StateStore(initial, { replayFrames: options.replay?.frames, replayBytes: options.replay?.bytes });
  const saveMeta = () => repo.setMeta({ activeChatId: store.state.activeChatId, agentState: Object.fromEntries(agentMeta) });
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

  /** An agent's commands, modes or settings, set at run time: kept in meta.json, shown when they change. */
  const replaceAgentList = <K extends 'commands' | 'modes' | 'settings'>(agentId: string, key: K, next: NonNullable<AgentMeta[K]>) => {
    const i = store.state.agents.findIndex((a) => a.id === agentId);
    const meta = agentMeta.get(agentId);
    // Agents announce these again with every session: only a change reaches the clients.
    const same = JSON.stringify(next) === JSON.stringify(store.state.agents[i]?.[key] ?? []);
    if (same && meta?.[key]) return;
    agentMeta.set(agentId, { ...meta, [key]: next });
    const path = key === 'commands' ? statePath.agentCommands(i) : key === 'modes' ? statePath.agentModes(i) : statePath.agentSettings(i);
    if (!same && i >= 0) store.change([next.length ? { op: 'add', path, value: next } : { op: 'remove', path }]);
    saveMeta();
  };
  const agentState = (agentId: string): AgentStateAccess => ({
    get: <T>() => agentMeta.get(agentId)?.state as T | undefined,
    set: (value) => {
      // JSON, because it goes to meta.json; a value JSON cannot hold fails here, in the agent's code.
      const text = JSON.stringify(value);
      if (text !== undefined && text.length > 1024 * 1024) throw new RangeError('Agent state is limited to 1 MiB of JSON');
      agentMeta.set(agentId, { ...agentMeta.get(agentId), state: text === undefined ? undefined : JSON.parse(text) });
      saveMeta();
    },
    setActiveSkill: (skill) => {
      if (skill !== null && (typeof skill !== 'string' || skill.length > 200)) {
        throw new TypeError('setActiveSkill takes a string of at most 200 characters, or null');
      }
      agentMeta.set(agentId, { ...agentMeta.get(agentId), activeSkill: skill });
      const i = store.state.agents.findIndex((a) => a.id === agentId);
      if (i >= 0) store.change([{ op: 'add', path: statePath.agentActiveSkill(i), value: skill }]);
      saveMeta();
    },
    setCommands: (commands) => {
      if (!Array.isArray(commands)) throw new TypeError('setCommands takes an array of { name, description, hint? }');
      replaceAgentList(agentId, 'commands', normalizeCommands(commands));
    },
    setModes: (modes) => {
      if (!Array.isArray(modes)) throw new TypeError('setModes takes an array of { id, name, description? }');
      replaceAgentList(agentId, 'modes', normalizeModes(modes));
    },
    setSettings: (settings) => {
      if (!Array.isArray(settings)) throw new TypeError('setSettings takes an array of { id, name, options: [{ value, name }], defaultValue? }');
      replaceAgentList(agentId, 'settings', normalizeSettings(settings));
    },
    setChatTitle: (chatId, title) => {
      const words = typeof title === 'string' ? titleFromText(title, LIMITS.maxTitleLength) : null;
      if (words === null) throw new TypeError(`setChatTitle takes a title with words in it, not ${JSON.stringify(title)}`);
      return typeof chatId === 'string' && chats.nameByAgent(chatId, words);
    },
  });

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
  const connections = new Set<ClientConnection>();

  const signIn = createSignInLinks();
  const app = createHttpApp({
    policy,
    signIn,
    agents: () => store.state.agents,
    toolbarBundlePath: options.toolbarBundlePath ?? path.join(PACKAGE_ROOT, 'dist', 'toolbar.js'),
    wsUrl: () => `ws://${connectHost(host)}:${port}/ws`,
    httpUrl: ownUrl,
    mcp,
    allowSlowAnswer: (bindings) => guard.allowSlowAnswer(bindings),
  });
  const socketLimits: SocketLimits = { ...DEFAULT_SOCKET_LIMITS, ...options.sockets };
  const http = createServer({ connectionsCheckingInterval: connectionsCheckingInterval(socketLimits) }, getRequestListener(app.fetch));
  const guard = guardSockets(http, socketLimits, (message) => log('warn', message));
  const maxPayload = options.maxFrameBytes ?? LIMITS.maxFrameBytes;
  // Two servers, one per answer to the client's deflate offer: the upgrade picks by the count.
  const wssDeflate = new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: { threshold: 0, concurrencyLimit: 10 } });
  const wssPlain = new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: false });
  const maxDeflateClients = options.perMessageDeflate === false ? 0 : (options.maxDeflateClients ?? DEFAULT_MAX_DEFLATE_CLIENTS);
  let deflateClients = 0;

  const refuseUpgrade = (socket: Duplex, status: number, why: string) => {
    const body = `${why}\n`;
    socket.end(`HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };

  // A toolbar with an old token retries for ever: say so in the log, but once a minute per reason and origin.
  const lastRefusal = new Map<string, number>();
  const noteRefusal = (message: string) => {
    const now = Date.now();
    if ((lastRefusal.get(message) ?? -Infinity) > now - 60_000) return;
    if (lastRefusal.size >= 100) lastRefusal.clear();
    lastRefusal.set(message, now);
    log('warn', `Refused a WebSocket: ${message}`);
  };

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return refuseUpgrade(socket, 404, 'Not found');
    const why = checkAccess(policy, { host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization }, url, true);
    if (why) {
      noteRefusal(describeRefusal(why, req.headers));
      return refuseUpgrade(socket, 403, `Forbidden: ${why}`);
    }
    guard.trust(socket as Socket);
    (deflateClients < maxDeflateClients ? wssDeflate : wssPlain).handleUpgrade(req, socket, head, (ws) => {
      // Only a client that accepted deflate holds a slot (ws completes the upgrade synchronously).
      if (ws.extensions.includes('permessage-deflate')) {
        deflateClients++;
        ws.once('close', () => deflateClients--);
      }
      const connection = new ClientConnection(ws, {
        store,
        limits,
        log,
        handle: (request, client) => handleRequest(ctx, request, client),
        joined: (client) => dispatcher.addClient(client),
        left: (clientId) => dispatcher.removeClient(clientId),
      });
      connections.add(connection);
      ws.on('close', () => connections.delete(connection));
    });
  });

  const heartbeat = setInterval(() => {
    for (const c of connections) if (!c.ping()) connections.delete(c);
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();

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
      clearInterval(heartbeat);
      runs.shutdown();
      store.flush();
      dispatcher.close();
      for (const c of connections) c.closeGracefully();
      wssDeflate.close();
      wssPlain.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await repo.close();
      // Agents stop what they started (an ACP agent's process); one's failure does not stop the others.
      await Promise.all(
        options.agents.map(async (agent) => {
          try {
            await agent.dispose?.();
          } catch (error) {
            log('warn', `Agent ${agent.id} failed to stop: ${describeError(error)}`);
          }
        }),
      );
      if (connectionFile) await rm(connectionFile, { force: true });
      await lock?.release();
    })());

  const signInUrl = () => `${httpUrl}/sign-in/${signIn.issue().code}`;
  return { url, httpUrl, token, port, store, dataDir, connectionFile, signInUrl, close };
}
