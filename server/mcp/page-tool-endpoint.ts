/**
 * The page's tools as an MCP server (Streamable HTTP, stateless): a coding agent lists the tools
 * the connected toolbars declared and calls them; each call goes to one toolbar through the same
 * dispatch as a run's calls. Served by the hono app behind the token, Host and Origin checks.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '../../shared/schemas.ts';
import { splitToolImage } from '../../shared/tool-image.ts';
import type { ToolCallResult } from '../sdk/agent.ts';

export interface PageToolEndpointOptions {
  /** The tools connected toolbars declared now. */
  tools: () => readonly ToolDefinition[];
  /**
   * Listed while no toolbar is connected: the tools every toolbar declares. An MCP client lists a
   * server's tools once, when it connects (Claude Code as its session starts), so an agent started
   * before the page was opened would otherwise never see them. A call still needs an open page.
   */
  knownTools?: readonly ToolDefinition[];
  /** Runs one call in a toolbar; `chatId` is the chat the endpoint was opened for (null: the active chat). */
  call: (request: { chatId: string | null; toolName: string; input: Record<string, unknown>; signal: AbortSignal }) => Promise<ToolCallResult>;
}

/** What an MCP client sees of a tool result: text, JSON for anything else, and a picture as an image. */
function toMcpResult(result: ToolCallResult): CallToolResult {
  const picture = result.isError ? null : splitToolImage(result.output);
  if (picture) {
    const { mimeType, data } = picture.image;
    return { content: [{ type: 'text', text: JSON.stringify(picture.rest) }, { type: 'image', data, mimeType }], isError: false };
  }
  const text = typeof result.output === 'string' ? result.output : JSON.stringify(result.output ?? null);
  return { content: [{ type: 'text', text }], isError: result.isError };
}

/** The MCP SDK, loaded on the first MCP request: a server that no agent asks costs no time loading it. */
let mcpSdk: Promise<[typeof import('@modelcontextprotocol/sdk/server/index.js'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), typeof import('@modelcontextprotocol/sdk/types.js')]> | undefined;
function loadMcpSdk() {
  return (mcpSdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]));
}

function listTools(options: PageToolEndpointOptions): readonly ToolDefinition[] {
  const now = options.tools();
  return now.length > 0 ? now : (options.knownTools ?? []);
}

/**
 * Makes the handler of one MCP HTTP request.
 *
 * @example app.all('/mcp', requireToken, (c) => handle(c.req.raw, null));
 */
export function createPageToolEndpoint(options: PageToolEndpointOptions): (request: Request, chatId: string | null) => Promise<Response> {
  return async (request, chatId) => {
    const [{ Server }, { WebStandardStreamableHTTPServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] = await loadMcpSdk();
    // Stateless: a server and a transport per request, so nothing is kept between calls.
    const server = new Server({ name: 'agentbar-page', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: listTools(options).map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: (t.inputSchema.type === 'object' ? t.inputSchema : { type: 'object', properties: {} }) as { type: 'object'; [key: string]: unknown },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      const name = req.params.name;
      if (!options.tools().some((t) => t.name === name)) {
        const offered = options.tools().map((t) => t.name);
        return toMcpResult({
          output: offered.length > 0 ? `No page tool called ${name}; the page offers ${offered.join(', ')}` : `No page is open with the agentbar toolbar to run ${name} in: ask the developer to open their page (with the toolbar), then call it again`,
          isError: true,
        });
      }
      return toMcpResult(await options.call({ chatId, toolName: name, input: req.params.arguments ?? {}, signal: extra.signal }));
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      void server.close();
    }
  };
}
