/**
 * What every real-agent test does through agentbar: a server with one ACP agent, a command-line
 * client that sends and answers approvals, and a toolbar client that runs the page's tools.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { PAGE_TOOL_DEFINITIONS } from '../../shared/page-tool-definitions.ts';
import type { AssistantMessage, ToolCallPart } from '../../shared/schemas.ts';
import { Hold, type ProviderRequest, type ProviderServer, type Turn } from '../fake-providers/provider-server.ts';
import { userMessage, type TestClient } from '../test-client.ts';
import { activeMessages, lastMessage, toolCallsOf, useHarness, type TestServer } from '../test-server.ts';
import { createAcpAgent, type AcpAgentOptions } from '../../server/acp-agent/create-acp-agent.ts';

export const PAGE = { url: 'http://localhost:5173/cart', title: 'Cart' };

export interface AgentUnderTest {
  id: string;
  command: string;
  args?: string[];
  /** The agent's environment beside PATH, pointed at the stand-in; `home` is a fresh folder. */
  env: (fake: ProviderServer, home?: string) => Record<string, string>;
  /** Where its home folder is made (default: the system's temp folder). */
  homeParent?: string;
  /** More of createAcpAgent's options. */
  options?: Partial<AcpAgentOptions>;
  /** Writes the agent's own settings into `home` before it starts. */
  prepareHome?: (fake: ProviderServer, home: string, cwd: string) => Promise<void>;
}

export interface Drive {
  server: TestServer;
  cli: TestClient;
  toolbar: TestClient;
  chatId: string;
  cwd: string;
  home: string;
  dataDir: string;
  /** Sends a message and waits for the reply to end (approving or rejecting with `approve`). */
  ask(text: string, approve?: (call: ToolCallPart) => boolean): Promise<AssistantMessage>;
  /** Stops the server and starts another on the same data folder, chat and agent. */
  restart(): Promise<void>;
}

/** Sets up the harness; call once per test file. */
export function useDriver(agent: AgentUnderTest, fake: () => ProviderServer): { start(): Promise<Drive> } {
  // The harness removes its folders after it closed the servers (and so the agents) using them.
  const h = useHarness();
  const homes: string[] = [];
  const homeIn = async (parent: string) => {
    await mkdir(parent, { recursive: true });
    const dir = await mkdtemp(path.join(parent, 'home-'));
    homes.push(dir);
    return dir;
  };
  // Registered after the harness's: vitest runs afterEach hooks last-registered first, so this
  // waits until the agents are stopped.
  afterEach(async () => {
    await h.cleanup();
    // An agent's own helpers (Claude Code under its adapter) may still write their state into its
    // home for a moment after the agent was stopped: removal retries.
    await Promise.all(homes.splice(0).map((d) => rm(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })));
  });
  return {
    async start() {
      const [home, cwd, dataDir] = await Promise.all([homeIn(agent.homeParent ?? path.join(tmpdir(), 'agentbar-real-agent-homes')), h.tmpDir(), h.tmpDir()]);
      await agent.prepareHome?.(fake(), home, cwd);
      const definition = () =>
        createAcpAgent({ id: agent.id, command: agent.command, args: agent.args ?? [], cwd, startTimeoutMs: 30_000, ...agent.options, env: { PATH: process.env.PATH ?? '', HOME: home, ...agent.env(fake(), home) } });
      const drive: Drive = { cwd, home, dataDir, chatId: '', ask, restart } as Drive;
      const connect = async (chatId?: string) => {
        drive.server = await h.start({ agents: [definition()], dataDir });
        drive.toolbar = await h.connect(drive.server, { kind: 'toolbar', tools: [...PAGE_TOOL_DEFINITIONS] });
        answerPageTools(drive.toolbar);
        drive.cli = await h.connect(drive.server, { kind: 'cli' });
        drive.chatId = chatId ?? (await drive.cli.ok('chat.create', { agent: agent.id })).chatId;
        if (chatId) await drive.cli.ok('chat.switch', { chatId });
      };
      async function ask(text: string, approve?: (call: ToolCallPart) => boolean): Promise<AssistantMessage> {
        const cli = drive.cli;
        const answered = new Set<string>();
        const before = activeMessages(cli.state).length;
        await cli.ok('message.send', userMessage(drive.chatId, text));
        // Over once the run ended after the message and something came after it (an agent may end
        // its turn at a rejected approval, so the last message is then the user's answer).
        const ended = () => cli.state?.run === null && activeMessages(cli.state).length > before + 1;
        const waiting = () => toolCallsOf(cli.state).find((c) => c.state === 'awaiting-approval' && !answered.has(c.toolCallId));
        for (;;) {
          await cli.waitFor(() => ended() || waiting() !== undefined, 45_000, `the reply to "${text}"`);
          const call = waiting();
          if (!call) return activeMessages(cli.state).slice(before).filter((m): m is AssistantMessage => m.role === 'assistant').at(-1)!;
          answered.add(call.toolCallId);
          if (!approve) throw new Error(`Unexpected approval: ${call.title ?? call.toolName}`);
          await cli.ok('tool.approve', { chatId: drive.chatId, toolCallId: call.toolCallId, approved: approve(call) });
        }
      }
      async function restart() {
        const chatId = drive.chatId;
        await Promise.all([drive.cli.close(), drive.toolbar.close()]);
        await drive.server.close();
        await connect(chatId);
      }
      await connect();
      return drive;
    },
  };
}

