/**
 * `agentbar serve --model …` with what DATA_DIR holds, as a user runs it: the real CLI in a child
 * process, the local chat-completions stand-in, a wire client. The default skills folder, skills
 * read once per session, `--skills-dir`, personas (edited while it runs), `--persona`, `--max-turns`,
 * `agents --soul` and `/soul`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInfo } from '../../shared/schemas.ts';
import { FakeOpenAi } from '../../test-support/fake-openai.ts';
import { isProcessAlive, killSpawnedServers, runCli, spawnServer, type SpawnedServer } from '../../test-support/spawn-server.ts';
import { TestClient, userMessage } from '../../test-support/test-client.ts';
import { textOf, useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();
/** What a test started, stopped after it: clients first, then the servers, then the stand-ins. */
const started = { clients: [] as TestClient[], fakes: [] as FakeOpenAi[] };

afterEach(async () => {
  for (const c of started.clients.splice(0)) await c.terminate();
  const pids = await killSpawnedServers();
  expect(pids.filter(isProcessAlive)).toEqual([]);
  for (const f of started.fakes.splice(0)) await f.close();
});

async function startFake(): Promise<FakeOpenAi> {
  const fake = await FakeOpenAi.start();
  started.fakes.push(fake);
  return fake;
}

async function connect(server: SpawnedServer): Promise<TestClient> {
  const client = await TestClient.connect(server);
  started.clients.push(client);
  return client;
}

