import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncClient, type SyncClient } from '../../../shared/sync-client.ts';
import { createWebSocketConnector } from '../../../shared/transport.ts';
import { defineAgent, type AgentDefinition, type ApprovalAnswer } from '../../sdk/agent.ts';
import { createDemoAgents } from '../../sdk/demo-agents.ts';
import { useHarness } from '../../../test-support/test-server.ts';
import { createTerminalChat } from './terminal-chat.ts';

const h = useHarness();
let clients: SyncClient[] = [];
afterEach(() => {
  for (const c of clients) c.close();
  clients = [];
});

async function openTerminal(paceMs = 0, agents: AgentDefinition[] = createDemoAgents({ paceMs })) {
  const server = await h.start({ agents });
  const client = createSyncClient({ connect: createWebSocketConnector(`${server.url}?token=${server.token}`, WebSocket), client: { kind: 'cli' } });
  clients.push(client);
  let out = '';
  const chat = createTerminalChat({ client, write: (s) => (out += s) });
  client.start();
  await expect.poll(() => client.getSnapshot().status).toBe('connected');
  const idle = () => expect.poll(() => client.getSnapshot().state?.run ?? null).toBeNull();
  return { server, client, chat, output: () => out, idle };
}

describe('terminal chat', () => {
  it('holds lines typed before the connection is up, then sends them in order', async () => {
    const server = await h.start({ agents: createDemoAgents({ paceMs: 0 }) });
    const client = createSyncClient({ connect: createWebSocketConnector(`${server.url}?token=${server.token}`, WebSocket), client: { kind: 'cli' } });
    clients.push(client);
    let out = '';
    const chat = createTerminalChat({ client, write: (s) => (out += s) });
    const first = chat.handleLine('/new Piped');
    const second = chat.handleLine('file');
    client.start();
    await Promise.all([first, second]);
    await expect.poll(() => client.getSnapshot().state?.run ?? null).toBeNull();
    expect(out).not.toContain('!');
    expect(out).toContain('── Piped ──');
    expect(out).toContain('[file orders.csv]');
  });

  it('starts a chat on the first message and prints the streamed reply once', async () => {
    const t = await openTerminal();
    await t.chat.handleLine('markdown');
    await t.idle();
    await expect.poll(t.output).toContain('demo/guide: Here is a small **TypeScript** helper');
    expect(t.output().split('export function debounce').length).toBe(2);
    expect(t.output()).toContain('you: markdown');
  });

  it('/export writes the open chat as Markdown to <title>.md, never over a file already there', async () => {
    const t = await openTerminal();
    const dir = await h.tmpDir();
    await t.chat.handleLine(`/export ${dir}`);
    expect(t.output()).toContain('No chat is open');
    await t.chat.handleLine('/new Fix a/b');
    await t.chat.handleLine('markdown');
    await t.idle();
    await t.chat.handleLine(`/export ${dir}`);
    const first = path.join(dir, 'Fix a-b.md');
    await expect.poll(t.output).toContain(`Wrote "Fix a/b" as Markdown to ${first}`);
    const markdown = await readFile(first, 'utf8');
    expect(markdown).toMatch(/^# Fix a\/b\n\n## You · \d{4}-\d\d-\d\d \d\d:\d\d\n\nmarkdown\n\n## demo\/guide · /);
    expect(markdown).toContain('```ts\nexport function debounce');
    await t.chat.handleLine(`/export ${dir}`);
    await expect.poll(t.output).toContain(`to ${path.join(dir, 'Fix a-b-1.md')}`);
    expect(await readFile(first, 'utf8')).toBe(markdown);
  });

  it('asks for approval and approves a tool call with /approve', async () => {
    const t = await openTerminal();
    await t.chat.handleLine('system');
    await t.idle();
    expect(t.output()).toContain('[tool system_info (cli)] done');
    expect(t.output()).toContain('[tool result]');
    await t.chat.handleLine('selection');
    await expect.poll(t.output).toContain('needs your approval');
    await t.chat.handleLine('/reject not now');
    await t.idle();
    expect(t.output()).toContain('[you rejected the tool call: not now]');
    expect(t.output()).toContain('I will not read the page (not now)');
  });

  it("says which of the agent's answers the user gave, in the agent's words", async () => {
    const agent = defineAgent({
      id: 'test/worded',
      description: 'Asks before deleting, in its own words',
      async run(ctx) {
        const result = await ctx.callTool({ name: 'rm', runtime: 'cli', requiresApproval: true, execute: () => 'removed', approvalLabels: { approve: 'Delete it', reject: 'Keep it' } }).catch(() => null);
        await ctx.reply.text(result ? 'Deleted.' : 'Kept.');
      },
    });
    const t = await openTerminal(0, [agent]);
    await t.chat.handleLine('clean up');
    await expect.poll(t.output).toContain('needs your approval');
    await t.chat.handleLine('/reject not now');
    await t.idle();
    expect(t.output()).toContain('[you rejected the tool call with “Keep it”: not now]');
  });

  it('/approve always gives an agent without words its "always", and the transcript says so', async () => {
    const answers: ApprovalAnswer[] = [];
    const agent = defineAgent({
      id: 'test/always',
      description: 'Offers always, in no words of its own',
      async run(ctx) {
        const call = ctx.startToolCall({ name: 'format', runtime: 'cli', requiresApproval: true, execute: () => 'formatted' });
        answers.push(await call.requestApproval({ alwaysOffered: true }));
        await ctx.reply.text('Formatted.');
      },
    });
    const t = await openTerminal(0, [agent]);
    await t.chat.handleLine('format it');
    await expect.poll(t.output).toContain('needs your approval');
    await t.chat.handleLine('/approve always');
    await t.idle();
    expect(answers).toEqual([{ approved: true, always: true }]);
    expect(t.output()).toContain('[you always allowed the tool call]');
  });

  it("/approve gives the agent's answer by its number; a bare always, with two on offer, picks none and names the numbers", async () => {
    const answers: ApprovalAnswer[] = [];
    const agent = defineAgent({
      id: 'test/plan-exit',
      description: "Asks to leave plan mode with Claude Code's four answers",
      async run(ctx) {
        const call = ctx.startToolCall({ name: 'ExitPlanMode', runtime: 'cli', requiresApproval: true, execute: () => 'left' });
        const answer = await call.requestApproval({
          options: [
            { id: 'bypassPermissions', label: 'Yes, and bypass permissions', kind: 'allow_always' },
            { id: 'acceptEdits', label: 'Yes, and auto-accept edits', kind: 'allow_always' },
            { id: 'default', label: 'Yes, and manually approve edits', kind: 'allow_once' },
            { id: 'plan', label: 'No, keep planning', kind: 'reject_once' },
          ],
        });
        answers.push(answer);
        await ctx.reply.text(answer.approved ? `Mode ${answer.optionId}.` : 'Still planning.');
      },
    });
    const t = await openTerminal(0, [agent]);
    await t.chat.handleLine('ready to code');
    await expect.poll(t.output).toContain(
      'needs your approval: /approve [n] or /reject [reason] (1 = "Yes, and manually approve edits", 2 = "Yes, and bypass permissions", 3 = "Yes, and auto-accept edits", 4 = "No, keep planning")',
    );
    await t.chat.handleLine('/approve always');
    expect(t.output()).toContain('Two answers allow always here: /approve 2 = "Yes, and bypass permissions" or /approve 3 = "Yes, and auto-accept edits".');
    await t.chat.handleLine('/approve 7');
    expect(t.output()).toContain('No answer 7: 1 = "Yes, and manually approve edits"');
    // Neither answered the call: it still waits, and the agent got nothing.
    expect(answers).toEqual([]);
    expect(t.client.getSnapshot().state?.run).not.toBeNull();

    await t.chat.handleLine('/approve 3');
    await t.idle();
    expect(answers).toEqual([{ approved: true, always: true, optionId: 'acceptEdits' }]);
    expect(t.output()).toContain('[you approved the tool call with “Yes, and auto-accept edits”]');
    expect(t.output()).toContain('Mode acceptEdits.');
  });

  it('prints the agent’s reason when it rejects a request, and the failure of a run', async () => {
    const t = await openTerminal(20);
    await t.chat.handleLine('/new First');
    await t.chat.handleLine('/new Second');
    await t.chat.handleLine('long');
    await expect.poll(t.output).toContain('demo/guide: A long answer');
    await t.chat.handleLine('/switch 2');
    await expect.poll(t.output).toMatch(/! The agent demo\/guide is working; press Stop before you switch chats \(rejected\)/);
    await t.chat.handleLine('/stop');
    await t.idle();
    expect(t.output()).toContain('[stopped]');
    await t.chat.handleLine('fail');
    await t.idle();
    expect(t.output()).toContain('[failed] Demo failure');
  });

  it('/attach sends a file with the next message, keeps it when that message is refused, and /detach drops it', async () => {
    const t = await openTerminal(5);
    const dir = await h.tmpDir();
    const file = path.join(dir, 'App.tsx');
    await writeFile(file, 'export const App = () => null;\n');
    await t.chat.handleLine('/attach');
    expect(t.output()).toContain('Nothing attached: /attach <file> adds one.');
    await t.chat.handleLine(`/attach ${path.join(dir, 'missing.png')}`);
    expect(t.output()).toContain(`! Cannot attach ${path.join(dir, 'missing.png')}: there is no such file`);
    // Refused (the agent is busy with another reply): the file waits for the next message.
    await t.chat.handleLine('long');
    await expect.poll(t.output).toContain('A long answer');
    await t.chat.handleLine(`/attach ${file}`);
    expect(t.output()).toContain('Attached App.tsx (text/plain, 31 B): it goes with your next message.');
    await t.chat.handleLine('look');
    await expect.poll(t.output).toContain('! The agent demo/guide is still working; wait or press Stop (busy)');
    await t.chat.handleLine('/stop');
    await t.idle();
    await t.chat.handleLine('/attach');
    expect(t.output()).toContain('For your next message: App.tsx (text/plain, 31 B). /detach drops them.');

    await t.chat.handleLine('/agent demo/historian');
    await t.chat.handleLine('review this');
    await t.idle();
    const sent = t.client.getSnapshot().state!.active!.messages.filter((m) => m.role === 'user').at(-1)!;
    expect(sent.content).toEqual([
      { type: 'text', text: 'review this' },
      { type: 'file', data: `data:text/plain;base64,${Buffer.from('export const App = () => null;\n').toString('base64')}`, mimeType: 'text/plain', filename: 'App.tsx' },
    ]);
    expect(t.output()).toContain('[file App.tsx]');
    await t.chat.handleLine('/attach');
    expect(t.output().split('Nothing attached').length).toBe(3);

    // A file dropped on the terminal arrives quoted, or with its spaces escaped.
    await writeFile(path.join(dir, 'My  Notes.md'), '# Notes\n');
    await t.chat.handleLine(`/attach '${path.join(dir, 'My  Notes.md')}'`);
    await t.chat.handleLine(`/attach ${path.join(dir, 'My  Notes.md').replace(/ /g, '\\ ')}`);
    expect(t.output().split('Attached My  Notes.md (text/markdown, 8 B)').length).toBe(3);
    await t.chat.handleLine('/detach');
    expect(t.output()).toContain('Dropped 2 attached files.');
    await t.chat.handleLine(`/attach ${file}`);
    await t.chat.handleLine('/detach');
    expect(t.output()).toContain('Dropped the attached file.');
    await t.chat.handleLine('plain');
    await t.idle();
    const last = t.client.getSnapshot().state!.active!.messages.filter((m) => m.role === 'user').at(-1)!;
    expect(last.content).toEqual([{ type: 'text', text: 'plain' }]);
  });

  it("sends the agent's own commands as messages, lists them in /help, and sends //text as /text", async () => {
    const commander = defineAgent({
      id: 'test/commander',
      description: 'Takes /review',
      async run(ctx) {
        ctx.state.setCommands([{ name: 'review', description: 'Review the diff', hint: 'focus' }]);
        await ctx.reply.text(`got ${ctx.text}`);
      },
    });
    const { client, chat, output } = await openTerminal(0, [commander]);
    const sentTexts = () => client.getSnapshot().state!.active!.messages.filter((m) => m.role === 'user').map((m) => (m.content[0] as { text: string }).text);
    // Before the agent said it takes /review, it is not a command of either.
    await chat.handleLine('/review now');
    expect(output()).toContain('Unknown command /review: /help lists them; //review sends it to the agent as it is');
    expect(chat.messageText('/review now')).toBeNull();
    await chat.handleLine('//review now');
    await expect.poll(() => client.getSnapshot().state?.agents[0]?.commands?.length).toBe(1);
    expect(sentTexts()).toEqual(['/review now']);
    await expect.poll(() => client.getSnapshot().state?.run ?? null).toBeNull();
    await chat.handleLine('/help');
    expect(output()).toContain('Commands of test/commander, sent to it as messages:\n  /review <focus>      Review the diff\n');
    expect(chat.messageText('/review the tests')).toBe('/review the tests');
    expect(chat.messageText('/help')).toBeNull();
    await chat.handleLine('/review the tests');
    await expect.poll(sentTexts).toEqual(['/review now', '/review the tests']);
    await expect.poll(() => client.getSnapshot().state?.run ?? null).toBeNull();
    await chat.handleLine('/reveiw');
    expect(output()).toContain('Unknown command /reveiw (did you mean /review?)');
  });

  it("lists the agent's modes with this chat's marked, switches by id or shown name, and prints a refusal", async () => {
    const modal = defineAgent({
      id: 'test/modal',
      description: 'Works in modes',
      modes: [{ id: 'ask', name: 'Ask first', description: 'Asks before edits' }, { id: 'plan', name: 'Plan Mode' }],
      onModeChange: ({ mode }) => (mode === 'ask' ? { reject: 'Ask mode is off today' } : undefined),
      async run(ctx) {
        await ctx.reply.text(`mode ${ctx.mode}`);
      },
    });
    const { client, chat, output } = await openTerminal(0, [modal]);
    await chat.handleLine('/mode');
    expect(output()).toContain("Modes of test/modal (* this chat's):\n  * ask                Ask first — Asks before edits\n    plan               Plan Mode\n/mode <id> switches this chat to another.\n");
    // No chat yet: switching starts one, in that mode.
    await chat.handleLine('/mode plan mode');
    expect(output()).toContain('test/modal works in Plan Mode in this chat now.');
    const chatId = client.getSnapshot().state!.activeChatId!;
    expect(client.getSnapshot().state!.chats[chatId]!.modes).toEqual({ 'test/modal': 'plan' });
    await chat.handleLine('/mode ask');
    await expect.poll(output).toContain('! Ask mode is off today (rejected)');
    await chat.handleLine('/mode yolo');
    await expect.poll(output).toContain('! The agent test/modal has no mode "yolo"; its modes are ask, plan (not_found)');
    expect(client.getSnapshot().state!.chats[chatId]!.modes).toEqual({ 'test/modal': 'plan' });
    await chat.handleLine('hello');
    await expect.poll(output).toContain('mode plan');
  });

  it("lists the agent's settings and one setting's values with this chat's marked, changes them by id or shown name, and prints a refusal; /mode uses a mode setting", async () => {
    const configurable = defineAgent({
      id: 'test/configurable',
      description: 'Works with settings',
      settings: [
        { id: 'model', name: 'Model', options: [{ value: 'small', name: 'Small model', description: 'Fast' }, { value: 'large', name: 'Large model' }] },
        { id: 'mode', name: 'Mode', category: 'mode', options: [{ value: 'ask', name: 'Ask first' }, { value: 'plan', name: 'Plan Mode' }] },
        { id: 'fast', name: 'Fast mode', type: 'boolean' },
      ],
      onSettingChange: ({ value }) => (value === 'ask' ? { reject: 'Ask mode is off today' } : undefined),
      async run(ctx) {
        await ctx.reply.text(`model ${ctx.settings.model}, mode ${ctx.settings.mode}, fast ${ctx.settings.fast}`);
      },
    });
    const { client, chat, output } = await openTerminal(0, [configurable]);
    await chat.handleLine('/set');
    expect(output()).toContain(
      'Settings of test/configurable in this chat:\n  model              Model:         Small model\n  mode               Mode:          Ask first\n  fast               Fast mode:     Off\n/set <setting> lists its values; /set <setting> <value> changes it.\n',
    );
    await chat.handleLine('/set model');
    expect(output()).toContain("Model of test/configurable (* this chat's):\n  * small              Small model — Fast\n    large              Large model\n/set model <value> changes it.\n");
    // No chat yet: changing one starts it.
    await chat.handleLine('/set model large model');
    expect(output()).toContain('Model of test/configurable is Large model in this chat now.');
    const chatId = client.getSnapshot().state!.activeChatId!;
    expect(client.getSnapshot().state!.chats[chatId]!.settings).toEqual({ 'test/configurable': { model: 'large' } });
    await chat.handleLine('/set model huge');
    await expect.poll(output).toContain('! Model has no value "huge"; its values are small, large (not_found)');
    await chat.handleLine('/set temperature hot');
    expect(output()).toContain('test/configurable has no setting temperature; its settings are model, mode, fast.');
    await chat.handleLine('/set fast on');
    await expect.poll(output).toContain('Fast mode of test/configurable is On in this chat now.');
    await chat.handleLine('/mode plan');
    await expect.poll(output).toContain('Mode of test/configurable is Plan Mode in this chat now.');
    await chat.handleLine('/mode ask');
    await expect.poll(output).toContain('! Ask mode is off today (rejected)');
    await chat.handleLine('/mode');
    expect(output()).toContain("Mode of test/configurable (* this chat's):\n    ask                Ask first\n  * plan               Plan Mode\n");
    await chat.handleLine('hello');
    await expect.poll(output).toContain('model large, mode plan, fast true');
  });

  it("says with /usage how full each agent's context is in this chat, once one has said", async () => {
    const counting = defineAgent({
      id: 'test/counting',
      description: 'Reports its context',
      async run(ctx) {
        ctx.setUsage({ used: 150_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } });
        await ctx.reply.text('counted');
      },
    });
    const { client, chat, output, idle } = await openTerminal(0, [counting]);
    await chat.handleLine('/usage');
    expect(output()).toContain('No active chat.\n');
    await chat.handleLine('/new');
    await expect.poll(() => client.getSnapshot().state?.activeChatId ?? null).not.toBeNull();
    await chat.handleLine('/usage');
    expect(output()).toContain('No agent reports how full its context is in this chat.\n');
    await chat.handleLine('count');
    await idle();
    await chat.handleLine('/usage');
    expect(output()).toContain('test/counting: 150,000 of 200,000 tokens of context used (75%); the session has cost $0.42\n');
  });

  it("prints the agent's notices on their own lines, with their severity", async () => {
    const noisy = defineAgent({
      id: 'test/noisy',
      description: 'Tells things besides its reply',
      async run(ctx) {
        ctx.reply.notice({ severity: 'warning', title: 'Search is unavailable', description: 'Answering from memory.' });
        await ctx.reply.text('Here is what I remember.');
        ctx.reply.notice({ title: 'Used the small model' });
      },
    });
    const { chat, output, idle } = await openTerminal(0, [noisy]);
    await chat.handleLine('hello');
    await idle();
    await expect.poll(output).toContain('  [note] Used the small model\n');
    expect(output()).toContain('test/noisy: \n  [warning] Search is unavailable (Answering from memory.)\n');
    // The reply's text starts on a line of its own after the notices.
    expect(output()).toMatch(/\n\s+\[note\] Used the small model\n(.*\n)*Here is what I remember\./);
  });

  it('says when the agent has no modes', async () => {
    const t = await openTerminal();
    await t.chat.handleLine('/agent demo/historian');
    await t.chat.handleLine('/mode');
    expect(t.output()).toContain('demo/historian has no modes.');
    await t.chat.handleLine('/set');
    expect(t.output()).toContain('demo/historian has no settings.');
  });

  it('explains unknown commands and an unknown agent', async () => {
    const t = await openTerminal();
    await t.chat.handleLine('/frobnicate');
    expect(t.output()).toContain('Unknown command /frobnicate: /help lists them; //frobnicate sends it to the agent as it is');
    await t.chat.handleLine('/atach notes.md');
    expect(t.output()).toContain('Unknown command /atach (did you mean /attach?): /help lists them');
    // Answered at once, with the one meant, and messages still go where they went.
    await t.chat.handleLine('/agent nobody/here');
    expect(t.output()).toContain('Unknown agent: nobody/here (agents here: demo/guide, demo/historian; `agentbar agents` describes them)\n');
    await t.chat.handleLine('/agent historian');
    expect(t.output()).toContain('Unknown agent: historian; did you mean demo/historian?');
    await t.chat.handleLine('/agent demo/planner');
    expect(t.output()).toContain("Agent 'demo/planner' not implemented\n");
    expect(t.chat.agent).toBeUndefined();
    await t.chat.handleLine('hello');
    await t.idle();
    expect(t.output()).not.toContain('! ');
    expect(t.client.getSnapshot().state!.active!.messages.at(-1)).toMatchObject({ role: 'assistant', agent: 'demo/guide' });
  });

  it('/agent alone goes back to the chat\'s own agent, and names it', async () => {
    const t = await openTerminal();
    await t.chat.handleLine('/agent demo/historian');
    expect(t.output()).toContain('Messages now go to demo/historian.');
    await t.chat.handleLine('summarize');
    await t.idle();
    await t.chat.handleLine('/agent');
    expect(t.output()).toContain('Messages go to the chat’s agent (demo/historian).');
    expect(t.chat.agent).toBeUndefined();
    expect(t.chat.addressed).toBe('demo/historian');
  });
});
