import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { PAGE_TOOL_DEFINITIONS } from '../../shared/page-tool-definitions.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { lastMessage, textOf, useHarness, type TestServer } from '../../test-support/test-server.ts';
import { createAcpAgent } from '../acp-agent/create-acp-agent.ts';

const h = useHarness();
const SCRIPT = fileURLToPath(new URL('../../test-support/scripted-acp-agent.mjs', import.meta.url));

const SELECTED = { name: 'get_selected_elements', description: 'The elements the user picked', inputSchema: { type: 'object', properties: {} } };
const HIGHLIGHT = { name: 'highlight_element', description: 'Outlines an element', inputSchema: { type: 'object', properties: { selector: { type: 'string' } }, required: ['selector'] } };

async function mcpClient(server: TestServer, headers: Record<string, string> = { Authorization: `Bearer ${server.token}` }, route = '/mcp'): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.httpUrl}${route}`), { requestInit: { headers } }));
  return client;
}

/** A toolbar that answers every tool.run with `output`. */
function answerCalls(toolbar: TestClient, output: unknown): void {
  toolbar.ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { type: string; chatId: string; toolCallId: string; toolName: string; input: unknown };
    if (frame.type !== 'tool.run') return;
    // The test may end before the result's answer arrives (the harness closes the client): no unhandled rejection.
    toolbar.request('tool.result', { chatId: frame.chatId, toolCallId: frame.toolCallId, output: typeof output === 'function' ? (output as (f: unknown) => unknown)(frame) : output }).catch(() => {});
  });
}

describe('the page tools over MCP', () => {
  it('lists the tools the toolbars declared and runs a call in a toolbar', { timeout: 20_000 }, async () => {
    const server = await h.start();
    const toolbar = await h.connect(server, { kind: 'toolbar', tools: [SELECTED, HIGHLIGHT] });
    answerCalls(toolbar, (frame: { toolName: string; input: unknown }) => ({ ran: frame.toolName, input: frame.input }));
    const mcp = await mcpClient(server);
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_selected_elements', 'highlight_element']);
    expect(tools[1]!.inputSchema).toMatchObject({ type: 'object', required: ['selector'] });
    const result = await mcp.callTool({ name: 'highlight_element', arguments: { selector: '#buy' } });
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: JSON.stringify({ ran: 'highlight_element', input: { selector: '#buy' } }) }] });
    expect(toolbar.framesOf('tool.run')).toHaveLength(1);
    await mcp.close();
  });

  it('lists the tools every toolbar declares before a page is open, and a call then says to open one', { timeout: 20_000 }, async () => {
    const server = await h.start();
    // An agent lists the tools once, as it connects: it must see them though the page opens later.
    const mcp = await mcpClient(server);
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(PAGE_TOOL_DEFINITIONS.map((t) => t.name));
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_page_info', 'get_console_messages', 'get_accessibility_tree']));
    expect(tools[3]!.inputSchema).toMatchObject({ type: 'object', required: ['selector'] });
    const none = await mcp.callTool({ name: 'get_selected_elements', arguments: {} });
    expect(none).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'No page is open with the agentbar toolbar to run get_selected_elements in: ask the developer to open their page (with the toolbar), then call it again' }],
    });
    // Once a page is open, it lists what that toolbar declared.
    await h.connect(server, { kind: 'toolbar', tools: [SELECTED] });
    expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(['get_selected_elements']);
    await mcp.close();
  });

  it('answers a call for a tool no toolbar offers with an error that says what is offered', { timeout: 20_000 }, async () => {
    const server = await h.start();
    const mcp = await mcpClient(server);
    await h.connect(server, { kind: 'toolbar', tools: [SELECTED] });
    const wrong = await mcp.callTool({ name: 'delete_everything', arguments: {} });
    expect(wrong).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No page tool called delete_everything; the page offers get_selected_elements' }] });
    await mcp.close();
  });

  it('waits for a toolbar slower than the idle timeout, and still closes an idle socket without the token', { timeout: 20_000 }, async () => {
    // Headers and requests get longer than the test: only the idle timeout can close the last socket below.
    const server = await h.start({ sockets: { idleTimeoutMs: 300, headersTimeoutMs: 60_000, requestTimeoutMs: 120_000 } });
    const toolbar = await h.connect(server, { kind: 'toolbar', tools: [SELECTED] });
    // The toolbar takes three idle timeouts to answer: the MCP request's socket was cut after one.
    toolbar.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; chatId: string; toolCallId: string };
      if (frame.type !== 'tool.run') return;
      setTimeout(() => toolbar.request('tool.result', { chatId: frame.chatId, toolCallId: frame.toolCallId, output: { picked: 0 } }).catch(() => {}), 900);
    });
    const mcp = await mcpClient(server);
    const result = await mcp.callTool({ name: 'get_selected_elements', arguments: {} });
    expect(result).toMatchObject({ content: [{ type: 'text', text: '{"picked":0}' }], isError: false });
    await mcp.close();
    // A socket that never proved the token still gets the idle timeout.
    const { connect } = await import('node:net');
    const idle = connect(Number(new URL(server.httpUrl).port), '127.0.0.1');
    await new Promise<void>((resolve) => {
      idle.on('close', () => resolve());
      idle.on('error', () => {});
    });
    expect(idle.destroyed).toBe(true);
  });

  it('refuses a request without the token, or from another origin', async () => {
    const server = await h.start();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const anonymous = await fetch(`${server.httpUrl}/mcp`, { method: 'POST', headers, body });
    expect(anonymous.status).toBe(403);
    const foreign = await fetch(`${server.httpUrl}/mcp`, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${server.token}`, Origin: 'https://evil.example' }, body });
    expect(foreign.status).toBe(403);
    const wrongToken = await fetch(`${server.httpUrl}/mcp/chats/x`, { method: 'POST', headers: { ...headers, Authorization: 'Bearer nope' }, body });
    expect(wrongToken.status).toBe(403);
    const allowed = await fetch(`${server.httpUrl}/mcp`, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${server.token}` }, body });
    expect(allowed.status).toBe(200);
  });

  it.each([
    ['over HTTP', {}, 'http'],
    ['through `agentbar mcp` over stdio, for an agent that takes no HTTP MCP server', { ACP_SCRIPT_NO_HTTP_MCP: '1' }, 'stdio'],
  ])('lets an ACP agent read the picked elements in the middle of a turn, %s', { timeout: 30_000 }, async (_how, extraEnv, transport) => {
    const cwd = await h.tmpDir();
    const logFile = path.join(await h.tmpDir(), 'acp.log');
    const agent = createAcpAgent({ id: 'acp/scripted', command: process.execPath, args: [SCRIPT], cwd, env: { ...process.env, ACP_SCRIPT_LOG: logFile, ...extraEnv } });
    const server = await h.start({ agents: [agent] });
    const other = await h.connect(server, { kind: 'toolbar', tools: [SELECTED] });
    const toolbar = await h.connect(server, { kind: 'toolbar', tools: [SELECTED] });
    answerCalls(toolbar, [{ tagName: 'button', selector: '#buy' }]);
    answerCalls(other, 'the wrong toolbar');
    const { chatId } = await toolbar.ok('chat.create', {});
    await toolbar.ok('message.send', userMessage(chatId, 'page'));
    await toolbar.waitFor(() => toolbar.state?.run === null && lastMessage(toolbar.state)?.role === 'assistant', 20_000, 'the reply');
    expect(textOf(lastMessage(toolbar.state))).toBe('The page says: [{"tagName":"button","selector":"#buy"}]');
    expect(toolbar.framesOf('tool.run')).toMatchObject([{ chatId, toolName: 'get_selected_elements', input: {} }]);
    expect(other.framesOf('tool.run')).toEqual([]);
    const received = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; data: unknown });
    expect(received.find((r) => r.kind === 'mcp/server')!.data).toBe(transport);
  });

  it('`agentbar mcp` answers the calls piped into it before its input ended, then exits 0', { timeout: 30_000 }, async () => {
    const { spawn } = await import('node:child_process');
    const server = await h.start();
    const toolbar = await h.connect(server, { kind: 'toolbar', tools: [SELECTED] });
    // The toolbar answers after the bridge has read the end of its input.
    toolbar.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; chatId: string; toolCallId: string };
      if (frame.type !== 'tool.run') return;
      setTimeout(() => void toolbar.request('tool.result', { chatId: frame.chatId, toolCallId: frame.toolCallId, output: ['#buy'] }).catch(() => {}), 300);
    });
    const bin = fileURLToPath(new URL('../../bin/agentbar.mjs', import.meta.url));
    const child = spawn(process.execPath, [bin, 'mcp', '--url', `${server.httpUrl}/mcp`], { env: { ...process.env, AGENTBAR_TOKEN: server.token }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const frames = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'script', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_selected_elements', arguments: {} } },
    ];
    child.stdin!.end(frames.map((f) => JSON.stringify(f)).join('\n') + '\n');
    expect(await exited).toBe(0);
    const answers = stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result?: unknown });
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1]!.result).toMatchObject({ isError: false, content: [{ type: 'text', text: '["#buy"]' }] });

    // A call the client cancelled gets no answer, so the bridge does not wait for one.
    const silent = await h.connect(server, { kind: 'toolbar', tools: [SELECTED] });
    toolbar.ws.removeAllListeners('message');
    await toolbar.terminate();
    const cancelling = spawn(process.execPath, [bin, 'mcp', '--url', `${server.httpUrl}/mcp`], { env: { ...process.env, AGENTBAR_TOKEN: server.token }, stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    cancelling.stdout!.on('data', (d) => (said += d));
    const ended = new Promise<number | null>((resolve) => cancelling.on('close', resolve));
    cancelling.stdin!.write(frames.map((f) => JSON.stringify(f)).join('\n') + '\n');
    // The bridge starts a process (through tsx here) before it calls: a loaded machine takes seconds.
    await expect.poll(() => silent.framesOf('tool.run').length, { timeout: 20_000 }).toBe(1);
    cancelling.stdin!.end(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }) + '\n');
    expect(await ended).toBe(0);
    expect(said.trim().split('\n').map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1]);
  });

  it('`agentbar mcp` says what is wrong when no server runs or the token is missing', { timeout: 30_000 }, async () => {
    const { spawnSync } = await import('node:child_process');
    const bin = fileURLToPath(new URL('../../bin/agentbar.mjs', import.meta.url));
    const env = { ...process.env, AGENTBAR_TOKEN: '' };
    const none = spawnSync(process.execPath, [bin, 'mcp', '--data-dir', await h.tmpDir()], { env, encoding: 'utf8', input: '' });
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/^agentbar mcp: .*server\.json/);
    // A file a killed server left behind names it, and says what to do.
    const dir = await h.tmpDir();
    const { writeConnectionFile } = await import('../host/connection-file.ts');
    // A port nothing listens on: one the system just handed out and took back.
    const { createServer } = await import('node:net');
    const probe = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => probe.once('listening', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    await writeConnectionFile(dir, { url: `ws://127.0.0.1:${port}/ws`, http: `http://127.0.0.1:${port}`, token: 'x'.repeat(20), pid: 999_999 });
    const stale = spawnSync(process.execPath, [bin, 'mcp', '--data-dir', dir], { env, encoding: 'utf8', input: '' });
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain(`(pid 999999, http://127.0.0.1:${port}) does not answer (ECONNREFUSED): it may have stopped without removing that file. Start one with \`agentbar serve\`.`);
    const noToken = spawnSync(process.execPath, [bin, 'mcp', '--url', 'http://127.0.0.1:1/mcp'], { env, encoding: 'utf8', input: '' });
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain('--url needs the token in the AGENTBAR_TOKEN environment variable');
  });
});
