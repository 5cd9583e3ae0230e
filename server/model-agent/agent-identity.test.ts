/**
 * Personas, knowledge notes, souls and skill context, end to end: the real provider talks to the
 * local chat-completions stand-in (test-support/fake-openai.ts) through a real agentbar server,
 * and each test asserts on the exact system prompt and tool set the model receives.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAi, type FakeReply } from '../../test-support/fake-openai.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { activeMessages, textOf, toolCallsOf, useHarness, waitUntil, type TestServer } from '../../test-support/test-server.ts';
import { createModelAgent, type ModelAgentOptions } from './create-model-agent.ts';
import { loadPersonas } from './personas.ts';

const h = useHarness();
const fakes: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const DEFAULT_SYSTEM = 'You are test/agent, an assistant that talks with a developer through a toolbar on the web page they are working on.';

/** A server with one model agent on a fresh stand-in, and a chat with it. */
async function serve(options: Partial<ModelAgentOptions>, replies: FakeReply[] = []) {
  const fake = await FakeOpenAi.start();
  fakes.push(fake);
  fake.queue(...replies);
  const model = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl })('fake-model');
  const agent = createModelAgent({ id: 'test/agent', description: 'A model', model, maxRetries: 0, log: () => {}, ...options });
  const server = await h.start({ agents: [agent], memory: true });
  const client = await h.connect(server, { kind: 'toolbar' });
  const { chatId } = await client.ok('chat.create', { agent: agent.id });
  return { fake, server, client, chatId, agentId: agent.id };
}

/** Sends `text` and answers each approval with `approve` until the run ends. */
async function send(server: TestServer, client: TestClient, chatId: string, text: string, approve: boolean[] = []): Promise<void> {
  const agent = server.store.state.chats[chatId]?.agent ?? 'test/agent';
  await client.ok('message.send', userMessage(chatId, text, { agent }));
  for (const approved of approve) {
    await waitUntil(() => toolCallsOf(server.store.state).some((p) => p.state === 'awaiting-approval'), 'an approval');
    const call = toolCallsOf(server.store.state).find((p) => p.state === 'awaiting-approval')!;
    await client.ok('tool.approve', { chatId, toolCallId: call.toolCallId, approved, ...(approved ? {} : { reason: 'no' }) });
  }
  await waitUntil(() => server.store.state.run === null, 'the end of the run', 10_000);
}

/** The results of the chat's tool calls, in order. */
function toolResults(server: TestServer): { output: unknown; isError: boolean }[] {
  return activeMessages(server.store.state).flatMap((m) => (m.role === 'user' ? [] : m.content.flatMap((p) => (p.type === 'tool-result' ? [{ output: p.output, isError: p.isError ?? false }] : []))));
}

const toolNames = (fake: FakeOpenAi, i: number) => fake.requests[i]!.body.tools?.map((t) => t.function.name);
const call = (id: string, name: string, input: unknown): FakeReply => ({ steps: [{ toolCall: { id, name, args: [JSON.stringify(input)] } }] });

async function writeSkill(dir: string, name: string, frontMatter: string, prompt: string): Promise<void> {
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, 'SKILL.md'), `---\nname: ${name}\n${frontMatter}\n---\n${prompt}\n`);
}

/** The skills `review` and `deploy` in `<root>/skills`. */
async function writeReviewAndDeploy(root: string): Promise<string> {
  const skills = path.join(root, 'skills');
  await writeSkill(skills, 'review', 'description: Reviews code', 'Review.');
  await writeSkill(skills, 'deploy', 'description: Deploys', 'Deploy.');
  return skills;
}

describe('personas', () => {
  it('serves DATA_DIR/agents/<name>.md as persona/<name>: its prompt, its personality as the soul seed, only its skills', async () => {
    const root = await h.tmpDir();
    const skills = await writeReviewAndDeploy(root);
    await mkdir(path.join(root, 'agents'));
    await writeFile(path.join(root, 'agents', 'reviewer.md'), '---\ndescription: A strict reviewer\nskills: [review]\npersonality: Dry humour, short sentences.\n---\nYou are Rev, a strict code reviewer.\n');
    await writeFile(path.join(root, 'agents', 'broken.md'), 'no front matter');
    const { personas, errors } = await loadPersonas(path.join(root, 'agents'));
    expect(errors).toEqual([`${path.join(root, 'agents', 'broken.md')}: no front matter: the file must start with a line "---", then YAML, then "---"`]);
    const persona = personas[0]!;
    const { fake, server, client, chatId } = await serve({ id: persona.id, description: persona.description, persona, skills: { dir: skills } });
    expect(server.store.state.agents[0]).toMatchObject({ id: 'persona/reviewer', description: 'A strict reviewer' });
    await send(server, client, chatId, 'hi');
    expect(fake.systemOf(0)).toBe(
      'You are Rev, a strict code reviewer.\n\n' +
        'SOUL (who you are and what you have learned in earlier sessions):\nDry humour, short sentences.\n\n' +
        'Skills you can ask the user to switch on with activate_skill (one at a time):\n- review: Reviews code',
    );
  });
});

