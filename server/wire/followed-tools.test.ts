import { describe, expect, it } from 'vitest';
import type { ApprovalOption, AssistantMessage, ToolMessage } from '../../shared/schemas.ts';
import { defineAgent, type AgentDefinition, type ApprovalAnswer, type ToolCallHandle } from '../sdk/agent.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { Gate, activeMessages, expectRejected, lastMessage, settle, syncClients, textOf, toolCallsOf, useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();

/** An agent whose tool runs elsewhere and reports as it goes, the way an ACP agent does. */
function reportingAgent() {
  const finished = new Gate();
  const answers: ApprovalAnswer[] = [];
  let handle: ToolCallHandle | null = null;
  const agent = defineAgent({
    id: 'test/reporting',
    description: 'Follows a tool that runs elsewhere',
    async run(ctx) {
      ctx.reply.plan([
        { content: 'Read the file', status: 'in_progress' },
        { content: 'Edit it', status: 'pending' },
      ]);
      await ctx.reply.text('Reading. ');
      let done!: (value: unknown) => void;
      const elsewhere = new Promise((resolve) => (done = resolve));
      handle = ctx.startToolCall({ name: 'edit', runtime: 'cli', input: { path: 'a.ts' }, title: 'Edit a.ts', kind: 'edit', execute: () => elsewhere, alwaysOffered: ctx.text === 'always' });
      handle.update({ locations: [{ path: '/repo/a.ts', line: 3 }] });
      const answer = await handle.requestApproval(ctx.text === 'always' ? { labels: { approve: 'Yes, once', always: 'Yes, and for every edit of a.ts' } } : undefined);
      answers.push(answer);
      if (answer.approved) {
        handle.update({ title: 'Edit a.ts, line 3', display: [{ type: 'diff', path: '/repo/a.ts', oldText: 'a', newText: 'b' }] });
        await finished.wait(ctx.signal);
        done('edited');
        await handle.result;
      }
      ctx.reply.plan([
        { content: 'Read the file', status: 'completed' },
        { content: 'Edit it', status: answer.approved ? 'completed' : 'pending' },
      ]);
      await ctx.reply.text(answer.approved ? 'Done.' : `Not edited: ${answer.reason ?? 'no reason'}`);
    },
  });
  return { agent, finished, answers, handle: () => handle };
}

async function awaitingCall(client: TestClient): Promise<string> {
  await client.waitFor(() => toolCallsOf(client.state).some((c) => c.state === 'awaiting-approval'), 5000, 'a call awaiting approval');
  return toolCallsOf(client.state)[0]!.toolCallId;
}

/** A server with `agent`, a cli client (and a watching one), and a chat where `text` was sent to it. */
async function sendTo(agent: AgentDefinition, text = 'go', options: { watch?: boolean } = {}) {
  const server = await h.start({ agents: [agent] });
  const client = await h.connect(server, { kind: 'cli' });
  const watcher = options.watch ? await h.connect(server, { kind: 'other' }) : undefined;
  const { chatId } = await client.ok('chat.create', {});
  await client.ok('message.send', userMessage(chatId, text));
  return { server, client, chatId, watcher: watcher! };
}

function plans(client: TestClient): { index: number; plan: AssistantMessage['plan'] }[] {
  return activeMessages(client.state).flatMap((m, index) => (m.role === 'assistant' && m.plan ? [{ index, plan: m.plan }] : []));
}

