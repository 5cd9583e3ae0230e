/**
 * `agentbar mcp`: the page's tools as a stdio MCP server, for agents that take only stdio MCP
 * servers. It forwards `tools/list` and `tools/call` to the running server's `/mcp` endpoint (found
 * through the connection file, or `--url` with the token in $AGENTBAR_TOKEN), so every call still
 * goes through that server's checks and its toolbar dispatch.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { parseCommandArgs, UsageError } from './parse-args.ts';
import { describeSilentServer, readConnectionFile } from '../host/connection-file.ts';

export const MCP_USAGE = `Usage: agentbar mcp [--chat <id>] [--data-dir <dir>]
       agentbar mcp --url <http://127.0.0.1:PORT/mcp>   (token in $AGENTBAR_TOKEN)

Serves the page's tools (the ones the open toolbars offer: page info, picked elements, query,
highlight) as an MCP server on stdin/stdout, for an agent that takes stdio MCP servers, e.g.
  claude mcp add agentbar-page -- npx agentbar mcp
Calls go to the running agentbar server (found through DATA_DIR/server.json), which runs them in a
toolbar. --chat sends them to the toolbar of that chat's user.`;

/**
 * @example process.exit(await runMcp(['--chat', 'chat_123']));
 */
export async function runMcp(argv: string[]): Promise<number> {
  const { values, common } = parseCommandArgs('mcp', argv);
  if (common.help) {
    console.log(MCP_USAGE);
    return 0;
  }
  let url: URL;
  let token: string;
  /** Where the address came from, when it was the connection file: a silent server may have left it. */
  let named: { http: string; pid: number } | null = null;
  if (typeof values.url === 'string') {
    try {
      url = new URL(values.url);
    } catch {
      throw new UsageError(`--url needs the server's MCP address, such as http://127.0.0.1:4477/mcp, got ${values.url}`);
    }
    token = process.env.AGENTBAR_TOKEN ?? '';
    if (!token) throw new UsageError('--url needs the token in the AGENTBAR_TOKEN environment variable');
  } else {
    let info;
    try {
      info = await readConnectionFile(common.dataDir);
    } catch (error) {
      console.error(`agentbar mcp: ${(error as Error).message}`);
      return 1;
    }
    const chat = typeof values.chat === 'string' ? `/chats/${encodeURIComponent(values.chat)}` : '';
    url = new URL(`${info.http}/mcp${chat}`);
    token = info.token;
    named = info;
  }

  const upstream = new Client({ name: 'agentbar-mcp-bridge', version: '1.0.0' });
  try {
    await upstream.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  } catch (error) {
    const refused = (error as { cause?: unknown }).cause !== undefined || /fetch failed/.test((error as Error).message);
    console.error(named && refused ? `agentbar mcp: ${describeSilentServer(common.dataDir, named, error)}` : `agentbar mcp: cannot reach ${url.origin}${url.pathname}: ${(error as Error).message}`);
    return 1;
  }
  const server = new Server({ name: 'agentbar-page', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => upstream.listTools());
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => upstream.callTool(req.params, undefined, { signal: extra.signal, timeout: 6 * 60_000 }));
  const closed = new Promise<void>((resolve) => (server.onclose = () => resolve()));
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const unanswered = trackUnanswered(transport);
  // The agent ends the bridge by closing its stdin. A script may pipe its requests in and close it
  // at once: what it asked is answered first (each call is bounded by its own timeout).
  process.stdin.once('end', () => void unanswered.drained().then(() => server.close()));
  await closed;
  await upstream.close();
  return 0;
}

/**
 * Counts the requests read from `transport` that have no answer written yet, by watching its two
 * ends, so the count holds however the SDK schedules the handlers.
 */
function trackUnanswered(transport: StdioServerTransport): { drained(): Promise<void> } {
  const open = new Set<string | number>();
  let onDrained: (() => void) | null = null;
  const receive = transport.onmessage;
  const settle = (id: string | number | undefined) => {
    if (id !== undefined && open.delete(id) && open.size === 0) onDrained?.();
  };
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) open.add(message.id);
    // A cancelled request gets no answer (MCP says so): nothing to wait for.
    else if ('method' in message && message.method === 'notifications/cancelled') settle((message.params as { requestId?: string | number } | undefined)?.requestId);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    try {
      await send(message);
    } finally {
      if (!('method' in message) && 'id' in message) settle(message.id);
    }
  };
  return {
    drained: () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (onDrained = resolve))),
  };
}
