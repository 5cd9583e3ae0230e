/**
 * `agentbar serve --model NAME --base-url URL` as a user runs it: the real CLI in a child process,
 * a real local chat-completions server, a wire client. The key stays in the environment.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInfo } from '../../shared/schemas.ts';
import { FakeOpenAi } from '../../test-support/fake-openai.ts';
import { isProcessAlive, killSpawnedServers, spawnServer } from '../../test-support/spawn-server.ts';
import { TestClient, userMessage } from '../../test-support/test-client.ts';
import { textOf, useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();
const KEY = 'sk-secret-value-0123456789';
let fake: FakeOpenAi | null = null;
const clients: TestClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.terminate()));
  for (const pid of await killSpawnedServers()) expect(isProcessAlive(pid)).toBe(false);
  await fake?.close();
  fake = null;
});

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

describe('agentbar serve --model', () => {
  it('serves a model agent beside the demo agents, listed by GET /agents, and never shows the key', async () => {
    fake = await FakeOpenAi.start();
    fake.queue({ steps: [{ text: 'Hello from ' }, { text: 'the model.' }] });
    const dataDir = await h.tmpDir();
    const server = await spawnServer(dataDir, {
      args: ['--port', '0', '--model', 'fake-model:7b', '--base-url', fake.baseUrl, '--system', 'You are the CLI model.'],
      env: { OPENAI_API_KEY: KEY },
    });
    const agents = (await (await fetch(`${server.httpUrl}/agents`, { headers: { Authorization: `Bearer ${server.token}` } })).json()) as AgentInfo[];
    const model = agents.find((a) => a.id === 'model/fake-model-7b');
    expect(model).toMatchObject({ implemented: true, description: `fake-model:7b at ${fake.baseUrl}` });
    expect(model!.tools.map((t) => t.name)).toEqual(['activate_skill', 'deactivate_skill', 'search_knowledge', 'read_note', 'add_note']);
    expect(agents.map((a) => a.id)).toContain('demo/guide');

    const client = await TestClient.connect(server);
    clients.push(client);
    const { chatId } = await client.ok('chat.create', { agent: 'model/fake-model-7b' });
    await client.ok('message.send', userMessage(chatId, 'hi', { agent: 'model/fake-model-7b' }));
    await waitUntil(() => client.state?.active?.messages.at(-1)?.role === 'assistant' && client.state.run === null, 'the reply', 10_000);
    expect(textOf(client.state!.active!.messages.at(-1))).toBe('Hello from the model.');
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.systemOf(0)).toMatch(/^You are the CLI model\./);

    await waitUntil(() => server.stdout.includes('Model agent:'), 'the banner');
    await waitUntil(() => server.stderr.includes('[agentbar model/fake-model-7b] info: fake-model:7b is available at'), 'the endpoint check');
    expect(server.stdout).toContain(`model/fake-model-7b → fake-model:7b at ${fake.baseUrl} (key from $OPENAI_API_KEY`);
    expect(server.stdout + server.stderr).not.toContain(KEY);
    for (const file of await filesUnder(dataDir)) {
      // A temp file may be renamed away while the walk reads: what it held is in its target.
      const text = await readFile(file, 'utf8').catch(() => '');
      expect(text, file).not.toContain(KEY);
    }
  }, 30_000);

  it('starts anyway when the model server is not running, and says so in the terminal', async () => {
    fake = await FakeOpenAi.start();
    const baseUrl = fake.baseUrl;
    await fake.close(); // nothing listens on its port now
    fake = null;
    const dataDir = await h.tmpDir();
    const server = await spawnServer(dataDir, { args: ['--port', '0', '--model', 'llama3.2', '--base-url', baseUrl] });
    await waitUntil(() => server.stderr.includes('Cannot reach the model server'), 'the endpoint check');
    expect(server.stderr).toContain(`[agentbar model/llama3.2] warn: Cannot reach the model server at ${baseUrl}: the connection was refused (is the model server running? For Ollama: ollama serve).`);
    const health = await fetch(`${server.httpUrl}/health`);
    expect(health.status).toBe(200);
  }, 30_000);

  it('offers more --model flags in a Model menu, answers with the one a chat picks, and warns of one the server does not list', async () => {
    fake = await FakeOpenAi.start();
    fake.models = ['fake-model:7b', 'coder:14b'];
    fake.queue({ steps: [{ text: 'from the coder' }] });
    const dataDir = await h.tmpDir();
    const server = await spawnServer(dataDir, { args: ['--port', '0', '--model', 'fake-model:7b', '--base-url', fake.baseUrl, '--model', 'coder:14b', '--model', 'gone:1b'] });
    await waitUntil(() => server.stderr.includes('does not list gone:1b'), 'the endpoint check');
    expect(server.stderr).not.toContain('does not list coder:14b');
    expect(server.stdout).toContain(`model/fake-model-7b → fake-model:7b (also coder:14b, gone:1b, in its Model menu) at ${fake.baseUrl}`);
    const client = await TestClient.connect(server);
    clients.push(client);
    const agent = client.state!.agents.find((a) => a.id === 'model/fake-model-7b')!;
    expect(agent.settings![0]).toMatchObject({ id: 'model', defaultValue: 'fake-model:7b', options: [{ value: 'fake-model:7b' }, { value: 'coder:14b' }, { value: 'gone:1b' }] });
    const { chatId } = await client.ok('chat.create', { agent: 'model/fake-model-7b' });
    await client.ok('setting.set', { chatId, setting: 'model', value: 'coder:14b' });
    await client.ok('message.send', userMessage(chatId, 'hi', { agent: 'model/fake-model-7b' }));
    await waitUntil(() => client.state?.active?.messages.at(-1)?.role === 'assistant' && client.state.run === null, 'the reply', 10_000);
    expect(textOf(client.state!.active!.messages.at(-1))).toBe('from the coder');
    expect(fake.requests.find((r) => r.body.messages)!.body.model).toBe('coder:14b');
  }, 30_000);

  it('shows how full the context is with --context-window (and the cost with --price), asking the model server for token counts only then', async () => {
    fake = await FakeOpenAi.start();
    fake.queue({ steps: [{ text: 'counted' }], usage: { prompt_tokens: 6000, completion_tokens: 144 } }, { steps: [{ text: 'plain' }] });
    const server = await spawnServer(await h.tmpDir(), { args: ['--port', '0', '--model', 'fake-model:7b', '--base-url', fake.baseUrl, '--context-window', '8192', '--price', '2.50/10'] });
    const client = await TestClient.connect(server);
    clients.push(client);
    const { chatId } = await client.ok('chat.create', { agent: 'model/fake-model-7b' });
    await client.ok('message.send', userMessage(chatId, 'hi', { agent: 'model/fake-model-7b' }));
    await waitUntil(() => client.state?.chats[chatId]?.usage !== undefined && client.state.run === null, 'the reply and its usage', 10_000);
    // (6000 × $2.50 + 144 × $10) per million tokens.
    expect(client.state!.chats[chatId]!.usage).toEqual({ 'model/fake-model-7b': { used: 6144, size: 8192, cost: { amount: 0.01644, currency: 'USD' } } });
    expect(fake.requests.find((r) => r.body.messages)!.body.stream_options).toEqual({ include_usage: true });
    await waitUntil(() => server.stdout.includes('Model agent:'), 'the banner');
    expect(server.stdout).toContain('; context window 8,192 tokens; $2.50 in, $10.00 out per million tokens)');

    // Without the flag the request is as before: a server that does not know stream_options is never sent it.
    const plain = await spawnServer(await h.tmpDir(), { args: ['--port', '0', '--model', 'fake-model:7b', '--base-url', fake.baseUrl] });
    const other = await TestClient.connect(plain);
    clients.push(other);
    const { chatId: second } = await other.ok('chat.create', { agent: 'model/fake-model-7b' });
    await other.ok('message.send', userMessage(second, 'hi', { agent: 'model/fake-model-7b' }));
    await waitUntil(() => other.state?.active?.messages.at(-1)?.role === 'assistant' && other.state.run === null, 'the reply', 10_000);
    expect(textOf(other.state!.active!.messages.at(-1))).toBe('plain');
    expect(fake.requests.filter((r) => r.body.messages).at(-1)!.body.stream_options).toBeUndefined();
    expect(other.state!.chats[second]!.usage).toBeUndefined();
  }, 30_000);

  it('explains a missing --base-url', async () => {
    const dataDir = await h.tmpDir();
    await expect(spawnServer(dataDir, { args: ['--port', '0', '--model', 'm'], readyTimeoutMs: 5_000 })).rejects.toThrow(/--model needs --base-url/);
  }, 30_000);
});
