/**
 * The model agent end to end: the real `@ai-sdk/openai-compatible` provider talks to a real local
 * HTTP server speaking the chat-completions API (test-support/fake-openai.ts), through a real
 * agentbar server, to a wire client. Nothing reaches the network.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../shared/schemas.ts';
import { FakeOpenAi, type FakeReply } from '../../test-support/fake-openai.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { activeMessages, echoAgent, settle, textOf, useHarness, waitUntil, type TestServer } from '../../test-support/test-server.ts';
import { lacksApiVersion } from './describe-model-error.ts';
import { createModelAgent, type ModelAgentOptions } from './create-model-agent.ts';

const h = useHarness();
const fakes: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const AGENT = 'test/model';

async function setup(options: Partial<ModelAgentOptions> & { replies?: FakeReply[]; baseUrl?: string } = {}) {
  const fake = await FakeOpenAi.start();
  fakes.push(fake);
  fake.queue(...(options.replies ?? []));
  const baseUrl = options.baseUrl ?? fake.baseUrl;
  const provider = createOpenAICompatible({ name: 'fake', baseURL: baseUrl, apiKey: 'sk-test' });
  const agent = createModelAgent({ id: AGENT, description: 'A model', model: provider('fake-model'), maxRetries: 0, baseUrl, log: () => {}, ...options });
  const server = await h.start({ agents: [agent, echoAgent()], memory: true });
  const client = await h.connect(server, { kind: 'toolbar' });
  const { chatId } = await client.ok('chat.create', { title: 'model', agent: AGENT });
  return { fake, server, client, chatId };
}

/** Every tool-call part of the chat. */
function toolCalls(server: TestServer) {
  return activeMessages(server.store.state).flatMap((m) => (m.role === 'assistant' ? m.content.filter((p) => p.type === 'tool-call') : []));
}

/** The id agentbar gave the pending approval (its own, not the model's). */
async function pendingApproval(server: TestServer): Promise<string> {
  await waitUntil(() => toolCalls(server).some((p) => p.state === 'awaiting-approval'), 'the approval');
  return toolCalls(server).find((p) => p.state === 'awaiting-approval')!.toolCallId;
}

function lastReply(server: TestServer): AssistantMessage {
  return activeMessages(server.store.state).filter((m): m is AssistantMessage => m.role === 'assistant').at(-1)!;
}

async function ask(server: TestServer, client: TestClient, chatId: string, text: string, agent = AGENT): Promise<AssistantMessage> {
  const before = activeMessages(server.store.state).length;
  await client.ok('message.send', userMessage(chatId, text, { agent }));
  await waitUntil(() => server.store.state.run === null && activeMessages(server.store.state).length > before + 1, 'the reply', 10_000);
  await settle(server, client);
  return lastReply(server);
}