describe('persona files edited while the server runs', () => {
  it('reads an edited persona before its next reply: prompt, skills and personality; a broken edit keeps the last version, reported with the path', async () => {
    const root = await h.tmpDir();
    const skills = await writeReviewAndDeploy(root);
    const file = path.join(root, 'agents', 'reviewer.md');
    await mkdir(path.dirname(file));
    await writeFile(file, '---\ndescription: A strict reviewer\nskills: [review]\n---\nYou are Rev.\n');
    const persona = (await loadPersonas(path.dirname(file))).personas[0]!;
    const logged: string[] = [];
    const { fake, server, client, chatId } = await serve({ id: persona.id, description: persona.description, persona, skills: { dir: skills }, log: (level, message) => logged.push(`${level}: ${message}`) });
    await send(server, client, chatId, 'one');
    expect(fake.systemOf(0)).toBe('You are Rev.\n\nSkills you can ask the user to switch on with activate_skill (one at a time):\n- review: Reviews code');
    await writeFile(file, '---\ndescription: A kind reviewer\nskills: [deploy]\npersonality: Warm.\n---\nYou are Kind Rev, who reviews gently.\n');
    await send(server, client, chatId, 'two');
    const system = fake.systemOf(1);
    expect(system.slice(0, system.indexOf('\n\nSESSION_CONTEXT'))).toBe(
      'You are Kind Rev, who reviews gently.\n\nSOUL (who you are and what you have learned in earlier sessions):\nWarm.\n\n' +
        'Skills you can ask the user to switch on with activate_skill (one at a time):\n- deploy: Deploys',
    );
    expect(logged).toContain(`info: Persona reloaded: ${file}`);
    await writeFile(file, 'no front matter any more');
    await send(server, client, chatId, 'three');
    await send(server, client, chatId, 'four');
    expect(fake.systemOf(3)).toMatch(/^You are Kind Rev, who reviews gently\.\n\nSOUL/);
    expect(logged.filter((l) => l.startsWith('error:'))).toEqual([`error: Persona not reloaded: ${file}: no front matter: the file must start with a line "---", then YAML, then "---"; it keeps its last version`]);
  });
});

describe('/soul', () => {
  it('shows, replaces (bounded) and clears the soul without the model, and the next reply\'s prompt has it', async () => {
    const souls = path.join(await h.tmpDir(), 'souls');
    const file = path.join(souls, 'test', 'agent.md');
    const { fake, server, client, chatId } = await serve({ soul: { dir: souls, maxChars: 40 } });
    expect(server.store.state.agents[0]!.commands).toEqual([{ name: 'soul', description: 'Show this agent\'s soul (what it keeps across sessions); "set <text>" replaces it, "clear" empties it', hint: 'set <text> | clear' }]);
    const usage = '`/soul` shows it, `/soul set <text>` replaces it, `/soul clear` empties it.';
    const where = `\`${file}\`, read before every reply, at most 40 characters`;
    const lastText = () => textOf(activeMessages(server.store.state).at(-1));

    await send(server, client, chatId, '/soul');
    expect(lastText()).toBe(`\`test/agent\` has no soul yet (${where}). ${usage}`);
    await send(server, client, chatId, '/soul set - Prefers tabs.\n- Ships on Fridays, and writes long, careful notes.');
    expect(lastText()).toBe(`The soul of \`test/agent\` is now (\`${file}\`):\n\n- Prefers tabs.\n- Ships on Fridays, and…\n\nIt was cut to 40 characters (of 67): a soul holds no more.`);
    expect(await readFile(file, 'utf8')).toBe('- Prefers tabs.\n- Ships on Fridays, and…\n');
    await send(server, client, chatId, '/soul');
    expect(lastText()).toBe(`The soul of \`test/agent\` (${where}):\n\n- Prefers tabs.\n- Ships on Fridays, and…\n\n${usage}`);
    expect(fake.requests).toHaveLength(0);

    await send(server, client, chatId, 'hello');
    expect(fake.systemOf(0)).toContain('\n\nSOUL (who you are and what you have learned in earlier sessions):\n- Prefers tabs.\n- Ships on Fridays, and…\n\n');
    await send(server, client, chatId, '/soul clear');
    expect(lastText()).toBe(`The soul of \`test/agent\` is empty now (\`${file}\` removed).`);
    await send(server, client, chatId, '/soul forget');
    expect(lastText()).toBe(`\`/soul forget\` is not a soul command. ${usage}`);
    await send(server, client, chatId, 'again');
    expect(fake.requests).toHaveLength(2);
    expect(fake.systemOf(1)).not.toContain('SOUL');
  });

  it('waits for a recording under way, so the recording does not overwrite an edit', async () => {
    const souls = path.join(await h.tmpDir(), 'souls');
    const finish: ((soul: string) => void)[] = [];
    const { fake, server, client, chatId } = await serve({ soul: { dir: souls, record: () => new Promise<string>((resolve) => finish.push(resolve)) } });
    await send(server, client, chatId, 'tea');
    await waitUntil(() => finish.length === 1, 'the recording');
    await client.ok('message.send', userMessage(chatId, '/soul set - Mine.', { agent: 'test/agent' }));
    finish[0]!('- Recorded.');
    await waitUntil(() => server.store.state.run === null, 'the answer');
    await send(server, client, chatId, 'hello');
    expect(fake.systemOf(1)).toContain('SOUL (who you are and what you have learned in earlier sessions):\n- Mine.\n\n');
    expect(await readFile(path.join(souls, 'test', 'agent.md'), 'utf8')).toBe('- Mine.\n');
  });
});