async function writeSkill(dir: string, name: string, description: string): Promise<void> {
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nPrompt of ${name}.\n`);
}

async function writePersona(dataDir: string): Promise<void> {
  await mkdir(path.join(dataDir, 'agents'), { recursive: true });
  await writeFile(path.join(dataDir, 'agents', 'reviewer.md'), '---\ndescription: A strict reviewer\n---\nYou are Rev.\n');
}

async function listAgents(server: SpawnedServer): Promise<AgentInfo[]> {
  return (await (await fetch(`${server.httpUrl}/agents`, { headers: { Authorization: `Bearer ${server.token}` } })).json()) as AgentInfo[];
}

/** Sends `text` to `agent` in a new chat and waits for the end of its reply. */
async function chatOnce(client: TestClient, agent: string, text: string) {
  const { chatId } = await client.ok('chat.create', { agent });
  await client.ok('message.send', userMessage(chatId, text, { agent }));
  const last = () => {
    const active = client.state?.active;
    return active && active.chatId === chatId ? active.messages.at(-1) : undefined;
  };
  await waitUntil(() => last()?.role === 'assistant' && client.state?.run === null, 'the reply', 10_000);
  return last()!;
}

describe('agentbar serve --model with a data folder', () => {
  it('reads DATA_DIR/skills by default, once per session, and serves each DATA_DIR/agents persona', async () => {
    const fake = await startFake();
    const dataDir = await h.tmpDir();
    await writeSkill(path.join(dataDir, 'skills'), 'review', 'Reviews code');
    await writePersona(dataDir);
    const server = await spawnServer(dataDir, { args: ['--port', '0', '--model', 'fake-model:7b', '--base-url', fake.baseUrl] });
    const agents = await listAgents(server);
    expect(agents.map((a) => a.id).slice(0, 2)).toEqual(['model/fake-model-7b', 'persona/reviewer']);
    expect(agents[1]).toMatchObject({ description: 'A strict reviewer', implemented: true });
    const client = await connect(server);
    await chatOnce(client, 'model/fake-model-7b', 'one');
    await writeSkill(path.join(dataDir, 'skills'), 'review', 'Edited while it runs');
    await chatOnce(client, 'model/fake-model-7b', 'two');
    expect(fake.systemOf(0)).toContain('- review: Reviews code');
    expect(fake.systemOf(1)).toContain('- review: Reviews code');
    await chatOnce(client, 'persona/reviewer', 'three');
    expect(fake.systemOf(2)).toMatch(/^You are Rev\.\n\nSkills you can ask/);
    expect(server.stdout).toContain(`skills in ${path.join(dataDir, 'skills')}`);
  }, 30_000);

  it('takes --skills-dir through to the agent, --persona in its place, and --max-turns as its step bound', async () => {
    const fake = await startFake();
    fake.queue({ steps: [{ toolCall: { id: 'c1', name: 'deactivate_skill', args: ['{}'] } }] });
    const dataDir = await h.tmpDir();
    const skillsDir = path.join(await h.tmpDir(), 'elsewhere');
    await writeSkill(skillsDir, 'lint', 'Lints from elsewhere');
    await writeSkill(path.join(dataDir, 'skills'), 'review', 'Not this folder');
    await writePersona(dataDir);
    const server = await spawnServer(dataDir, { args: ['--port', '0', '--model', 'fake-model:7b', '--base-url', fake.baseUrl, '--skills-dir', skillsDir, '--persona', 'reviewer', '--max-turns', '1'] });
    expect((await listAgents(server)).map((a) => a.id)).not.toContain('model/fake-model-7b');
    const client = await connect(server);
    const reply = await chatOnce(client, 'persona/reviewer', 'lint it');
    expect(fake.systemOf(0)).toBe('You are Rev.\n\nSkills you can ask the user to switch on with activate_skill (one at a time):\n- lint: Lints from elsewhere');
    expect(fake.requests).toHaveLength(1);
    expect(reply.role === 'assistant' && reply.notices?.map((n) => n.title)).toEqual(['Stopped after 1 model steps']);
    expect(textOf(reply)).toBe('');
  }, 30_000);

  it('offers /soul in agentbar chat, and reads an edited persona before its next reply; a new persona file is logged', async () => {
    const fake = await startFake();
    const dataDir = await h.tmpDir();
    await writePersona(dataDir);
    const server = await spawnServer(dataDir, { args: ['--port', '0', '--model', 'fake-model:7b', '--base-url', fake.baseUrl] });
    const soul = { name: 'soul', description: 'Show this agent\'s soul (what it keeps across sessions); "set <text>" replaces it, "clear" empties it', hint: 'set <text> | clear' };
    expect((await listAgents(server)).slice(0, 2).map((a) => a.commands)).toEqual([[soul], [soul]]);
    const chat = runCli(['chat', '-a', 'persona/reviewer', '-m', '/soul set - Likes tabs.', '--data-dir', dataDir]);
    expect((await chat.exited).code).toBe(0);
    expect(chat.stdout).toContain(path.join(dataDir, 'souls', 'persona', 'reviewer.md'));
    expect(chat.stdout).toContain('- Likes tabs.');
    expect(fake.requests).toHaveLength(0);
    await writeFile(path.join(dataDir, 'agents', 'reviewer.md'), '---\ndescription: A strict reviewer\n---\nYou are Rev, edited.\n');
    await writeFile(path.join(dataDir, 'agents', 'tester.md'), '---\ndescription: Writes tests\n---\nYou are Tess.\n');
    const client = await connect(server);
    await chatOnce(client, 'persona/reviewer', 'review');
    expect(fake.systemOf(0)).toBe('You are Rev, edited.\n\nSOUL (who you are and what you have learned in earlier sessions):\n- Likes tabs.');
    const added = `[agentbar model/fake-model-7b] warn: New persona file ${path.join(dataDir, 'agents', 'tester.md')}: it is served after a restart`;
    await waitUntil(() => server.stderr.includes(added), 'the log line');
  }, 30_000);

  it('refuses a --persona that is not there, naming the file', async () => {
    const dataDir = await h.tmpDir();
    await expect(spawnServer(dataDir, { args: ['--port', '0', '--model', 'm', '--base-url', 'http://127.0.0.1:9/v1', '--persona', 'nobody'], readyTimeoutMs: 5_000 })).rejects.toThrow(
      `--persona nobody: no ${path.join(dataDir, 'agents', 'nobody.md')}`,
    );
  }, 30_000);

  it('prints a soul with agentbar agents --soul, without a server', async () => {
    const dataDir = await h.tmpDir();
    await mkdir(path.join(dataDir, 'souls', 'persona'), { recursive: true });
    await writeFile(path.join(dataDir, 'souls', 'persona', 'reviewer.md'), '- Prefers small diffs.\n');
    const cli = runCli(['agents', '--data-dir', dataDir, '--soul', 'persona/reviewer']);
    expect((await cli.exited).code).toBe(0);
    expect(cli.stdout).toBe(`Soul of persona/reviewer (${path.join(dataDir, 'souls', 'persona', 'reviewer.md')}; edit that file to change it, it is read before every reply):\n- Prefers small diffs.\n`);
  }, 30_000);
});