describe('createModelAgent', () => {
  it('offers its other models in a Model menu: a chat that picks one is answered by it, another chat keeps the default', async () => {
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    fake.queue({ steps: [{ text: 'small' }] }, { steps: [{ text: 'large' }] }, { steps: [{ text: 'small again' }] });
    const provider = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, apiKey: 'sk-test' });
    const agent = createModelAgent({
      id: AGENT,
      description: 'A model',
      model: provider('small-model'),
      models: [{ id: 'large-model', name: 'Large (slow)', model: provider('large-model') }],
      maxRetries: 0,
      log: () => {},
    });
    const server = await h.start({ agents: [agent], memory: true });
    const client = await h.connect(server, { kind: 'toolbar' });
    expect(client.state!.agents[0]!.settings).toEqual([
      { id: 'model', name: 'Model', category: 'model', defaultValue: 'small-model', options: [{ value: 'small-model', name: 'small-model' }, { value: 'large-model', name: 'Large (slow)' }] },
    ]);
    const { chatId } = await client.ok('chat.create', { agent: AGENT });
    expect(textOf(await ask(server, client, chatId, 'one'))).toBe('small');
    await client.ok('setting.set', { chatId, setting: 'model', value: 'large-model' });
    expect(textOf(await ask(server, client, chatId, 'two'))).toBe('large');
    const { chatId: other } = await client.ok('chat.create', { agent: AGENT });
    expect(textOf(await ask(server, client, other, 'three'))).toBe('small again');
    expect(fake.requests.map((r) => r.body.model)).toEqual(['small-model', 'large-model', 'small-model']);
  });

  it('offers no Model menu with one model', async () => {
    const { client } = await setup();
    expect(client.state!.agents.find((a) => a.id === AGENT)!.settings).toBeUndefined();
  });

  it('streams reasoning and text into the reply, and sends the model the system prompt and the user turn', async () => {
    const { fake, server, client, chatId } = await setup({
      system: 'You are terse.',
      replies: [{ steps: [{ reasoning: 'Thinking ' }, { reasoning: 'hard.' }, { text: 'Hel' }, { text: 'lo!' }] }],
    });
    const reply = await ask(server, client, chatId, 'hi there');
    expect(reply.status).toBe('done');
    expect(reply.content).toEqual([
      { type: 'reasoning', text: 'Thinking hard.', durationMs: expect.any(Number) },
      { type: 'text', text: 'Hello!' },
    ]);
    expect(client.state).toEqual(server.store.state);
    const body = fake.requests[0]!.body;
    expect(body.model).toBe('fake-model');
    expect(fake.systemOf(0)).toMatch(/^You are terse\./);
    expect(body.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(body.messages.at(-1))).toContain('hi there');
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('shows a <think> block that opens the answer as reasoning, and keeps it out of what the model is sent back', async () => {
    const { fake, server, client, chatId } = await setup({
      tools: [{ name: 'now', description: 'The time', execute: () => '12:00' }],
      replies: [
        { steps: [{ text: '<thi' }, { text: 'nk>I need the time' }, { text: '.</th' }, { text: 'ink>\n\nChecking.' }, { toolCall: { id: 'c1', name: 'now', args: ['{}'] } }] },
        { steps: [{ text: '<think>Got it.</think>' }, { text: 'It is <think> o\'clock: 12:00.' }] },
      ],
    });
    await ask(server, client, chatId, 'what time is it?');
    const parts = activeMessages(server.store.state).flatMap((m) => (m.role === 'assistant' ? m.content.filter((p) => p.type !== 'tool-call') : []));
    expect(parts).toEqual([
      { type: 'reasoning', text: 'I need the time.', durationMs: expect.any(Number) },
      { type: 'text', text: 'Checking.' },
      { type: 'reasoning', text: 'Got it.', durationMs: expect.any(Number) },
      { type: 'text', text: "It is <think> o'clock: 12:00." },
    ]);
    const sentBack = fake.requests[1]!.body.messages.find((m) => m.role === 'assistant');
    expect(sentBack?.content).toBe('Checking.');
  });

  it('answers without tools, once and for later replies, when the model refuses a request that offers them', async () => {
    const logged: string[] = [];
    const { fake, server, client, chatId } = await setup({
      log: (level, message) => logged.push(`${level}: ${message}`),
      replies: [{ steps: [{ text: 'Hi.' }] }, { steps: [{ text: 'Again.' }] }],
    });
    fake.refuseTools = 'registry.ollama.ai/library/deepseek-r1:latest does not support tools';
    const first = await ask(server, client, chatId, 'hello');
    expect(first.status).toBe('done');
    expect(textOf(first)).toBe('Hi.');
    expect(first.notices).toEqual([{ severity: 'warning', title: 'This model cannot call tools', description: "It answers without the page's tools and skills." }]);
    expect(fake.requests.map((r) => Boolean(r.body.tools?.length))).toEqual([true, false]);
    expect(logged).toEqual([expect.stringMatching(/^warn: The model refused a request that offered tools \(.*does not support tools.*\); it is asked without them from now on/)]);

    const second = await ask(server, client, chatId, 'and now?');
    expect(textOf(second)).toBe('Again.');
    expect(second.notices).toBeUndefined();
    expect(fake.requests.map((r) => Boolean(r.body.tools?.length))).toEqual([true, false, false]);
    expect(logged).toHaveLength(1);
  });

  it('still fails a reply on other 400s, tools or not', async () => {
    const { fake, server, client, chatId } = await setup({ replies: [{ status: 400, error: { message: 'Invalid value for temperature' } }] });
    const reply = await ask(server, client, chatId, 'hello');
    expect(reply.status).toBe('failed');
    expect(reply.error).toContain('Invalid value for temperature');
    expect(fake.requests).toHaveLength(1);
  });

  it('leaves <think> in the reply when splitThinkTags is off', async () => {
    const { server, client, chatId } = await setup({ splitThinkTags: false, replies: [{ steps: [{ text: '<think>x</think>y' }] }] });
    const reply = await ask(server, client, chatId, 'hi');
    expect(reply.content).toEqual([{ type: 'text', text: '<think>x</think>y' }]);
  });

  it('runs a tool call whose arguments arrive in pieces, feeds the result back and goes on', async () => {
    const seen: unknown[] = [];
    const { fake, server, client, chatId } = await setup({
      tools: [{ name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, execute: (input) => (seen.push(input), { sum: Number(input.a) + Number(input.b) }) }],
      replies: [
        { steps: [{ text: 'Let me add.' }, { toolCall: { id: 'call_1', name: 'add', args: ['{"a":', ' 2, "b"', ': 3}'] } }] },
        { steps: [{ text: 'The sum is 5.' }] },
      ],
    });
    const reply = await ask(server, client, chatId, 'what is 2 + 3?');
    expect(seen).toEqual([{ a: 2, b: 3 }]);
    expect(reply.status).toBe('done');
    const call = toolCalls(server)[0];
    expect(call).toMatchObject({ toolName: 'add', input: { a: 2, b: 3 }, runtime: 'cli', requiresApproval: false, state: 'done' });
    expect(textOf(reply)).toContain('The sum is 5.');
    // The second request carries the call and its result.
    const second = fake.requests[1]!.body.messages;
    expect(second.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'add' } }] });
    expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(JSON.stringify(second.at(-1))).toContain('"sum\\":5');
    expect(fake.requests[0]!.body.tools!.map((t) => t.function.name)).toEqual(['activate_skill', 'deactivate_skill', 'add']);
  });

  it('asks the user before a tool that requires approval, and tells the model when it was rejected', async () => {
    const { fake, server, client, chatId } = await setup({
      tools: [{ name: 'deploy', description: 'Deploys', requiresApproval: true, execute: () => 'deployed' }],
      replies: [{ steps: [{ toolCall: { id: 'call_d', name: 'deploy', args: ['{}'] } }] }, { steps: [{ text: 'Understood, not deploying.' }] }],
    });
    await client.ok('message.send', userMessage(chatId, 'deploy it', { agent: AGENT }));
    await client.ok('tool.approve', { chatId, toolCallId: await pendingApproval(server), approved: false, reason: 'not on a Friday' });
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    const reply = lastReply(server);
    expect(toolCalls(server)[0]).toMatchObject({ toolName: 'deploy', requiresApproval: true, state: 'denied' });
    expect(textOf(reply)).toContain('Understood, not deploying.');
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain('not on a Friday');
  });

  it('offers "Always allow in this chat" for a tool that asks: it then runs there without asking, and another chat still asks', async () => {
    const deployed: string[] = [];
    const deploy = { toolCall: { id: 'call_d', name: 'deploy', args: ['{}'] } };
    const { fake, server, client, chatId } = await setup({
      tools: [{ name: 'deploy', description: 'Deploys', requiresApproval: true, execute: () => (deployed.push('deploy'), 'deployed') }],
      replies: [
        { steps: [deploy] },
        { steps: [{ text: 'Deployed.' }] },
        { steps: [deploy] },
        { steps: [{ text: 'Deployed again.' }] },
        { steps: [deploy] },
        { steps: [{ text: 'Not deploying.' }] },
        { steps: [deploy] },
        { steps: [{ text: 'Not deploying.' }] },
      ],
    });
    // The command that undoes it is offered, as every agent command is (the toolbar's "/" menu).
    expect(server.store.state.agents.find((a) => a.id === AGENT)!.commands).toEqual([{ name: 'ask-again', description: 'Ask before every tool call in this chat again (undoes "Always allow in this chat")' }]);
    await client.ok('message.send', userMessage(chatId, 'deploy it', { agent: AGENT }));
    const first = await pendingApproval(server);
    expect(toolCalls(server)[0]).toMatchObject({ toolName: 'deploy', alwaysOffered: true, approvalLabels: { always: 'Always allow in this chat' } });
    await client.ok('tool.approve', { chatId, toolCallId: first, approved: true, always: true });
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    expect(textOf(lastReply(server))).toBe('Deployed.');
    // The chat says what was allowed, in the agent's words.
    expect(activeMessages(server.store.state).some((m) => m.role === 'user' && m.content.some((p) => p.type === 'tool-approval-response' && p.label === 'Always allow in this chat' && p.always === true))).toBe(true);

    expect(textOf(await ask(server, client, chatId, 'and again'))).toBe('Deployed again.');
    expect(toolCalls(server)[1]).toMatchObject({ toolName: 'deploy', requiresApproval: false, state: 'done' });
    expect(deployed).toHaveLength(2);

    // /ask-again is answered by the agent without the model, and the tool asks again here.
    const asked = fake.requests.length;
    expect(textOf(await ask(server, client, chatId, '/ask-again'))).toBe('I will ask again before every call of `deploy` in this chat.');
    expect(fake.requests).toHaveLength(asked);
    await client.ok('message.send', userMessage(chatId, 'deploy once more', { agent: AGENT }));
    await client.ok('tool.approve', { chatId, toolCallId: await pendingApproval(server), approved: false });
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    expect(deployed).toHaveLength(2);
    expect(textOf(await ask(server, client, chatId, '/ask-again'))).toBe('Nothing in this chat runs without asking: every tool that asks still asks.');

    const other = await client.ok('chat.create', { title: 'other', agent: AGENT });
    await client.ok('message.send', userMessage(other.chatId, 'deploy here too', { agent: AGENT }));
    await client.ok('tool.approve', { chatId: other.chatId, toolCallId: await pendingApproval(server), approved: false });
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    expect(deployed).toHaveLength(2);
  });

  it('keeps "Always allow in this chat" across a restart', async () => {
    const dataDir = await h.tmpDir();
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    const deploy = { toolCall: { id: 'call_d', name: 'deploy', args: ['{}'] } };
    fake.queue({ steps: [deploy] }, { steps: [{ text: 'Deployed.' }] }, { steps: [deploy] }, { steps: [{ text: 'Deployed again.' }] });
    const make = () =>
      createModelAgent({ id: AGENT, description: 'A model', model: createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl })('m'), maxRetries: 0, log: () => {}, tools: [{ name: 'deploy', requiresApproval: true, execute: () => 'deployed' }] });
    const first = await h.start({ agents: [make()], dataDir });
    const client = await h.connect(first);
    const { chatId } = await client.ok('chat.create', { agent: AGENT });
    await client.ok('message.send', userMessage(chatId, 'deploy', { agent: AGENT }));
    await client.ok('tool.approve', { chatId, toolCallId: await pendingApproval(first), approved: true, always: true });
    await waitUntil(() => first.store.state.run === null, 'the end of the run');
    await client.terminate();
    await first.close();

    const second = await h.start({ agents: [make()], dataDir });
    const again = await h.connect(second);
    expect(textOf(await ask(second, again, chatId, 'and again'))).toBe('Deployed again.');
    expect(toolCalls(second).at(-1)).toMatchObject({ toolName: 'deploy', requiresApproval: false, state: 'done' });
  });

  it('shows a call to a tool it was not offered as failed, and tells the model why', async () => {
    const long = `x${'y'.repeat(300)}`;
    const { fake, server, client, chatId } = await setup({
      replies: [
        { steps: [{ text: 'Let me look.' }, { toolCall: { id: 'call_x', name: 'get_page_info', args: ['{"detail":', ' true}'] } }, { toolCall: { id: 'call_y', name: long, args: ['{}'] } }] },
        { steps: [{ text: 'I cannot see the page from here.' }] },
      ],
    });
    // No tool of its asks (switching a skill on asks every time): nothing for /ask-again to undo.
    expect(server.store.state.agents.find((a) => a.id === AGENT)!.commands).toBeUndefined();
    const reply = await ask(server, client, chatId, 'which page?');
    expect(reply.status).toBe('done');
    expect(textOf(reply)).toBe('I cannot see the page from here.');
    const [made, longer] = toolCalls(server);
    expect(made).toMatchObject({ toolName: 'get_page_info', input: { detail: true }, runtime: 'cli', state: 'failed' });
    // A name past the protocol's limit is shortened, so every client can still read the message.
    expect(longer!.toolName).toHaveLength(128);
    expect(longer).toMatchObject({ toolName: `${long.slice(0, 127)}…`, state: 'failed' });
    const results = activeMessages(server.store.state).filter((m) => m.role === 'tool');
    expect(JSON.stringify(results[0])).toContain('There is no tool named get_page_info now');
    expect(client.state).toEqual(server.store.state);
    // The model reads the same reason for each call.
    const sent = fake.requests[1]!.body.messages.filter((m) => m.role === 'tool');
    expect(sent).toHaveLength(2);
    expect(JSON.stringify(sent[0])).toContain('There is no tool named get_page_info now');
  });

  it('offers the toolbar its own page tools and runs them there', async () => {
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    fake.queue({ steps: [{ toolCall: { id: 'call_p', name: 'get_page_info', args: ['{}'] } }] }, { steps: [{ text: 'The page is Orders.' }] });
    const provider = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl });
    const server = await h.start({ agents: [createModelAgent({ id: AGENT, description: 'A model', model: provider('m'), maxRetries: 0 })], memory: true });
    const toolbar = await h.connect(server, { kind: 'toolbar', tools: [{ name: 'get_page_info', description: 'The page title and URL', inputSchema: { type: 'object', properties: {} } }] });
    const { chatId } = await toolbar.ok('chat.create', { agent: AGENT });
    await toolbar.ok('message.send', userMessage(chatId, 'which page?', { agent: AGENT }));
    const run = await toolbar.next('tool.run');
    expect(run).toMatchObject({ toolName: 'get_page_info' });
    await toolbar.ok('tool.result', { chatId, toolCallId: run.toolCallId, output: { title: 'Orders' } });
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    expect(textOf(lastReply(server))).toBe('The page is Orders.');
    expect(fake.requests[0]!.body.tools!.find((t) => t.function.name === 'get_page_info')!.function.description).toBe('The page title and URL');
  });

  it('stops the model request on Stop and ends the message stopped', async () => {
    const { fake, server, client, chatId } = await setup({ replies: [{ steps: [{ text: 'Once upon' }, { delayMs: 20_000 }, { text: ' a time' }] }] });
    await client.ok('message.send', userMessage(chatId, 'tell a story', { agent: AGENT }));
    await waitUntil(() => textOf(lastReply(server) ?? undefined).includes('Once upon'), 'the first words');
    await client.ok('run.stop', { chatId });
    await waitUntil(() => server.store.state.run === null, 'the stop');
    expect(lastReply(server)).toMatchObject({ status: 'stopped' });
    expect(textOf(lastReply(server))).toBe('Once upon');
    expect(fake.requests).toHaveLength(1);
  });

  it('ends the reply after the step limit, saying so', async () => {
    const loop = (i: number): FakeReply => ({ steps: [{ toolCall: { id: `call_${i}`, name: 'deactivate_skill', args: ['{}'] } }] });
    const { fake, server, client, chatId } = await setup({ maxSteps: 2, replies: [loop(1), loop(2), loop(3)] });
    const reply = await ask(server, client, chatId, 'loop');
    expect(fake.requests).toHaveLength(2);
    expect(reply.status).toBe('done');
    expect(activeMessages(client.state).flatMap((m) => (m.role === 'assistant' ? (m.notices ?? []) : []))).toEqual([{ severity: 'info', title: 'Stopped after 2 model steps', description: 'Send a message to go on.' }]);
  });

  it('says when the model stopped at its output limit rather than because it was done', async () => {
    const { server, client, chatId } = await setup({ maxOutputTokens: 2048, replies: [{ steps: [{ text: 'The three steps are: first, open the' }], finish: 'length' }, { steps: [{ text: 'Done.' }] }] });
    const cut = await ask(server, client, chatId, 'list the steps');
    expect(cut.status).toBe('done');
    expect(textOf(cut)).toBe('The three steps are: first, open the');
    expect(cut.notices).toEqual([{ severity: 'warning', title: 'The reply was cut off', description: 'The model stopped at its 2,048-token output limit (maxOutputTokens). Ask it to go on.' }]);
    // A reply the model finished has no such notice.
    expect((await ask(server, client, chatId, 'thanks')).notices).toBeUndefined();
  });
});

