import { describe, expect, it } from 'vitest';
import type { ToolMessage } from '../../shared/schemas.ts';
import { defineAgent, type AgentDefinition } from '../sdk/agent.ts';
import { userMessage, type TestClient, type TestClientOptions } from '../../test-support/test-client.ts';
import {
  Gate,
  activeMessages,
  expectRejected,
  lastMessage,
  settle,
  syncClients,
  textOf,
  toolCallsOf,
  useHarness,
  waitUntil,
  type TestServer,
} from '../../test-support/test-server.ts';

const h = useHarness();

interface ToolsAgent {
  agent: AgentDefinition;
  cliCalls: { input: Record<string, unknown>; chatId: string }[];
  slow: Gate;
}

/** One agent with a tool of every runtime; the message text picks which one it calls. */
function toolsAgent(): ToolsAgent {
  const cliCalls: ToolsAgent['cliCalls'] = [];
  const slow = new Gate();
  const agent = defineAgent({
    id: 'test/tools',
    description: 'Calls tools',
    tools: [
      { name: 'pick', runtime: 'toolbar' },
      {
        name: 'calc',
        runtime: 'cli',
        execute: (input, { chatId }) => {
          cliCalls.push({ input, chatId });
          return { sum: Number(input.a) + Number(input.b) };
        },
      },
      { name: 'slow', runtime: 'cli', execute: async (_input, { signal }) => slow.wait(signal).then(() => 'slow done') },
      {
        name: 'broken',
        runtime: 'cli',
        execute: () => {
          throw new Error('cli bug');
        },
      },
    ],
    async run(ctx) {
      const report = (r: { output: unknown; isError: boolean }) => ctx.reply.text(`got ${JSON.stringify(r.output)} isError=${r.isError}`);
      switch (ctx.text) {
        case 'pick':
          return report(await ctx.callTool({ name: 'pick', input: { what: 'button' } }));
        case 'calc':
          return report(await ctx.callTool({ name: 'calc', input: { a: 2, b: 3 } }));
        case 'slow':
          return report(await ctx.callTool({ name: 'slow' }));
        case 'broken':
          return report(await ctx.callTool({ name: 'broken' }));
        case 'lookup':
          await ctx.reply.text('Looking… ');
          ctx.reply.backendToolResult({ name: 'search', input: { q: 'diffs' }, output: { hits: 1 } });
          return ctx.reply.text('found it.');
      }
    },
  });
  return { agent, cliCalls, slow };
}

const PICK = { name: 'pick', description: 'Picks elements', inputSchema: { type: 'object' } };

async function start(noClientTimeoutMs = 10_000): Promise<{ server: TestServer; tools: ToolsAgent }> {
  const tools = toolsAgent();
  const server = await h.start({ agents: [tools.agent], tools: { noClientTimeoutMs } });
  return { server, tools };
}

function connectAs(server: TestServer, kind: TestClientOptions['kind'], declares = true): Promise<TestClient> {
  return h.connect(server, { kind, ...(declares ? { tools: [PICK] } : {}) });
}

function toolRuns(client: TestClient): Record<string, any>[] {
  return client.framesOf('tool.run');
}

async function runningCall(client: TestClient): Promise<string> {
  await client.waitFor(() => toolCallsOf(client.state).some((c) => c.state === 'running'), 5000, 'a running call');
  return toolCallsOf(client.state).find((c) => c.state === 'running')!.toolCallId;
}

function toolMessages(client: TestClient): ToolMessage[] {
  return activeMessages(client.state).filter((m): m is ToolMessage => m.role === 'tool');
}