/** The toolbar's side of a page tool: get_page_info answers with PAGE; others with a short note. */
function answerPageTools(toolbar: TestClient): void {
  toolbar.ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { type: string; chatId: string; toolCallId: string; toolName: string };
    if (frame.type !== 'tool.run') return;
    const output = frame.toolName === 'get_page_info' ? { ...PAGE, viewport: { width: 1280, height: 720 } } : { note: `${frame.toolName} ran` };
    toolbar.request('tool.result', { chatId: frame.chatId, toolCallId: frame.toolCallId, output }).catch(() => {});
  });
}

/** The text parts of a reply, joined. */
export function replyText(message: AssistantMessage): string {
  return message.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('');
}

/** How one provider's requests read, and what the agent calls its tools. */
export interface Dialect {
  /** The newest user text of a model turn; '' when the turn carries tool results. */
  lastUserText(request: ProviderRequest): string;
  /** The tool results of a model turn, by the call's id (and by tool name where the provider keys them so). */
  toolResults(request: ProviderRequest): Map<string, { content: unknown; isError: boolean }>;
  read: (file: string) => { name: string; input: Record<string, unknown> };
  edit: (file: string, oldText: string, newText: string) => { name: string; input: Record<string, unknown> };
  /** The name the agent gives agentbar's get_page_info over MCP. */
  pageInfoTool: string;
  /** How the agent's reasoning shows once it went through the agent (Gemini puts a subject first). */
  reasoning?: (text: string) => string;
}

/** Answers model turns by the newest user text (the key it contains last), and tool results by `after`. */
export function scriptTurns(fake: ProviderServer, dialect: Dialect, byText: Record<string, Turn>, after: (results: Map<string, { content: unknown; isError: boolean }>) => Turn | undefined = () => undefined): void {
  fake.respond = (request) => {
    const results = dialect.toolResults(request);
    if (results.size > 0) return after(results);
    const text = dialect.lastUserText(request);
    // The key said last wins: an agent may send an interrupted turn's words in the same message.
    let key: string | undefined;
    for (const k of Object.keys(byText)) if (text.includes(k) && (key === undefined || text.lastIndexOf(k) > text.lastIndexOf(key))) key = k;
    return key ? byText[key] : undefined;
  };
}

/**
 * The flows every coding agent must keep working through agentbar: text and reasoning, a read,
 * an edit approved and one rejected, a page tool over MCP, Stop, and a restart.
 */