describe('context usage', () => {
  /** The agent's last report of how full its context is, as every client sees it. */
  const usageOf = (server: TestServer, chatId: string) => server.store.state.chats[chatId]!.usage?.[AGENT];

  it('reports how full the context is after each model call, against the window it was given', async () => {
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    const seen: unknown[] = [];
    const provider = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, includeUsage: true });
    let server: TestServer;
    let chatId = '';
    const agent = createModelAgent({
      id: AGENT,
      description: 'A model',
      model: provider('fake-model'),
      contextWindow: 8192,
      maxRetries: 0,
      log: () => {},
      // What the chat showed while the tool ran: the first call's report, before the second call.
      tools: [{ name: 'look', description: 'Looks', execute: () => (seen.push(usageOf(server, chatId)), 'seen') }],
    });
    fake.queue(
      { steps: [{ toolCall: { id: 'call_1', name: 'look', args: ['{}'] } }], usage: { prompt_tokens: 1000, completion_tokens: 50 } },
      { steps: [{ text: 'Done.' }], usage: { prompt_tokens: 1100, completion_tokens: 80 } },
    );
    server = await h.start({ agents: [agent], memory: true });
    const client = await h.connect(server, { kind: 'toolbar' });
    ({ chatId } = await client.ok('chat.create', { agent: AGENT }));
    expect(usageOf(server, chatId)).toBeUndefined();
    expect(textOf(await ask(server, client, chatId, 'look around'))).toBe('Done.');
    expect(seen).toEqual([{ used: 1050, size: 8192 }]);
    expect(usageOf(server, chatId)).toEqual({ used: 1180, size: 8192 });
    expect(client.state!.chats[chatId]!.usage).toEqual({ [AGENT]: { used: 1180, size: 8192 } });
    expect(fake.requests.map((r) => r.body.stream_options)).toEqual([{ include_usage: true }, { include_usage: true }]);
  });

  it("measures each model against its own window, or the agent's, and reports nothing for a model without one", async () => {
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    const provider = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, includeUsage: true });
    const make = (contextWindow: number | undefined) =>
      createModelAgent({
        id: AGENT,
        description: 'A model',
        model: provider('small'),
        models: [{ id: 'large', model: provider('large'), contextWindow: 128_000 }, { id: 'mid', model: provider('mid') }],
        ...(contextWindow ? { contextWindow } : {}),
        maxRetries: 0,
        log: () => {},
      });
    const server = await h.start({ agents: [make(undefined)], memory: true });
    const client = await h.connect(server, { kind: 'toolbar' });
    const { chatId } = await client.ok('chat.create', { agent: AGENT });
    await ask(server, client, chatId, 'one');
    expect(usageOf(server, chatId)).toBeUndefined();
    await client.ok('setting.set', { chatId, setting: 'model', value: 'large' });
    await ask(server, client, chatId, 'two');
    expect(usageOf(server, chatId)).toEqual({ used: 15, size: 128_000 });

    const withDefault = await h.start({ agents: [make(4096)], memory: true });
    const second = await h.connect(withDefault, { kind: 'toolbar' });
    const { chatId: mid } = await second.ok('chat.create', { agent: AGENT });
    await second.ok('setting.set', { chatId: mid, setting: 'model', value: 'mid' });
    await ask(withDefault, second, mid, 'three');
    expect(usageOf(withDefault, mid)).toEqual({ used: 15, size: 4096 });
  });

  it("takes the chat's report away when the next reply comes from a model with another window, or none", async () => {
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    const counting = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, includeUsage: true });
    // Never asked for counts, so the fake sends none: what the chat shows after its reply is what the run left.
    const silent = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl });
    const agent = createModelAgent({
      id: AGENT,
      description: 'A model',
      model: counting('small'),
      models: [{ id: 'large', model: silent('large'), contextWindow: 128_000 }, { id: 'mid', model: counting('mid'), contextWindow: 8192 }],
      maxRetries: 0,
      log: () => {},
    });
    const server = await h.start({ agents: [agent], memory: true });
    const client = await h.connect(server, { kind: 'toolbar' });
    const { chatId } = await client.ok('chat.create', { agent: AGENT });
    const answerWith = async (model: string) => {
      await client.ok('setting.set', { chatId, setting: 'model', value: model });
      await ask(server, client, chatId, `to ${model}`);
      return client.state!.chats[chatId]!.usage;
    };
    expect(await answerWith('mid')).toEqual({ [AGENT]: { used: 15, size: 8192 } });
    // 8,192 was mid's window: large's reply returned no counts, and the chat shows none rather than mid's.
    expect(await answerWith('large')).toBeUndefined();
    expect(await answerWith('mid')).toEqual({ [AGENT]: { used: 15, size: 8192 } });
    expect(await answerWith('small')).toBeUndefined();
    expect(fake.requests.map((r) => r.body.model)).toEqual(['mid', 'large', 'mid', 'small']);
  });

  it("adds what each model call cost to the chat's report, cached input at its own price", async () => {
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    const provider = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, includeUsage: true });
    const agent = createModelAgent({
      id: AGENT,
      description: 'A model',
      model: provider('fake-model'),
      contextWindow: 8192,
      price: { input: 2, output: 8, cachedInput: 0.5 },
      maxRetries: 0,
      log: () => {},
      tools: [{ name: 'look', description: 'Looks', execute: () => 'seen' }],
    });
    fake.queue(
      { steps: [{ toolCall: { id: 'call_1', name: 'look', args: ['{}'] } }], usage: { prompt_tokens: 1000, completion_tokens: 50 } },
      { steps: [{ text: 'Done.' }], usage: { prompt_tokens: 1100, completion_tokens: 80, prompt_tokens_details: { cached_tokens: 1000 } } },
      { steps: [{ text: 'Again.' }], usage: { prompt_tokens: 1200, completion_tokens: 20 } },
    );
    const server = await h.start({ agents: [agent], memory: true });
    const client = await h.connect(server, { kind: 'toolbar' });
    const { chatId } = await client.ok('chat.create', { agent: AGENT });
    await ask(server, client, chatId, 'look around');
    // (1000 × 2 + 50 × 8) / 1M for the first call, (100 × 2 + 1000 cached × 0.5 + 80 × 8) / 1M for the second.
    const first = usageOf(server, chatId)!;
    expect(first).toMatchObject({ used: 1180, size: 8192, cost: { currency: 'USD' } });
    expect(first.cost!.amount).toBeCloseTo(0.0024 + 0.00134, 12);
    await ask(server, client, chatId, 'once more');
    const second = client.state!.chats[chatId]!.usage![AGENT]!;
    expect(second).toMatchObject({ used: 1220, size: 8192, cost: { currency: 'USD' } });
    expect(second.cost!.amount).toBeCloseTo(0.0024 + 0.00134 + 0.00256, 12);
  });

  it("keeps the chat's cost when another model answers, adding only what a priced model costs", async () => {
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    const provider = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, includeUsage: true });
    const agent = createModelAgent({
      id: AGENT,
      description: 'A model',
      model: provider('local'),
      contextWindow: 8192,
      models: [{ id: 'paid', model: provider('paid'), contextWindow: 128_000, price: { input: 1000, output: 1000, currency: 'EUR' } }],
      maxRetries: 0,
      log: () => {},
    });
    const server = await h.start({ agents: [agent], memory: true });
    const client = await h.connect(server, { kind: 'toolbar' });
    const { chatId } = await client.ok('chat.create', { agent: AGENT });
    const answerWith = async (model: string) => {
      await client.ok('setting.set', { chatId, setting: 'model', value: model });
      await ask(server, client, chatId, `to ${model}`);
      return client.state!.chats[chatId]!.usage![AGENT];
    };
    // Each call: 10 tokens in, 5 out (the fake's default), 15 × 1000 / 1M = 0.015 at the paid model's price.
    expect(await answerWith('local')).toEqual({ used: 15, size: 8192 });
    expect(await answerWith('paid')).toEqual({ used: 15, size: 128_000, cost: { amount: 0.015, currency: 'EUR' } });
    expect(await answerWith('local')).toEqual({ used: 15, size: 8192, cost: { amount: 0.015, currency: 'EUR' } });
    expect(await answerWith('paid')).toEqual({ used: 15, size: 128_000, cost: { amount: 0.03, currency: 'EUR' } });
  });

  it.each([
    [{ price: { input: 1, output: 2 } }, 'price needs contextWindow: the cost is shown beside how full the context is'],
    [{ contextWindow: 8192, price: { input: -1, output: 2 } }, 'price.input must be a price per million tokens, 0 or more, not -1'],
    [
      { models: [{ id: 'big', model: createOpenAICompatible({ name: 'x', baseURL: 'http://127.0.0.1:9/v1' })('big'), price: { input: 1, output: 2 } }] },
      `models["big"].price needs a contextWindow (its own or the agent's): the cost is shown beside how full the context is`,
    ],
  ])('refuses a price it cannot show: %j', (options, message) => {
    const model = createOpenAICompatible({ name: 'x', baseURL: 'http://127.0.0.1:9/v1' })('m');
    expect(() => createModelAgent({ id: AGENT, description: 'A model', model, ...options })).toThrow(new TypeError(message));
  });

  it('keeps the last report when the model server sends no token counts', async () => {
    // A provider not asked for counts: the server (as OpenAI does) sends none.
    const { fake, server, client, chatId } = await setup({ contextWindow: 8192 });
    expect(textOf(await ask(server, client, chatId, 'hi'))).toBe('ok');
    expect(fake.requests[0]!.body.stream_options).toBeUndefined();
    expect(usageOf(server, chatId)).toBeUndefined();
  });

  it.each([
    [{ contextWindow: 0 }, 'contextWindow must be a whole number of tokens, 1 or more, not 0'],
    [{ contextWindow: 4096.5 }, 'contextWindow must be a whole number of tokens, 1 or more, not 4096.5'],
    [{ models: [{ id: 'big', model: createOpenAICompatible({ name: 'x', baseURL: 'http://127.0.0.1:9/v1' })('big'), contextWindow: Number.NaN }] }, 'models["big"].contextWindow must be a whole number of tokens, 1 or more, not NaN'],
  ])('refuses a context window that is not a whole number of tokens: %j', (options, message) => {
    const model = createOpenAICompatible({ name: 'x', baseURL: 'http://127.0.0.1:9/v1' })('m');
    expect(() => createModelAgent({ id: AGENT, description: 'A model', model, ...options })).toThrow(new TypeError(message));
  });
});