describe('toolbar tools', () => {
  it('sends the call to exactly one toolbar, the one that sent the message', async () => {
    const { server } = await start();
    const t1 = await connectAs(server, 'toolbar');
    const t2 = await connectAs(server, 'toolbar');
    const t3 = await connectAs(server, 'toolbar');
    const undeclared = await connectAs(server, 'toolbar', false);
    const cli = await connectAs(server, 'cli');
    const other = await connectAs(server, 'other');
    const everyone = [t1, t2, t3, undeclared, cli, other];
    const { chatId } = await t2.ok('chat.create', {});
    await t2.ok('message.send', userMessage(chatId, 'pick'));
    const run = await t2.next('tool.run', 0);
    const toolCallId = toolCallsOf(t2.state)[0]!.toolCallId;
    expect(run).toEqual({ type: 'tool.run', chatId, toolCallId, toolName: 'pick', input: { what: 'button' } });
    await t2.ok('tool.result', { chatId, toolCallId, output: [{ tagName: 'button' }] });
    await settle(server, ...everyone);
    expect(everyone.map((c) => toolRuns(c).length)).toEqual([0, 1, 0, 0, 0, 0]);
    expect(toolCallsOf(t1.state)[0]!.state).toBe('done');
    expect(textOf(lastMessage(t1.state))).toBe('got [{"tagName":"button"}] isError=false');
  });

  it('sends the call of a message from a non-toolbar client to exactly one eligible toolbar', async () => {
    const { server } = await start();
    const toolbars = [await connectAs(server, 'toolbar'), await connectAs(server, 'toolbar')];
    const undeclared = await connectAs(server, 'toolbar', false);
    const cli = await connectAs(server, 'cli');
    const { chatId } = await cli.ok('chat.create', {});
    await cli.ok('message.send', userMessage(chatId, 'pick'));
    const toolCallId = await runningCall(cli);
    await waitUntil(() => toolbars.some((t) => toolRuns(t).length > 0), 'a tool.run');
    const chosen = toolbars.find((t) => toolRuns(t).length > 0)!;
    await chosen.ok('tool.result', { chatId, toolCallId, output: 'ok' });
    await settle(server, ...toolbars, undeclared, cli);
    expect(toolbars.map((t) => toolRuns(t).length).sort()).toEqual([0, 1]);
    expect(toolRuns(undeclared)).toEqual([]);
    expect(toolRuns(cli)).toEqual([]);
  });

  it('moves the call to another eligible toolbar when its toolbar leaves before answering', async () => {
    const { server } = await start();
    const leaving = await connectAs(server, 'toolbar');
    const staying = await connectAs(server, 'toolbar');
    const { chatId } = await leaving.ok('chat.create', {});
    await leaving.ok('message.send', userMessage(chatId, 'pick'));
    const first = await leaving.next('tool.run', 0);
    expect(toolRuns(staying)).toEqual([]);
    await leaving.close();
    const moved = await staying.next('tool.run', 0);
    expect(moved).toEqual(first);
    await staying.ok('tool.result', { chatId, toolCallId: moved.toolCallId, output: 'from the other toolbar' });
    await settle(server, staying);
    expect(toolCallsOf(staying.state)[0]!.state).toBe('done');
    expect(toolMessages(staying)[0]!.content[0]).toMatchObject({ toolCallId: moved.toolCallId, output: 'from the other toolbar', isError: false });
  });

  it('gives a waiting call to a toolbar that connects later', async () => {
    const { server } = await start();
    const cli = await connectAs(server, 'cli');
    const { chatId } = await cli.ok('chat.create', {});
    await cli.ok('message.send', userMessage(chatId, 'pick'));
    const toolCallId = await runningCall(cli);
    const late = await connectAs(server, 'toolbar');
    const run = await late.next('tool.run', 0);
    expect(run.toolCallId).toBe(toolCallId);
    await late.ok('tool.result', { chatId, toolCallId, output: 'late but fine' });
    await settle(server, cli, late);
    expect(toolCallsOf(cli.state)[0]!.state).toBe('done');
  });

  it('fails the call after the timeout when no toolbar is left, and the agent sees isError', async () => {
    const { server } = await start(50);
    const toolbar = await connectAs(server, 'toolbar');
    const watcher = await connectAs(server, 'other');
    const { chatId } = await toolbar.ok('chat.create', {});
    await toolbar.ok('message.send', userMessage(chatId, 'pick'));
    await toolbar.next('tool.run', 0);
    await toolbar.close();
    await settle(server, watcher);
    const call = toolCallsOf(watcher.state)[0]!;
    expect(call.state).toBe('failed');
    const result = toolMessages(watcher)[0]!.content[0]!;
    expect(result).toMatchObject({ toolCallId: call.toolCallId, toolName: 'pick', isError: true });
    expect(String(result.output)).toMatch(/No connected toolbar can run pick/);
    expect(textOf(lastMessage(watcher.state))).toMatch(/^got ".*No connected toolbar can run pick.*" isError=true$/);
    expect(toolRuns(watcher)).toEqual([]);
  });

  it('accepts the result only from the client the call was sent to, and only once', async () => {
    const { server } = await start();
    const owner = await connectAs(server, 'toolbar');
    const otherToolbar = await connectAs(server, 'toolbar');
    const { chatId } = await owner.ok('chat.create', {});
    await owner.ok('message.send', userMessage(chatId, 'pick'));
    const { toolCallId } = await owner.next('tool.run', 0);
    await expectRejected(server, otherToolbar, 'tool.result', { chatId, toolCallId, output: 'hijack' }, { code: 'not_allowed', path: 'toolCallId' }, [owner]);

    const result = await owner.request('tool.result', { chatId, toolCallId, output: 'genuine' });
    expect(result.ok).toBe(true);
    // The result follows the patch that records the tool message.
    expect(activeMessages(owner.stateAt.get(result.id)!).some((m) => m.role === 'tool' && m.content[0]!.output === 'genuine')).toBe(true);
    await settle(server, owner, otherToolbar);
    await expectRejected(server, owner, 'tool.result', { chatId, toolCallId, output: 'again' }, { code: 'already_resolved', path: 'toolCallId' }, [otherToolbar]);
    await expectRejected(server, otherToolbar, 'tool.result', { chatId, toolCallId, output: 'late' }, { code: 'already_resolved', path: 'toolCallId' }, [owner]);
    expect(toolMessages(owner)).toHaveLength(1);
  });

  it('records an error result as a failed call', async () => {
    const { server } = await start();
    const toolbar = await connectAs(server, 'toolbar');
    const { chatId } = await toolbar.ok('chat.create', {});
    await toolbar.ok('message.send', userMessage(chatId, 'pick'));
    const { toolCallId } = await toolbar.next('tool.run', 0);
    await toolbar.ok('tool.result', { chatId, toolCallId, output: 'page is gone', isError: true });
    await settle(server, toolbar);
    expect(toolCallsOf(toolbar.state)[0]!.state).toBe('failed');
    expect(toolMessages(toolbar)[0]!.content[0]).toMatchObject({ output: 'page is gone', isError: true });
    expect(textOf(lastMessage(toolbar.state))).toBe('got "page is gone" isError=true');
  });

  it('refuses malformed results and results for unknown calls', async () => {
    const { server } = await start();
    const toolbar = await connectAs(server, 'toolbar');
    const { chatId } = await toolbar.ok('chat.create', {});
    await toolbar.ok('message.send', userMessage(chatId, 'pick'));
    const { toolCallId } = await toolbar.next('tool.run', 0);
    await expectRejected(server, toolbar, 'tool.result', { chatId, output: 1 }, { code: 'invalid_message', path: 'toolCallId' });
    await expectRejected(server, toolbar, 'tool.result', { chatId, toolCallId, output: 1, isError: 'yes' }, { code: 'invalid_message', path: 'isError' });
    await expectRejected(server, toolbar, 'tool.result', { chatId, toolCallId: 'call_unknown', output: 1 }, { code: 'not_found', path: 'toolCallId' });
    await expectRejected(server, toolbar, 'tool.result', { chatId: 'chat_unknown', toolCallId, output: 1 }, { code: 'not_found', path: 'chatId' });
    expect(toolCallsOf(toolbar.state)[0]!.state).toBe('running');
    await toolbar.ok('tool.result', { chatId, toolCallId, output: 'fine' });
    await settle(server, toolbar);
  });

  it('sends tool.cancel to the toolbar that had the call when the run is stopped, and refuses its late result', async () => {
    const { server } = await start();
    const owner = await connectAs(server, 'toolbar');
    const bystander = await connectAs(server, 'toolbar');
    const { chatId } = await owner.ok('chat.create', {});
    await owner.ok('message.send', userMessage(chatId, 'pick'));
    const { toolCallId } = await owner.next('tool.run', 0);
    await expect(bystander.ok('run.stop', { chatId })).resolves.toEqual({ stopped: true });
    const cancel = await owner.next('tool.cancel', 0);
    expect(cancel).toEqual({ type: 'tool.cancel', chatId, toolCallId });
    await settle(server, owner, bystander);
    expect(bystander.framesOf('tool.cancel')).toEqual([]);
    expect(toolCallsOf(owner.state)[0]!.state).toBe('interrupted');
    expect(owner.state!.run).toBeNull();
    await expectRejected(server, owner, 'tool.result', { chatId, toolCallId, output: 'too late' }, { code: 'not_allowed', path: 'toolCallId' }, [bystander]);
    expect(toolMessages(owner)).toEqual([]);
  });
});