export function describeCommonFlows(fake: () => ProviderServer, driver: { start(): Promise<Drive> }, dialect: Dialect): void {
  it('streams its thinking and its answer', async () => {
    scriptTurns(fake(), dialect, { hello: { steps: [{ reasoning: 'The user greets me.' }, { text: 'Hello from the model.' }] } });
    const d = await driver.start();
    const reply = await d.ask('hello');
    expect(reply.status).toBe('done');
    const reasoning = reply.content.filter((p) => p.type === 'reasoning').map((p) => (p as { text: string }).text).join('');
    expect(reasoning).toContain('The user greets me.');
    expect(replyText(reply)).toBe('Hello from the model.');
    expect(d.server.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('reads a file, edits it once approved, and leaves it when the edit is rejected', async () => {
    const d = await driver.start();
    const file = path.join(d.cwd, 'notes.txt');
    writeFileSync(file, 'old line\n');
    const read = dialect.read(file);
    const edit = dialect.edit(file, 'old line', 'new line');
    const edit2 = dialect.edit(file, 'new line', 'third line');
    scriptTurns(
      fake(),
      dialect,
      {
        'change it': { steps: [{ toolCall: { id: 'call_read', ...read } }] },
        'try again': { steps: [{ toolCall: { id: 'call_edit2', ...edit2 } }] },
      },
      (results) => {
        if (results.has('call_read')) return { steps: [{ toolCall: { id: 'call_edit', ...edit } }] };
        return { steps: [{ text: 'Done with the edit.' }] };
      },
    );
    const approved = await d.ask('change it', () => true);
    expect(approved.status).toBe('done');
    expect(readFileSync(file, 'utf8')).toBe('new line\n');
    const calls = toolCallsOf(d.cli.state);
    expect(calls.map((c) => c.kind)).toEqual(['read', 'edit']);
    expect(calls[1]).toMatchObject({ state: 'done', requiresApproval: true });

    await d.ask('try again', () => false);
    expect(readFileSync(file, 'utf8')).toBe('new line\n');
    expect(toolCallsOf(d.cli.state).at(-1)).toMatchObject({ requiresApproval: true });
    expect(toolCallsOf(d.cli.state).at(-1)!.state).not.toBe('done');
  });

  it("calls the page's tools over MCP, run by the toolbar", async () => {
    scriptTurns(fake(), dialect, { 'which page': { steps: [{ toolCall: { id: 'call_page', name: dialect.pageInfoTool, input: {} } }] } }, (results) => {
      const result = JSON.stringify([...results.values()].map((r) => r.content));
      return { steps: [{ text: result.includes(PAGE.url) ? `You are on ${PAGE.title}.` : `No page: ${result.slice(0, 300)}` }] };
    });
    const d = await driver.start();
    const reply = await d.ask('which page am I on?', () => true);
    expect(replyText(reply)).toBe('You are on Cart.');
    expect(d.toolbar.framesOf('tool.run').map((f) => f.toolName)).toEqual(['get_page_info']);
  });

  it('stops a reply, and answers the next messages with their own answers', async () => {
    const hold = new Hold();
    scriptTurns(fake(), dialect, {
      'long task': { steps: [{ text: 'Working on it' }, { hold }] },
      'second question': { steps: [{ text: 'The answer to the second question.' }] },
      'third question': { steps: [{ text: 'The answer to the third question.' }] },
    });
    const d = await driver.start();
    await d.cli.ok('message.send', userMessage(d.chatId, 'long task'));
    await hold.reached;
    await d.cli.ok('run.stop', { chatId: d.chatId });
    await d.cli.waitFor(() => d.cli.state?.run === null, 20_000, 'the run to stop');
    expect(lastMessage(d.cli.state)).toMatchObject({ role: 'assistant', status: 'stopped' });
    hold.release();
    expect(replyText(await d.ask('second question'))).toBe('The answer to the second question.');
    expect(replyText(await d.ask('third question'))).toBe('The answer to the third question.');
  });

  it('loads its session again after agentbar restarts', async () => {
    // A session started afresh gets the earlier exchange in the same prompt, before the question.
    scriptTurns(fake(), dialect, { 'which word': { steps: [{ text: 'You said teal.' }] }, remember: { steps: [{ text: 'I will remember the word teal.' }] } });
    const d = await driver.start();
    await d.ask('remember the word teal');
    await d.restart();
    const reply = await d.ask('which word did I say?');
    expect(replyText(reply)).toBe('You said teal.');
    // The model saw the earlier exchange: the session was loaded (or told the chat so far).
    expect(JSON.stringify(fake().turns().at(-1)!.body)).toContain('I will remember the word teal.');
    expect(activeMessages(d.cli.state).filter((m) => m.role === 'user')).toHaveLength(2);
  });
}
