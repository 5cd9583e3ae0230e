/**
 * The page tools as a coding agent calls them: one `tools/call` to the agent server's MCP
 * endpoint, which runs it in the page's toolbar.
 */
import type { DemoServer } from './demo-server.ts';
import { expect } from './fixtures.ts';

export interface ToolAnswer {
  isError: boolean;
  output: Record<string, unknown>;
}

/**
 * Calls the page tool `name` over MCP and gives its answer, parsed.
 *
 * @example const { output } = await callPageTool(server, 'get_console_messages', { limit: 5 });
 */
export async function callPageTool(server: DemoServer, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const res = await fetch(`${server.httpUrl}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${server.token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { isError?: boolean; content: { text: string }[] } };
  return { isError: body.result.isError === true, output: JSON.parse(body.result.content[0]!.text) as Record<string, unknown> };
}
