/**
 * How `agents`, `chat` and `sessions` reach a server: the running one named by the connection file
 * (when its process answers), or else one started inside this process on the same data folder, with
 * the same agents as `agentbar serve`, stopped when the command ends.
 */
import WebSocket from 'ws';
import { createSyncClient, type SyncClient } from '../../shared/sync-client.ts';
import { createWebSocketConnector } from '../../shared/transport.ts';
import { readConnectionFile, type ConnectionInfo } from '../host/connection-file.ts';
import type { AgentbarServer } from '../server.ts';
import { buildAgents, type AgentFlags } from './build-agents.ts';
import { CliError } from './chat-turn.ts';

export interface Attached {
  client: SyncClient;
  /** The server's data folder. */
  dataDir: string;
  /** True when the server runs inside this process. */
  embedded: boolean;
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 15_000;

async function isServing(info: ConnectionInfo): Promise<boolean> {
  try {
    const res = await fetch(`${info.http}/health`, { signal: AbortSignal.timeout(2_000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** Resolves once the client holds the state (after the first snapshot); rejects with why not. */
export function waitForState(client: SyncClient, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      const view = client.getSnapshot();
      reject(new Error(`the server did not answer within ${timeoutMs / 1000} s${view.error ? ` (${view.error.message})` : ''}`));
    }, timeoutMs);
    const check = () => {
      const view = client.getSnapshot();
      if (view.state && view.status === 'connected') {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      } else if (view.status === 'closed') {
        clearTimeout(timer);
        unsubscribe();
        reject(new Error(view.error?.message ?? 'the connection was refused'));
      }
    };
    const unsubscribe = client.subscribe(check);
    check();
  });
}

/**
 * @example const { client, close } = await attachOrEmbed({ dataDir, flags: { model: null, acp: [], cwd: undefined }, name: 'agentbar chat' });
 */
export async function attachOrEmbed(options: { dataDir: string; flags: AgentFlags; name: string; log?: (line: string) => void }): Promise<Attached> {
  let info: ConnectionInfo | null = null;
  try {
    info = await readConnectionFile(options.dataDir);
  } catch {
    info = null;
  }
  let server: AgentbarServer | null = null;
  const write = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (info && (await isServing(info))) {
    // The running server has its own agents: these flags would otherwise vanish without a word.
    const flags = [...(options.flags.model ? ['--model'] : []), ...(options.flags.acp.length > 0 ? ['--acp'] : [])];
    if (flags.length > 0) {
      write(`${options.name}: a server is already running on ${options.dataDir}, with its own agents; ${flags.join(' and ')} ${flags.length === 1 ? 'applies' : 'apply'} only to a server this command starts. Restart \`agentbar serve\` with them, or pass --data-dir with another folder.`);
    }
  } else {
    // An agent's warnings as notes of this command; that it started is no news here.
    let built: Awaited<ReturnType<typeof buildAgents>>;
    try {
      built = await buildAgents(options.flags, options.dataDir, (agentId, level, message) => level !== 'info' && write(`[agentbar ${agentId}] ${message}`));
    } catch (error) {
      // A flag's mistake (--cwd that is no folder), as `agentbar serve` treats it: exit 2.
      throw new CliError((error as Error).message, 2);
    }
    // Quiet: this process's output is the conversation. Problems still reach stderr (or `log`).
    // Loaded only when no server runs: attaching to one needs none of it.
    const { startServer } = await import('../server.ts');
    server = await startServer({ agents: built.agents, dataDir: options.dataDir, port: 0, log: (level, message) => level !== 'info' && write(`[agentbar] ${message}`) });
    info = { url: server.url, http: server.httpUrl, token: server.token };
    // As `agentbar serve` does once it listens: a missing ACP program or model says so now, not at the first message.
    for (const check of built.checks) void check();
  }
  const url = new URL(info.url);
  url.searchParams.set('token', info.token);
  const client = createSyncClient({ connect: createWebSocketConnector(url.toString(), WebSocket), client: { kind: 'cli', name: options.name } });
  client.start();
  const close = async () => {
    client.close();
    await server?.close();
  };
  try {
    await waitForState(client);
  } catch (error) {
    await close();
    throw error;
  }
  return { client, dataDir: server?.dataDir ?? options.dataDir, embedded: server !== null, close };
}