describe('provider errors end the message failed with a readable reason', () => {
  const cases: [string, FakeReply, RegExp][] = [
    ['401', { status: 401, error: { message: 'Incorrect API key provided' } }, /refused the credentials \(401\): Incorrect API key provided\. Check the API key/],
    ['429', { status: 429, error: { message: 'Rate limit reached' } }, /rate limiting \(429\): Rate limit reached/],
    ['500', { status: 500, error: { message: 'upstream exploded' } }, /provider failed \(500\): upstream exploded/],
    ['context', { status: 400, error: { message: "This model's maximum context length is 8192 tokens" } }, /does not fit the model's context window \(400\)/],
    ['a cut stream', { steps: [{ text: 'Half' }, { delayMs: 50 }, { cut: true }] }, /reply stream broke off in the middle/],
  ];
  it.each(cases)('%s', async (_name, reply, expected) => {
    const { server, client, chatId } = await setup({ replies: [reply] });
    const message = await ask(server, client, chatId, 'hello');
    expect(message.status).toBe('failed');
    expect(message.error).toMatch(expected);
    // The server goes on.
    await client.ok('chat.rename', { chatId, title: 'still serving' });
  });

  it('a 404 from a base URL without /v1, with the address to try', async () => {
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    const root = fake.baseUrl.replace(/\/v1$/, '');
    fake.queue({ status: 404, error: { message: '404 page not found' } });
    const { server, client, chatId } = await setup({ baseUrl: root });
    const message = await ask(server, client, chatId, 'hello');
    expect(message.error).toMatch(/^The model provider does not know this model or address \(404\): 404 page not found\. Check --model and --base-url\. OpenAI-compatible servers answer under \/v1: try --base-url http:\/\/127\.0\.0\.1:\d+\/v1\.$/);
    expect(lacksApiVersion(`${root}/`)).toBe(true);
    expect(lacksApiVersion(`${root}/v1/`)).toBe(false);
    expect(lacksApiVersion('https://generativelanguage.googleapis.com/v1beta/openai')).toBe(false);
    expect(lacksApiVersion('http://127.0.0.1:8080/api')).toBe(true);
    expect(lacksApiVersion('https://api.groq.com/openai/v1')).toBe(false);
  });

  it('a refused connection', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const { server, client, chatId } = await setup({ baseUrl: `http://127.0.0.1:${closed}/v1` });
    const message = await ask(server, client, chatId, 'hello');
    expect(message.status).toBe('failed');
    expect(message.error).toMatch(new RegExp(`Cannot reach the model at http://127\\.0\\.0\\.1:${closed}/v1: the connection was refused`));
  });
});