describe('tool calls an agent follows as they go', () => {
  it('shows title, kind, files and a diff, asks midway, and records the result', async () => {
    const r = reportingAgent();
    const { server, client, chatId, watcher } = await sendTo(r.agent, 'go', { watch: true });
    const toolCallId = await awaitingCall(client);
    expect(toolCallsOf(client.state)[0]).toMatchObject({
      toolName: 'edit',
      runtime: 'cli',
      requiresApproval: true,
      title: 'Edit a.ts',
      kind: 'edit',
      locations: [{ path: '/repo/a.ts', line: 3 }],
    });
    expect(toolCallsOf(client.state)[0]!.alwaysOffered).toBeUndefined();
    await client.ok('tool.approve', { chatId, toolCallId, approved: true });
    await client.waitFor(() => toolCallsOf(client.state)[0]?.display !== undefined, 5000, 'the diff');
    expect(toolCallsOf(client.state)[0]).toMatchObject({ state: 'running', display: [{ type: 'diff', path: '/repo/a.ts', oldText: 'a', newText: 'b' }] });
    r.finished.open();
    await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
    await settle(server, client, watcher);
    expect(toolCallsOf(watcher.state)[0]!.state).toBe('done');
    const result = activeMessages(watcher.state).find((m): m is ToolMessage => m.role === 'tool')!;
    // The result is named as its call was last titled, so it reads as what it answers.
    expect(result.content[0]).toEqual({ type: 'tool-result', toolCallId, toolName: 'edit', title: 'Edit a.ts, line 3', output: 'edited', isError: false });
    expect(textOf(lastMessage(watcher.state))).toBe('Done.');
    expect(r.answers).toEqual([{ approved: true }]);
    // One plan, on the reply's latest message, with its last content.
    const shown = plans(watcher);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.index).toBe(activeMessages(watcher.state).length - 1);
    expect(shown[0]!.plan).toEqual([
      { content: 'Read the file', status: 'completed' },
      { content: 'Edit it', status: 'completed' },
    ]);
  });

  it('gives the agent a rejection with its reason and "always", and the call ends denied', async () => {
    const r = reportingAgent();
    const { server, client, chatId } = await sendTo(r.agent, 'always');
    const toolCallId = await awaitingCall(client);
    expect(toolCallsOf(client.state)[0]!.alwaysOffered).toBe(true);
    // The agent's words for its answers, for the buttons.
    expect(toolCallsOf(client.state)[0]!.approvalLabels).toEqual({ approve: 'Yes, once', always: 'Yes, and for every edit of a.ts' });
    await client.ok('tool.approve', { chatId, toolCallId, approved: false, reason: 'not that file', always: true });
    await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
    await settle(server, client);
    expect(r.answers).toEqual([{ approved: false, reason: 'not that file', always: true }]);
    // The agent named no "no": the chat records the rejection without a word of its, and that it was "always".
    const response = activeMessages(client.state).find((m) => m.role === 'user' && m.content[0]!.type === 'tool-approval-response')!;
    expect(response.content).toEqual([{ type: 'tool-approval-response', toolCallId, approved: false, reason: 'not that file', always: true }]);
    expect(toolCallsOf(client.state)[0]!.state).toBe('denied');
    expect(textOf(lastMessage(client.state))).toBe('Not edited: not that file');
    expect((lastMessage(client.state) as AssistantMessage).status).toBe('done');
  });

  it('neither passes on nor records "always" for a call whose agent did not offer it', async () => {
    const r = reportingAgent();
    const { server, client, chatId } = await sendTo(r.agent, 'go');
    const toolCallId = await awaitingCall(client);
    expect(toolCallsOf(client.state)[0]!.alwaysOffered).toBeUndefined();
    await client.ok('tool.approve', { chatId, toolCallId, approved: false, reason: 'later', always: true });
    await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
    await settle(server, client);
    expect(r.answers).toEqual([{ approved: false, reason: 'later' }]);
    const response = activeMessages(client.state).find((m) => m.role === 'user' && m.content[0]!.type === 'tool-approval-response')!;
    expect(response.content).toEqual([{ type: 'tool-approval-response', toolCallId, approved: false, reason: 'later' }]);
  });

  it('rejects the waiting approval when the user presses Stop, and the call ends interrupted', async () => {
    const r = reportingAgent();
    const { server, client, chatId } = await sendTo(r.agent);
    await awaitingCall(client);
    await client.ok('run.stop', { chatId });
    await settle(server, client);
    expect(toolCallsOf(client.state)[0]!.state).toBe('interrupted');
    expect(r.answers).toEqual([]);
    expect(() => r.handle()!.update({ title: 'late' })).toThrow(/stopped/);
  });

  it('fails the run with a clear reason when the agent updates a call with a bad value, and keeps serving', async () => {
    const agent = defineAgent({
      id: 'test/bad-update',
      description: 'Writes a bad location',
      async run(ctx) {
        const call = ctx.startToolCall({ name: 'x', runtime: 'cli', execute: () => 'ok' });
        call.update({ locations: [{ path: 42 as unknown as string }] });
      },
    });
    const { client } = await sendTo(agent);
    await waitUntil(() => client.state?.run === null && (lastMessage(client.state) as AssistantMessage | undefined)?.status === 'failed', 'the failed reply');
    expect((lastMessage(client.state) as AssistantMessage).error).toMatch(/updated tool call x wrongly: .*locations/);
    await client.ok('chat.create', {});
  });

  it("shows the words a tool call gives for its answers when it asks from the start", async () => {
    const agent = defineAgent({
      id: 'test/worded',
      description: 'Asks before deleting, in its own words',
      async run(ctx) {
        await ctx.callTool({ name: 'rm', runtime: 'cli', requiresApproval: true, execute: () => 'removed', approvalLabels: { approve: 'Delete it', reject: 'Keep it' } });
      },
    });
    const { client, chatId } = await sendTo(agent);
    const toolCallId = await awaitingCall(client);
    expect(toolCallsOf(client.state)[0]!.approvalLabels).toEqual({ approve: 'Delete it', reject: 'Keep it' });
    await client.ok('tool.approve', { chatId, toolCallId, approved: true });
    await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
    expect(toolCallsOf(client.state)[0]!.state).toBe('done');
  });

  it('fails the run with a clear reason when the agent names its answers with something other than text, and asks nothing', async () => {
    const agent = defineAgent({
      id: 'test/bad-labels',
      description: 'Names an answer with a number',
      async run(ctx) {
        const call = ctx.startToolCall({ name: 'x', runtime: 'cli', execute: () => 'ok' });
        await call.requestApproval({ labels: { approve: 42 as unknown as string } });
      },
    });
    const { client } = await sendTo(agent);
    await waitUntil(() => client.state?.run === null && (lastMessage(client.state) as AssistantMessage | undefined)?.status === 'failed', 'the failed reply');
    expect((lastMessage(client.state) as AssistantMessage).error).toMatch(/asked approval for tool call x with wrong labels: .*approve/);
    expect(toolCallsOf(client.state)[0]).not.toHaveProperty('approvalLabels');
    expect(toolCallsOf(client.state)[0]!.state).not.toBe('awaiting-approval');
    await client.ok('chat.create', {});
  });

  describe('an agent that lists every answer it offers', () => {
    const PLAN_OPTIONS = [
      { id: 'bypassPermissions', label: 'Yes, and bypass permissions', kind: 'allow_always' as const },
      { id: 'acceptEdits', label: 'Yes, and auto-accept edits', kind: 'allow_always' as const },
      { id: 'default', label: 'Yes, and manually approve edits', kind: 'allow_once' as const },
      { id: 'plan', label: 'No, keep planning', kind: 'reject_once' as const },
    ];

    /** Leaves plan mode the way the user chooses, asking with all four of Claude Code's options. */
    function planAgent() {
      const answers: ApprovalAnswer[] = [];
      const agent = defineAgent({
        id: 'test/plan-exit',
        description: 'Asks to leave plan mode',
        async run(ctx) {
          const call = ctx.startToolCall({ name: 'ExitPlanMode', runtime: 'cli', title: 'Ready to code?', requiresApproval: true, execute: () => 'left' });
          const answer = await call.requestApproval({ options: PLAN_OPTIONS });
          answers.push(answer);
          await ctx.reply.text(answer.approved ? `Mode ${answer.optionId}.` : 'Still planning.');
        },
      });
      return { agent, answers };
    }

    it('offers each option on the call, and gives the agent the one chosen, "always" included', async () => {
      const p = planAgent();
      const { client, chatId } = await sendTo(p.agent);
      const toolCallId = await awaitingCall(client);
      // An older client still sees that "always" is on offer.
      expect(toolCallsOf(client.state)[0]).toMatchObject({ approvalOptions: PLAN_OPTIONS, alwaysOffered: true });
      await client.ok('tool.approve', { chatId, toolCallId, approved: true, optionId: 'acceptEdits' });
      await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
      expect(p.answers).toEqual([{ approved: true, always: true, optionId: 'acceptEdits' }]);
      expect(textOf(lastMessage(client.state))).toBe('Mode acceptEdits.');
      // The chat keeps what the user allowed, in the agent's words.
      const response = activeMessages(client.state).find((m) => m.role === 'user' && m.content[0]!.type === 'tool-approval-response')!;
      expect(response.content).toEqual([{ type: 'tool-approval-response', toolCallId, approved: true, label: 'Yes, and auto-accept edits', always: true }]);
    });

    it('takes "always" from the option chosen, not from an always flag sent with it', async () => {
      const p = planAgent();
      const { client, chatId } = await sendTo(p.agent);
      const toolCallId = await awaitingCall(client);
      await client.ok('tool.approve', { chatId, toolCallId, approved: true, optionId: 'default', always: true });
      await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
      expect(p.answers).toEqual([{ approved: true, optionId: 'default' }]);
      const response = activeMessages(client.state).find((m) => m.role === 'user' && m.content[0]!.type === 'tool-approval-response')!;
      expect(response.content).toEqual([{ type: 'tool-approval-response', toolCallId, approved: true, label: 'Yes, and manually approve edits' }]);
    });

    it('refuses an option the call does not offer, or one that says the opposite of approved, and the call still waits', async () => {
      const p = planAgent();
      const { server, client, chatId, watcher } = await sendTo(p.agent, 'go', { watch: true });
      const toolCallId = await awaitingCall(client);
      await syncClients(client, watcher);
      const unknown = await expectRejected(server, client, 'tool.approve', { chatId, toolCallId, approved: true, optionId: 'yolo' }, { code: 'invalid_message', path: 'optionId' }, [watcher]);
      expect(unknown.error.message).toContain('"bypassPermissions", "acceptEdits", "default", "plan"');
      const opposite = await expectRejected(server, client, 'tool.approve', { chatId, toolCallId, approved: true, optionId: 'plan' }, { code: 'invalid_message', path: 'approved' }, [watcher]);
      expect(opposite.error.message).toMatch(/rejects the call, so approved must be false/);
      expect(toolCallsOf(client.state)[0]!.state).toBe('awaiting-approval');
      expect(p.answers).toEqual([]);
      await client.ok('tool.approve', { chatId, toolCallId, approved: false, optionId: 'plan', reason: 'one more step' });
      await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
      expect(p.answers).toEqual([{ approved: false, reason: 'one more step', optionId: 'plan' }]);
      expect(toolCallsOf(client.state)[0]!.state).toBe('denied');
    });

    it('refuses an option on a call that lists none', async () => {
      const r = reportingAgent();
      const { server, client, chatId } = await sendTo(r.agent);
      const toolCallId = await awaitingCall(client);
      await syncClients(client);
      const refused = await expectRejected(server, client, 'tool.approve', { chatId, toolCallId, approved: true, optionId: 'allow' }, { code: 'invalid_message', path: 'optionId' });
      expect(refused.error.message).toMatch(/offers no options, not "allow"/);
      r.finished.open();
      await client.ok('tool.approve', { chatId, toolCallId, approved: true });
      await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
    });

    it('says only what the latest ask offers when a call asks a second time', async () => {
      const asked = new Gate();
      const agent = defineAgent({
        id: 'test/asks-twice',
        description: 'Asks once with options, then again with only labels',
        async run(ctx) {
          // Runs elsewhere, as an ACP agent's call does, and asks again midway.
          const ran = new Gate();
          const call = ctx.startToolCall({ name: 'deploy', runtime: 'cli', execute: () => ran.wait(ctx.signal).then(() => 'deployed') });
          await call.requestApproval({ options: PLAN_OPTIONS, labels: { approve: 'Go' } });
          await asked.wait(ctx.signal);
          const second = await call.requestApproval({ labels: { approve: 'Deploy to prod' } });
          ran.open();
          await call.result;
          await ctx.reply.text(second.approved ? 'Deployed.' : 'Kept.');
        },
      });
      const { client, chatId } = await sendTo(agent);
      const toolCallId = await awaitingCall(client);
      await client.ok('tool.approve', { chatId, toolCallId, approved: true, optionId: 'default' });
      asked.open();
      await client.waitFor(() => toolCallsOf(client.state)[0]?.approvalLabels?.approve === 'Deploy to prod', 5000, 'the second ask');
      const call = toolCallsOf(client.state)[0]!;
      expect(call.state).toBe('awaiting-approval');
      expect(call).not.toHaveProperty('approvalOptions');
      expect(call).not.toHaveProperty('alwaysOffered');
      await client.ok('tool.approve', { chatId, toolCallId, approved: true });
      await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
      expect(textOf(lastMessage(client.state))).toBe('Deployed.');
    });

    it('fails the run with the reason when the options are wrong, and asks nothing', async () => {
      const agent = defineAgent({
        id: 'test/bad-options',
        description: 'Offers two options with one id',
        async run(ctx) {
          const call = ctx.startToolCall({ name: 'x', runtime: 'cli', execute: () => 'ok' });
          await call.requestApproval({ options: [PLAN_OPTIONS[0]!, { ...PLAN_OPTIONS[1]!, id: 'bypassPermissions' }] });
        },
      });
      const { client } = await sendTo(agent);
      await waitUntil(() => client.state?.run === null && (lastMessage(client.state) as AssistantMessage | undefined)?.status === 'failed', 'the failed reply');
      expect((lastMessage(client.state) as AssistantMessage).error).toMatch(/asked approval for tool call x with wrong options: Each approval option needs an id of its own/);
      expect(toolCallsOf(client.state)[0]).not.toHaveProperty('approvalOptions');
      expect(toolCallsOf(client.state)[0]!.state).not.toBe('awaiting-approval');
    });

    it('fails the run with the reason when a call starts with options that are not options', async () => {
      const agent = defineAgent({
        id: 'test/bad-start-options',
        description: 'Starts a call with an option that has no kind',
        async run(ctx) {
          await ctx.callTool({ name: 'x', runtime: 'cli', requiresApproval: true, execute: () => 'ok', approvalOptions: [{ id: 'y' } as unknown as ApprovalOption, null as unknown as ApprovalOption] });
        },
      });
      const { client } = await sendTo(agent);
      await waitUntil(() => client.state?.run === null && (lastMessage(client.state) as AssistantMessage | undefined)?.status === 'failed', 'the failed reply');
      expect((lastMessage(client.state) as AssistantMessage).error).toMatch(/approvalOptions/);
      expect(toolCallsOf(client.state)).toEqual([]);
      await client.ok('chat.create', {});
    });
  });

  it('records how long each reasoning part took once the next part comes', async () => {
    const agent = defineAgent({
      id: 'test/thinker',
      description: 'Thinks, then answers',
      async run(ctx) {
        await ctx.reply.reasoning('hmm');
        await ctx.sleep(60);
        await ctx.reply.reasoning(' yes');
        await ctx.reply.text('Answer.');
      },
    });
    const { client } = await sendTo(agent);
    await client.waitFor(() => client.state?.run === null, 5000, 'the run to end');
    const [reasoning, text] = (lastMessage(client.state) as AssistantMessage).content;
    expect(reasoning).toMatchObject({ type: 'reasoning', text: 'hmm yes' });
    expect((reasoning as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(50);
    expect(text).toEqual({ type: 'text', text: 'Answer.' });
  });
});