describe('cli and backend tools', () => {
  it('runs a cli tool in the server process; its result is a ToolMessage and the agent goes on in a new message', async () => {
    const { server, tools } = await start();
    const client = await connectAs(server, 'toolbar');
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'calc'));
    await settle(server, client);
    expect(tools.cliCalls).toEqual([{ input: { a: 2, b: 3 }, chatId }]);
    const messages = activeMessages(client.state);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const call = toolCallsOf(client.state)[0]!;
    expect(call).toMatchObject({ toolName: 'calc', runtime: 'cli', requiresApproval: false, state: 'done', input: { a: 2, b: 3 } });
    expect(messages[2]!.content).toEqual([{ type: 'tool-result', toolCallId: call.toolCallId, toolName: 'calc', output: { sum: 5 }, isError: false }]);
    expect(textOf(messages[3])).toBe('got {"sum":5} isError=false');
    expect(toolRuns(client)).toEqual([]);
  });

  it('records a cli tool that throws as a failed call with the error text', async () => {
    const { server } = await start();
    const client = await connectAs(server, 'other');
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'broken'));
    await settle(server, client);
    expect(toolCallsOf(client.state)[0]!.state).toBe('failed');
    expect(toolMessages(client)[0]!.content[0]).toMatchObject({ toolName: 'broken', output: 'cli bug', isError: true });
    expect(textOf(lastMessage(client.state))).toBe('got "cli bug" isError=true');
  });

  it('refuses tool.result for a cli call with not_allowed, running or done', async () => {
    const { server, tools } = await start();
    const client = await connectAs(server, 'toolbar');
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'slow'));
    const toolCallId = await runningCall(client);
    await waitUntil(() => tools.slow.entered > 0, 'the slow tool');
    await expectRejected(server, client, 'tool.result', { chatId, toolCallId, output: 'forged' }, { code: 'not_allowed', path: 'toolCallId' });
    tools.slow.open();
    await settle(server, client);
    expect(toolCallsOf(client.state)[0]!.state).toBe('done');
    await expectRejected(server, client, 'tool.result', { chatId, toolCallId, output: 'forged' }, { code: 'not_allowed', path: 'toolCallId' });
    expect(toolMessages(client)[0]!.content[0]!.output).toBe('slow done');
  });

  it('keeps a backend call and its result inside the assistant message', async () => {
    const { server } = await start();
    const client = await connectAs(server, 'other');
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'lookup'));
    await settle(server, client);
    const messages = activeMessages(client.state);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const assistant = messages[1]!;
    expect(assistant.content.map((p) => p.type)).toEqual(['text', 'tool-call', 'tool-result', 'text']);
    const [_, call, result] = assistant.content as any[];
    expect(call).toMatchObject({ toolName: 'search', runtime: 'backend', state: 'done', input: { q: 'diffs' } });
    expect(result).toEqual({ type: 'tool-result', toolCallId: call.toolCallId, toolName: 'search', output: { hits: 1 }, isError: false });
    expect(textOf(assistant)).toBe('Looking… found it.');
    await syncClients(client);
  });
});