describe('knowledge notes', () => {
  it('offers search_knowledge, read_note and add_note; ranks by tag and text; a #skill:<name> #prompt note is a skill', async () => {
    const notes = path.join(await h.tmpDir(), 'notes');
    await mkdir(notes);
    await writeFile(path.join(notes, 'deploy.md'), '# Deploying\nRun make deploy to staging first.\n#ops #staging\n');
    await writeFile(path.join(notes, 'oncall.md'), '# On call\nDeploy freezes on Fridays.\n#ops\n');
    await writeFile(path.join(notes, 'css.md'), '# CSS\nUse tokens.\n#frontend\n');
    await writeFile(path.join(notes, 'release.md'), '# Release checklist\n#skill:release #prompt\nTag, then write the changelog.\n');
    const { fake, server, client, chatId } = await serve({ notes: { dir: notes } }, [
      call('c1', 'search_knowledge', { query: 'deploy', tags: ['ops'] }),
      call('c2', 'read_note', { name: 'oncall' }),
      { steps: [{ text: 'Found it.' }] },
    ]);
    await send(server, client, chatId, 'how do we deploy?');
    expect(toolNames(fake, 0)).toEqual(['activate_skill', 'deactivate_skill', 'search_knowledge', 'read_note', 'add_note']);
    expect(fake.systemOf(0)).toBe(`${DEFAULT_SYSTEM}\n\nSkills you can ask the user to switch on with activate_skill (one at a time):\n- release: Release checklist`);
    const results = toolResults(server).map((r) => r.output);
    expect(results[0]).toEqual([
      { name: 'deploy', title: 'Deploying', tags: ['ops', 'staging'], score: 15, excerpt: '# Deploying Run make deploy to staging first. #ops #staging' },
      { name: 'oncall', title: 'On call', tags: ['ops'], score: 11, excerpt: '# On call Deploy freezes on Fridays. #ops' },
    ]);
    expect(results[1]).toBe('# On call\nDeploy freezes on Fridays.\n#ops\n');
  });

  it('asks before add_note, every time, and never replaces a note', async () => {
    const notes = path.join(await h.tmpDir(), 'notes');
    const { server, client, chatId } = await serve({ notes: { dir: notes } }, [
      call('c1', 'add_note', { name: 'ports', text: '# Ports\nThe API is on 8080.', tags: ['infra'] }),
      call('c2', 'add_note', { name: 'ports', text: 'Something else' }),
      { steps: [{ text: 'Saved.' }] },
    ]);
    await send(server, client, chatId, 'remember the port', [true, true]);
    const calls = toolCallsOf(server.store.state);
    expect(calls.map((p) => [p.toolName, p.requiresApproval, p.alwaysOffered ?? false])).toEqual([
      ['add_note', true, false],
      ['add_note', true, false],
    ]);
    expect(toolResults(server).map((r) => r.isError)).toEqual([false, true]);
    expect(toolResults(server)[1]!.output).toBe('A note named "ports" exists already; notes are never replaced: choose another name');
    expect(await readFile(path.join(notes, 'ports.md'), 'utf8')).toBe('# Ports\nThe API is on 8080.\n\n#infra\n');
  });
});