describe('attachments', () => {
  const url = (mime: string, bytes: Buffer | string) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
  const PNG = url('image/png', 'png-bytes');
  const ZIP = url('application/zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]));

  async function askWith(server: TestServer, client: TestClient, chatId: string, text: string, parts: Record<string, unknown>[]): Promise<AssistantMessage> {
    const before = activeMessages(server.store.state).length;
    await client.ok('message.send', userMessage(chatId, text, { agent: AGENT, content: [{ type: 'text', text }, ...parts] }));
    await waitUntil(() => server.store.state.run === null && activeMessages(server.store.state).length > before + 1, 'the reply', 10_000);
    await settle(server, client);
    return lastReply(server);
  }

  /** The content parts of the last user turn of request `i`. */
  function sentParts(fake: FakeOpenAi, i: number): { type: string; text?: string }[] {
    const content = fake.requests[i]!.body.messages.filter((m) => m.role === 'user').at(-1)!.content;
    return Array.isArray(content) ? content : [{ type: 'text', text: String(content) }];
  }

  it('sends attached text files as text with their names, whatever type the browser gave them', async () => {
    const { fake, server, client, chatId } = await setup({ replies: [{ steps: [{ text: 'Read them.' }] }] });
    const reply = await askWith(server, client, chatId, 'review these', [
      { type: 'file', data: url('application/json', '{"name":"app"}'), mimeType: 'application/json', filename: 'package.json' },
      { type: 'file', data: url('video/mp2t', 'export const a = 1;'), mimeType: 'video/mp2t', filename: 'a.ts' },
      { type: 'file', data: url('application/octet-stream', 'PORT=3000'), mimeType: 'application/octet-stream', filename: '.env' },
    ]);
    expect(reply.status).toBe('done');
    expect(textOf(reply)).toBe('Read them.');
    expect(sentParts(fake, 0)).toEqual([
      { type: 'text', text: 'review these' },
      { type: 'text', text: 'Attached file "package.json" (application/json):\n```\n{"name":"app"}\n```' },
      { type: 'text', text: 'Attached file "a.ts" (video/mp2t):\n```\nexport const a = 1;\n```' },
      { type: 'text', text: 'Attached file ".env" (application/octet-stream):\n```\nPORT=3000\n```' },
    ]);
  });

  it('names a binary file to the model without sending it, and says so in the reply', async () => {
    const { fake, server, client, chatId } = await setup({ replies: [{ steps: [{ text: 'I cannot open zips.' }] }] });
    const reply = await askWith(server, client, chatId, 'what is in it?', [{ type: 'file', data: ZIP, mimeType: 'application/zip', filename: 'build.zip' }]);
    expect(reply.status).toBe('done');
    expect(textOf(reply)).toBe('I cannot open zips.');
    expect(reply.notices).toEqual([{ severity: 'info', title: 'build.zip is not text', description: 'The model only knows it was attached.' }]);
    expect(sentParts(fake, 0)).toEqual([
      { type: 'text', text: 'what is in it?' },
      { type: 'text', text: '[The user attached "build.zip" (application/zip, 6 B). It is not text, and you cannot read it.]' },
    ]);
  });

  it('sends an SVG as its source and leaves a BMP out with a note, so the provider never refuses the reply for them', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>';
    const { fake, server, client, chatId } = await setup({ replies: [{ steps: [{ text: 'A square.' }] }] });
    const reply = await askWith(server, client, chatId, 'what icon is this?', [
      { type: 'image', image: url('image/svg+xml', svg), mimeType: 'image/svg+xml' },
      { type: 'image', image: url('image/bmp', Buffer.from([0x42, 0x4d, 0x00, 0x00])), mimeType: 'image/bmp' },
      { type: 'image', image: PNG, mimeType: 'image/png' },
    ]);
    expect(reply.status).toBe('done');
    expect(textOf(reply)).toBe('A square.');
    expect(reply.notices).toEqual([{ severity: 'warning', title: 'an image (image/bmp) was left out', description: 'Models take PNG, JPEG, GIF and WebP images. Send it as one of those.' }]);
    const sent = sentParts(fake, 0);
    expect(sent.slice(0, 3)).toEqual([
      { type: 'text', text: 'what icon is this?' },
      { type: 'text', text: `Attached image (image/svg+xml), as its SVG source:\n\`\`\`\n${svg}\n\`\`\`` },
      { type: 'text', text: '[The user attached an image (image/bmp). Models are sent PNG, JPEG, GIF and WebP images only, so it was left out.]' },
    ]);
    expect(sent[3]).toMatchObject({ type: 'image_url' });
    expect(sent).toHaveLength(4);
  });

  it('answers without the image when the model refuses images, and leaves images out from then on', async () => {
    const logged: string[] = [];
    const { fake, server, client, chatId } = await setup({
      log: (level, message) => logged.push(`${level}: ${message}`),
      replies: [{ steps: [{ text: 'I cannot see it.' }] }, { steps: [{ text: 'Still blind.' }] }],
    });
    fake.refuseMedia = { message: 'this model is missing data required for image input' };
    const first = await askWith(server, client, chatId, 'what is wrong here?', [{ type: 'image', image: PNG, mimeType: 'image/png' }]);
    expect(first.status).toBe('done');
    expect(textOf(first)).toBe('I cannot see it.');
    expect(first.notices).toEqual([{ severity: 'warning', title: 'This model does not take images', description: 'It answered without the image.' }]);
    expect(fake.requests).toHaveLength(2);
    expect(sentParts(fake, 0).map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(sentParts(fake, 1)).toEqual([
      { type: 'text', text: 'what is wrong here?' },
      { type: 'text', text: '[The user attached an image (image/png). You cannot see images, so it was left out.]' },
    ]);
    expect(logged).toEqual([expect.stringMatching(/^warn: The model refused a message's images or PDFs \(.*missing data required for image input.*\); they are left out from now on/)]);

    // The next image is left out without asking first, and the reply says so again.
    const second = await askWith(server, client, chatId, 'and this one?', [{ type: 'image', image: PNG, mimeType: 'image/png' }]);
    expect(textOf(second)).toBe('Still blind.');
    expect(second.notices).toEqual(first.notices);
    expect(fake.requests).toHaveLength(3);
    expect(sentParts(fake, 2).map((p) => p.type)).toEqual(['text', 'text']);
    expect(logged).toHaveLength(1);
  });

  it('answers without a kind of file the provider cannot send, and still sends images after', async () => {
    const { fake, server, client, chatId } = await setup({ replies: [{ steps: [{ text: 'No audio here.' }] }, { steps: [{ text: 'A picture.' }] }] });
    const first = await askWith(server, client, chatId, 'listen', [{ type: 'file', data: url('audio/webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x00])), mimeType: 'audio/webm', filename: 'note.webm' }]);
    expect(first.status).toBe('done');
    expect(textOf(first)).toBe('No audio here.');
    expect(first.notices).toEqual([{ severity: 'warning', title: 'note.webm (audio/webm) could not be sent to this model', description: 'It answered without it.' }]);
    // The provider refused it before sending: the model server saw one request, without it.
    expect(fake.requests).toHaveLength(1);
    expect(sentParts(fake, 0).map((p) => p.text)).toEqual(['listen', '[The user attached "note.webm" (audio/webm). You cannot read this kind of file, so it was left out.]']);

    await askWith(server, client, chatId, 'look', [{ type: 'image', image: PNG, mimeType: 'image/png' }]);
    expect(sentParts(fake, 1).map((p) => p.type)).toEqual(['text', 'image_url']);
  });

  it('answers without an image of a kind the server refuses (a GIF to Ollama), and still sends PNGs after', async () => {
    const GIF = url('image/gif', 'GIF89a');
    const { fake, server, client, chatId } = await setup({ replies: [{ steps: [{ text: 'No GIF.' }] }, { steps: [{ text: 'A PNG.' }] }] });
    fake.refuseMedia = { message: 'invalid image input', status: 400, only: /image\/gif/ };
    const first = await askWith(server, client, chatId, 'what is this?', [{ type: 'image', image: GIF, mimeType: 'image/gif' }]);
    expect(first.status).toBe('done');
    expect(textOf(first)).toBe('No GIF.');
    expect(first.notices).toEqual([{ severity: 'warning', title: 'an image (image/gif) could not be sent to this model', description: 'It answered without it.' }]);
    expect(fake.requests).toHaveLength(2);
    await askWith(server, client, chatId, 'and this?', [{ type: 'image', image: PNG, mimeType: 'image/png' }]);
    expect(sentParts(fake, 2).map((p) => p.type)).toEqual(['text', 'image_url']);
  });

  it('still fails a reply refused for images when it had none to leave out', async () => {
    const { fake, server, client, chatId } = await setup({ replies: [{ status: 500, error: { message: 'this model is missing data required for image input' } }] });
    const reply = await ask(server, client, chatId, 'hello');
    expect(reply.status).toBe('failed');
    expect(reply.error).toContain('missing data required for image input');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('the prompt', () => {
  it("labels other agents' turns with their id, keeps its own as assistant turns, and bounds the history", async () => {
    const { fake, server, client, chatId } = await setup({ historyMessages: 6, replies: [{ steps: [{ text: 'first answer' }] }] });
    await ask(server, client, chatId, 'question one');
    for (let i = 0; i < 4; i++) await ask(server, client, chatId, `to echo ${i}`, 'test/echo');
    await ask(server, client, chatId, 'question two');
    const messages = fake.requests.at(-1)!.body.messages.filter((m) => m.role !== 'system');
    expect(messages).toHaveLength(6);
    expect(messages.at(-1)).toMatchObject({ role: 'user' });
    expect(messages.filter((m) => m.role === 'assistant')).toEqual([]);
    expect(messages.some((m) => m.role === 'user' && JSON.stringify(m.content).includes('test/echo: echo: to echo 3'))).toBe(true);

    // Its own earlier turn is an assistant turn when it is inside the window.
    const { fake: fake2, server: server2, client: client2, chatId: chat2 } = await setup({ replies: [{ steps: [{ text: 'first answer' }] }] });
    await ask(server2, client2, chat2, 'one');
    await ask(server2, client2, chat2, 'two');
    expect(fake2.requests[1]!.body.messages.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('carries SESSION_CONTEXT only once there is a finished task, bounded', async () => {
    const { fake, server, client, chatId } = await setup({ memory: { entries: 2, summaryChars: 40 }, replies: [{ steps: [{ text: 'A long first answer that goes on and on and on and on and on.' }] }] });
    await ask(server, client, chatId, 'first task');
    expect(fake.systemOf(0)).not.toContain('SESSION_CONTEXT');
    await ask(server, client, chatId, 'second task');
    await ask(server, client, chatId, 'third task');
    await ask(server, client, chatId, 'fourth task');
    const system = fake.systemOf(3);
    const json = JSON.parse(/SESSION_CONTEXT[^:]*: (.*)$/m.exec(system)![1]!) as { task: string; summary: string; status: string; messageId: string }[];
    expect(json.map((e) => e.task)).toEqual(['second task', 'third task']);
    expect(json[0]!.summary.length).toBeLessThanOrEqual(40);
    expect(json[0]).toMatchObject({ status: 'done', agent: AGENT });
    expect(activeMessages(server.store.state).some((m: Message) => m.id === json[0]!.messageId)).toBe(true);
  });

  it('sends the model no empty user turn for an approval, and remembers a task paused for one as one task', async () => {
    const { fake, server, client, chatId } = await setup({
      tools: [{ name: 'deploy', description: 'Deploys', requiresApproval: true, execute: () => 'deployed' }],
      replies: [{ steps: [{ text: 'Deploying.' }, { toolCall: { id: 'call_d', name: 'deploy', args: ['{}'] } }] }, { steps: [{ text: 'Deployed to staging.' }] }, { steps: [{ text: 'It went fine.' }] }],
    });
    await client.ok('message.send', userMessage(chatId, 'deploy it', { agent: AGENT }));
    await client.ok('tool.approve', { chatId, toolCallId: await pendingApproval(server), approved: true });
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    expect(textOf(await ask(server, client, chatId, 'how did it go?'))).toBe('It went fine.');

    const deployed = activeMessages(server.store.state).find((m): m is AssistantMessage => m.role === 'assistant' && textOf(m) === 'Deployed to staging.')!;
    const users = fake.requests[2]!.body.messages.filter((m) => m.role === 'user');
    expect(users.map((m) => m.content)).toEqual(['deploy it', 'how did it go?']);
    // The reply went on in a second message after the approval; the model gets it as one turn.
    expect(fake.requests[2]!.body.messages.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const memory = JSON.parse(/SESSION_CONTEXT[^:]*: (.*)$/m.exec(fake.systemOf(2))![1]!) as { task: string; summary: string; status: string; messageId: string }[];
    expect(memory).toEqual([expect.objectContaining({ task: 'deploy it', summary: 'Deployed to staging.', status: 'done', agent: AGENT, messageId: deployed.id })]);
  });

  it('names each picked element with its components and where they are written, then its selector and text', async () => {
    const { fake, server, client, chatId } = await setup({ replies: [{ steps: [{ text: 'It is in Greeting.' }] }] });
    const rect = { x: 0, y: 0, width: 10, height: 10 };
    const components = [
      { name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 },
      { name: 'App', file: 'src/App.tsx', line: 12, column: 5 },
    ];
    const selectedElements = [
      { tagName: 'button', xpath: '/html/body/main/button', selector: '#greet', attributes: { id: 'greet' }, textContent: 'Say hi', boundingClientRect: rect, components },
      { tagName: 'td', xpath: '/html/body/table/tr/td', attributes: {}, textContent: '', boundingClientRect: rect },
    ];
    await client.ok('message.send', userMessage(chatId, 'where is this written?', { agent: AGENT, metadata: { source: 'toolbar', selectedElements } }));
    await waitUntil(() => server.store.state.run === null && lastReply(server)?.status === 'done', 'the reply', 10_000);
    const content = fake.requests[0]!.body.messages.at(-1)!.content as { type: string; text: string }[];
    expect(content.map((p) => p.text)).toEqual([
      'where is this written?',
      'Selected element: <button#greet> in Greeting (src/Greeting.tsx:4:7) in App (src/App.tsx:12:5) — #greet "Say hi"\nSelected element: <td> — /html/body/table/tr/td',
    ]);
  });
});

describe('skills', () => {
  async function skillsDir(): Promise<string> {
    const dir = path.join(await h.tmpDir(), 'skills');
    await mkdir(path.join(dir, 'review'), { recursive: true });
    await writeFile(path.join(dir, 'review', 'SKILL.md'), '---\nname: review\ndescription: Reviews code changes\ntools: [lint]\n---\nREVIEW-PROMPT: check naming and tests.\n');
    await mkdir(path.join(dir, 'broken'), { recursive: true });
    await writeFile(path.join(dir, 'broken', 'SKILL.md'), 'no front matter here');
    return dir;
  }

  it('activates a skill only after the user approves, then adds its prompt and its tools', async () => {
    const dir = await skillsDir();
    const logs: string[] = [];
    const { fake, server, client, chatId } = await setup({
      skills: { dir },
      log: (_level, message) => logs.push(message),
      tools: [{ name: 'lint', description: 'Lints', execute: () => 'clean' }],
      replies: [{ steps: [{ toolCall: { id: 'call_s', name: 'activate_skill', args: ['{"name":"review"}'] } }] }, { steps: [{ text: 'Reviewing now.' }] }],
    });
    await client.ok('message.send', userMessage(chatId, 'review my change', { agent: AGENT }));
    const approval = await pendingApproval(server);
    expect(toolCalls(server)[0]).toMatchObject({ toolName: 'activate_skill', input: { name: 'review' }, requiresApproval: true });
    // A skill changes the system prompt: switching one on asks every time, with no "always".
    expect(toolCalls(server)[0]!.alwaysOffered).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    expect(fake.systemOf(0)).toContain('- review: Reviews code changes');
    expect(fake.systemOf(0)).not.toContain('REVIEW-PROMPT');
    expect(fake.requests[0]!.body.tools!.map((t) => t.function.name)).not.toContain('lint');
    await client.ok('tool.approve', { chatId, toolCallId: approval, approved: true });
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    expect(fake.systemOf(1)).toContain('Active skill: review\nREVIEW-PROMPT: check naming and tests.');
    expect(fake.requests[1]!.body.tools!.map((t) => t.function.name)).toContain('lint');
    expect(server.store.state.agents.find((a) => a.id === AGENT)!.activeSkill).toBe('review');
    expect(logs.some((l) => l.includes(path.join(dir, 'broken', 'SKILL.md')) && l.includes('no front matter'))).toBe(true);
  });

  it('keeps the active skill for the agent across a restart', async () => {
    const dir = await skillsDir();
    const dataDir = await h.tmpDir();
    const fake = await FakeOpenAi.start();
    fakes.push(fake);
    fake.queue({ steps: [{ toolCall: { id: 'call_s', name: 'activate_skill', args: ['{"name":"review"}'] } }] }, { steps: [{ text: 'On.' }] });
    const make = () => createModelAgent({ id: AGENT, description: 'A model', model: createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl })('m'), maxRetries: 0, skills: { dir }, log: () => {} });
    const first = await h.start({ agents: [make()], dataDir });
    const client = await h.connect(first);
    const { chatId } = await client.ok('chat.create', { agent: AGENT });
    await client.ok('message.send', userMessage(chatId, 'review', { agent: AGENT }));
    await client.ok('tool.approve', { chatId, toolCallId: await pendingApproval(first), approved: true });
    await waitUntil(() => first.store.state.run === null, 'the end of the run');
    await client.terminate();
    await first.close();

    const second = await h.start({ agents: [make()], dataDir });
    expect(second.store.state.agents.find((a) => a.id === AGENT)!.activeSkill).toBe('review');
    const again = await h.connect(second);
    await ask(second, again, chatId, 'and now?');
    expect(fake.systemOf(2)).toContain('Active skill: review');
  });

  it('keeps the skill off when the user rejects it', async () => {
    const dir = await skillsDir();
    const { fake, server, client, chatId } = await setup({
      skills: { dir },
      replies: [{ steps: [{ toolCall: { id: 'call_s', name: 'activate_skill', args: ['{"name":"review"}'] } }] }, { steps: [{ text: 'OK.' }] }],
    });
    await client.ok('message.send', userMessage(chatId, 'review', { agent: AGENT }));
    await client.ok('tool.approve', { chatId, toolCallId: await pendingApproval(server), approved: false, reason: 'not now' });
    await waitUntil(() => server.store.state.run === null, 'the end of the run');
    expect(fake.systemOf(1)).not.toContain('REVIEW-PROMPT');
    expect(server.store.state.agents.find((a) => a.id === AGENT)!.activeSkill ?? null).toBeNull();
  });

  it('reads the skills again before each run with reloadEachTask', async () => {
    const dir = await skillsDir();
    const { fake, server, client, chatId } = await setup({ skills: { dir, reloadEachTask: true } });
    await ask(server, client, chatId, 'one');
    await writeFile(path.join(dir, 'review', 'SKILL.md'), '---\nname: review\ndescription: Reviews, edited live\n---\nNew prompt.\n');
    await ask(server, client, chatId, 'two');
    expect(fake.systemOf(0)).toContain('Reviews code changes');
    expect(fake.systemOf(1)).toContain('Reviews, edited live');
    await rm(dir, { recursive: true, force: true });
  });
});