describe('souls', () => {
  it('records the soul after a finished task with the hook, and puts it and the tasks of other chats in every chat of that agent', async () => {
    const souls = path.join(await h.tmpDir(), 'souls');
    const seen: unknown[] = [];
    const { fake, server, client, chatId } = await serve(
      {
        soul: {
          dir: souls,
          record: (finished) => {
            seen.push(finished);
            return `- Likes ${finished.task}.`;
          },
        },
      },
      [{ steps: [{ text: 'Tea is ready.' }] }, { steps: [{ text: 'Hello again.' }] }],
    );
    await send(server, client, chatId, 'tea');
    await waitUntil(() => seen.length === 1, 'the soul hook');
    expect(seen[0]).toEqual({ agent: 'test/agent', chatId, task: 'tea', reply: 'Tea is ready.', soul: '' });
    const { chatId: other } = await client.ok('chat.create', { agent: 'test/agent' });
    await send(server, client, other, 'hello');
    const system = fake.systemOf(1);
    const memory = /^AGENT_MEMORY \(your recent tasks in other chats, oldest first\): (.*)$/m.exec(system)![1]!;
    expect(system).toBe(`${DEFAULT_SYSTEM}\n\nSOUL (who you are and what you have learned in earlier sessions):\n- Likes tea.\n\nAGENT_MEMORY (your recent tasks in other chats, oldest first): ${memory}`);
    expect(JSON.parse(memory)).toEqual([{ chatId, task: 'tea', status: 'done', summary: 'Tea is ready.', at: expect.any(Number) }]);
    expect(await readFile(path.join(souls, 'test', 'agent.md'), 'utf8')).toBe('- Likes tea.\n');
  });

  it('records the soul with one model call when asked to, bounded', async () => {
    const souls = path.join(await h.tmpDir(), 'souls');
    const { fake, server, client, chatId } = await serve({ soul: { dir: souls, record: true, maxChars: 20 } }, [
      { steps: [{ text: 'Done.' }] },
      { steps: [{ text: '- The user works on the checkout page.' }] },
    ]);
    await send(server, client, chatId, 'fix the checkout');
    await waitUntil(() => fake.requests.length === 2, 'the soul call');
    await waitUntil(() => textOf(activeMessages(server.store.state).at(-1)) === 'Done.', 'the reply');
    expect(fake.systemOf(1)).toMatch(/^You keep the soul of the agent test\/agent: /);
    expect(fake.requests[1]!.body.tools).toBeUndefined();
    await expect.poll(() => readFile(path.join(souls, 'test', 'agent.md'), 'utf8').catch(() => '')).toBe('- The user works on…\n');
  });
});

describe('skill context', () => {
  it('fetches the active skill\'s files and, once approved, its command into the prompt, bounded', async () => {
    const root = await h.tmpDir();
    const skills = path.join(root, 'skills');
    const work = path.join(root, 'work');
    await mkdir(path.join(work, 'src', 'a'), { recursive: true });
    await writeFile(path.join(work, 'package.json'), '{"name":"app"}');
    await writeFile(path.join(work, 'src', 'a', 'x.css'), 'a { color: red }');
    await writeFile(path.join(work, 'src', 'y.ts'), 'not css');
    await writeFile(path.join(work, 'big.css'), 'x'.repeat(5_000));
    await writeSkill(skills, 'style', 'description: Styles\ncontext:\n  files: [package.json, "**/*.css"]\n  command: echo checked', 'STYLE-PROMPT');
    const { fake, server, client, chatId } = await serve({ skills: { dir: skills }, workDir: work }, [call('c1', 'activate_skill', { name: 'style' }), { steps: [{ text: 'Styled.' }] }]);
    await send(server, client, chatId, 'style it', [true, true]);
    expect(toolCallsOf(server.store.state).map((p) => [p.toolName, p.input])).toEqual([
      ['activate_skill', { name: 'style' }],
      ['run_skill_command', { command: 'echo checked', skill: 'style' }],
    ]);
    expect(fake.systemOf(0)).not.toContain('Skill context');
    const system = fake.systemOf(1);
    expect(system.slice(system.indexOf('Active skill'))).toBe(
      'Active skill: style\nSTYLE-PROMPT\n\n' +
        'Skill context (style), fetched for this reply:\n' +
        '--- file package.json\n{"name":"app"}\n' +
        `--- file big.css\n${'x'.repeat(3_999)}…\n` +
        '--- file src/a/x.css\na { color: red }\n' +
        '--- command echo checked\nchecked\n(exit 0)',
    );
  });

  it('leaves the command out when the user declines it', async () => {
    const root = await h.tmpDir();
    await writeSkill(path.join(root, 'skills'), 'style', 'description: Styles\ncontext:\n  command: echo never', 'STYLE-PROMPT');
    const { fake, server, client, chatId } = await serve({ skills: { dir: path.join(root, 'skills') }, workDir: root }, [call('c1', 'activate_skill', { name: 'style' }), { steps: [{ text: 'OK.' }] }]);
    await send(server, client, chatId, 'style it', [true, false]);
    expect(fake.systemOf(1)).toContain('Skill context (style), fetched for this reply:\n--- command echo never\n(the user declined to run it)');
  });
});
