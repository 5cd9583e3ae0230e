/**
 * `agentbar agents | chat | sessions` as a shell script runs them: the real process, pipes, exit
 * codes and the exact texts, with no server running (the command starts its own) and with one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInfo } from '../../shared/schemas.ts';
import { FakeOpenAi } from '../../test-support/fake-openai.ts';
import { isProcessAlive, killSpawnedServers, spawnServer } from '../../test-support/spawn-server.ts';
import { TestClient } from '../../test-support/test-client.ts';
import { useHarness } from '../../test-support/test-server.ts';

const h = useHarness();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'agentbar.mjs');
const children = new Set<ChildProcess>();

afterEach(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  children.clear();
  for (const pid of await killSpawnedServers()) expect(isProcessAlive(pid)).toBe(false);
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `agentbar ARGS` with `input` piped to its stdin (then closed). */
function agentbar(args: string[], input = ''): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, AGENTBAR_DEMO_PACE_MS: '0', AGENTBAR_DATA_DIR: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdin!.end(input);
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr }))));
}

/** Runs `agentbar ARGS` with stdout and stderr going to one file in `dir` (`> log 2>&1`); its lines. */
async function agentbarToOneFile(args: string[], dir: string): Promise<{ code: unknown; lines: string[] }> {
  const log = path.join(dir, 'out.log');
  const fd = openSync(log, 'w');
  let code: unknown;
  try {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, AGENTBAR_DEMO_PACE_MS: '0', AGENTBAR_DATA_DIR: '' }, stdio: ['ignore', fd, fd] });
    children.add(child);
    code = await new Promise((resolve) => child.on('close', resolve));
  } finally {
    closeSync(fd);
  }
  return { code, lines: (await readFile(log, 'utf8')).split('\n') };
}

describe('version and help', () => {
  it('prints the version from package.json with --version, -v or version, and exits 0', async () => {
    const { version } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const word of ['--version', '-v', 'version']) {
      expect(await agentbar([word])).toEqual({ code: 0, stdout: `agentbar ${version}\n`, stderr: '' });
    }
  }, 30_000);

  it("prints a command's help with help COMMAND, serve's without one, and names the commands for an unknown one", async () => {
    const chat = await agentbar(['help', 'chat']);
    expect(chat.code).toBe(0);
    expect(chat.stdout).toMatch(/^Usage: agentbar chat -a <agent>/);
    const serve = await agentbar(['help']);
    expect(serve.code).toBe(0);
    expect(serve.stdout).toMatch(/^Usage: agentbar serve \[options\]/);
    expect(await agentbar(['help', 'chats'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentbar help: no command called chats (the commands: serve, proxy, chat, agents, sessions, sign-in, mcp)\n',
    });
  }, 30_000);

  it('suggests the command meant for a typo, with the usage, and exits 2', async () => {
    const run = await agentbar(['chats', '-a', 'demo/guide']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^agentbar: Unknown command: chats \(did you mean agentbar chat\?\)\n\nUsage: agentbar serve/);
  }, 30_000);
});

describe('with no server running (the command starts its own)', () => {
  it('agents lists every agent, with --json for scripts', async () => {
    const dir = await h.tmpDir();
    const human = await agentbar(['agents', '--data-dir', dir]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('demo/guide\n  Shows everything agentbar renders');
    expect(human.stdout).toContain('demo/planner  (not implemented)');
    expect(human.stdout).toMatch(/tools: .*choose_reply \(decision\)/);
    expect(human.stdout).toContain('  commands: /markdown, /think, /docs, /system, /selection, /file, /long, /fail, /skill\n');
    const json = JSON.parse((await agentbar(['agents', '--json', '--data-dir', dir])).stdout) as AgentInfo[];
    expect(json.map((a) => a.id)).toEqual(['demo/guide', 'demo/historian', 'demo/planner']);
    expect(json[0]!.commands).toContainEqual({ name: 'skill', description: 'Sets my active skill (it survives restarts)', hint: 'name' });
  }, 30_000);

  it('chat -a -m streams one reply to stdout, prints a completion line and exits 0', async () => {
    const dir = await h.tmpDir();
    const run = await agentbar(['chat', '-a', 'demo/guide', '-m', 'help', '--data-dir', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("I'm the **demo guide**.");
    const line = /✓ done · (msg_[\w-]+) · [\d.]+ s · chat "default" · (.+\.jsonl)/.exec(run.stderr)!;
    expect(line).not.toBeNull();
    // The session is on disk, and holds the reply.
    expect(await readFile(line[2]!, 'utf8')).toContain(line[1]!);
  }, 30_000);

  it('requires -a with the exact message and exit 2, and names refusals with exit 1', async () => {
    const dir = await h.tmpDir();
    const none = await agentbar(['chat', '-m', 'hi', '--data-dir', dir]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe('Error: Please specify an agent with -a (e.g., -a demo/guide)');
    const unknown = await agentbar(['chat', '-a', 'nope/x', '-m', 'hi', '--data-dir', dir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('agentbar chat: Unknown agent: nope/x (agents here: demo/guide, demo/historian; `agentbar agents` describes them)');
    const near = await agentbar(['chat', '-a', 'Guide', '-m', 'hi', '--data-dir', dir]);
    expect(near.code).toBe(1);
    expect(near.stderr).toContain('Unknown agent: Guide; did you mean demo/guide? (agents here:');
    const misspelt = await agentbar(['chat', '-a', 'demo/giude', '-m', 'hi', '--data-dir', dir]);
    expect(misspelt.code).toBe(1);
    expect(misspelt.stderr).toContain('Unknown agent: demo/giude; did you mean demo/guide? (agents here:');
    const planner = await agentbar(['chat', '-a', 'demo/planner', '-m', 'hi', '--data-dir', dir]);
    expect(planner.code).toBe(1);
    expect(planner.stderr).toContain("Agent 'demo/planner' not implemented");
    const typo = await agentbar(['chat', '-a', 'demo/guide', '--mesage', 'hi', '--data-dir', dir]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^agentbar chat: Unknown option '--mesage' \(did you mean --message\?\)\n/);
  }, 30_000);

  it('exits 1 when the reply failed', async () => {
    const dir = await h.tmpDir();
    const run = await agentbar(['chat', '-a', 'demo/guide', '-m', 'fail', '--data-dir', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/✗ failed: .+ · msg_/);
  }, 30_000);

  it('--attach sends files with the -m message: a model agent reads a source file as text', async () => {
    const fake = await FakeOpenAi.start();
    try {
      fake.queue({ steps: [{ text: 'Looks fine.' }] });
      const dir = await h.tmpDir();
      const file = path.join(dir, 'App.tsx');
      await writeFile(file, 'export const App = () => <main />;\n');
      const run = await agentbar(['chat', '-a', 'model/fake-model-7b', '--model', 'fake-model:7b', '--base-url', fake.baseUrl, '-m', 'review this', '--attach', file, '--data-dir', dir]);
      expect(run.stderr).toMatch(/✓ done/);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('Looks fine.\n');
      const sent = fake.requests[0]!.body.messages.filter((m) => m.role === 'user').at(-1)!.content;
      expect(sent).toEqual([
        { type: 'text', text: 'review this' },
        { type: 'text', text: 'Attached file "App.tsx" (text/plain):\n```\nexport const App = () => <main />;\n```' },
      ]);

      // Standard input: `git diff | agentbar chat -m … --attach -`; with no -a, the agent --model gives.
      fake.queue({ steps: [{ text: 'A small diff.' }] });
      const piped = await agentbar(['chat', '--model', 'fake-model:7b', '--base-url', fake.baseUrl, '-m', 'review the diff', '--attach', '-', '--data-dir', dir], '-a\n+b\n');
      expect(piped.stderr).toMatch(/^✓ done/);
      expect(piped.code).toBe(0);
      expect(piped.stdout).toBe('A small diff.\n');
      expect(fake.requests[1]!.body.messages.filter((m) => m.role === 'user').at(-1)!.content).toEqual([
        { type: 'text', text: 'review the diff' },
        { type: 'text', text: 'Attached file "stdin" (text/plain):\n```\n-a\n+b\n```' },
      ]);
    } finally {
      await fake.close();
    }
  }, 30_000);

  it('--attach names a missing file, or a missing -m, with exit 2 and sends nothing', async () => {
    const dir = await h.tmpDir();
    const missing = await agentbar(['chat', '-a', 'demo/guide', '-m', 'look', '--attach', path.join(dir, 'nope.png'), '--data-dir', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Cannot attach ${path.join(dir, 'nope.png')}: there is no such file`);
    const withoutMessage = await agentbar(['chat', '-a', 'demo/guide', '--attach', path.join(dir, 'nope.png'), '--data-dir', dir], 'hello\n');
    expect(withoutMessage.code).toBe(2);
    expect(withoutMessage.stderr).toContain('--attach goes with -m: the files are sent with that message');
    expect(withoutMessage.stdout).toBe('');
  }, 30_000);

  it('sends piped lines in order, each after the previous reply, and exits with the last status', async () => {
    const dir = await h.tmpDir();
    const run = await agentbar(['chat', '-a', 'demo/guide', '--session', 'piped', '--data-dir', dir], 'help\n\nthink\n');
    expect(run.code).toBe(0);
    expect(run.stdout.indexOf('demo guide')).toBeLessThan(run.stdout.indexOf('Done thinking'));
    expect(run.stderr.match(/✓ done/g)).toHaveLength(2);
    const failing = await agentbar(['chat', '-a', 'demo/guide', '--session', 'piped', '--data-dir', dir], 'help\nfail\n');
    expect(failing.code).toBe(1);
  }, 30_000);

  it('changes no session when nothing is piped in: --new keeps the session it would start afresh, and it exits 2 with the usage', async () => {
    const dir = await h.tmpDir();
    await agentbar(['chat', '-a', 'demo/guide', '-m', 'help', '--session', 'work', '--data-dir', dir]);
    const fresh = await agentbar(['chat', '-a', 'demo/guide', '--session', 'work', '--new', '--data-dir', dir], '\n  \n');
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).toMatch(/^agentbar chat: Nothing to send: pass -m <message>, or pipe lines in\n\nUsage: agentbar chat /);
    const other = await agentbar(['chat', '-a', 'demo/guide', '--session', 'other', '--data-dir', dir]);
    expect(other.code).toBe(2);
    const rows = JSON.parse((await agentbar(['sessions', '--json', '--data-dir', dir])).stdout) as { name: string; messages: number }[];
    expect(rows).toEqual([expect.objectContaining({ name: 'work', messages: 2 })]);
  }, 60_000);

  it("notes a reply's file on stderr, and --save-files writes it without replacing one already there", async () => {
    const dir = await h.tmpDir();
    const csv = 'order,customer,total,status\n10421,Ada Lovelace,320.00,paid\n10420,Grace Hopper,89.50,pending\n10419,Alan Turing,1140.00,paid\n';
    const noted = await agentbar(['chat', '-a', 'demo/guide', '-m', 'file', '--data-dir', dir]);
    expect(noted.code).toBe(0);
    expect(noted.stdout).toBe('Here is the orders table as a CSV file:\n');
    expect(noted.stderr).toContain(`[file orders.csv · text/csv · ${csv.length} B: --save-files <dir> saves it]`);

    const out = path.join(await h.tmpDir(), 'files');
    const first = await agentbar(['chat', '-a', 'demo/guide', '-m', 'file', '--save-files', out, '--data-dir', dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('Here is the orders table as a CSV file:\n');
    expect(first.stderr).toContain(`[file orders.csv · text/csv · ${csv.length} B: saved to ${path.join(out, 'orders.csv')}]`);
    // The note comes before the completion line: the command waits for the file to be written.
    expect(first.stderr.indexOf('saved to')).toBeLessThan(first.stderr.indexOf('✓ done'));
    expect(await readFile(path.join(out, 'orders.csv'), 'utf8')).toBe(csv);
    const second = await agentbar(['chat', '-a', 'demo/guide', '-m', 'file', '--save-files', out, '--data-dir', dir]);
    expect(second.stderr).toContain(`saved to ${path.join(out, 'orders-1.csv')}]`);
    expect(await readFile(path.join(out, 'orders.csv'), 'utf8')).toBe(csv);
  }, 30_000);

  it('exits 1 and says so when a file cannot be saved, and 2 for --save-files without a folder', async () => {
    const dir = await h.tmpDir();
    const blocker = path.join(await h.tmpDir(), 'a-file');
    await writeFile(blocker, '');
    const run = await agentbar(['chat', '-a', 'demo/guide', '-m', 'file', '--save-files', path.join(blocker, 'out'), '--data-dir', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\[file orders\.csv · text\/csv · \d+ B: not saved: ENOTDIR/);
    expect(run.stderr).toMatch(/✗ done \(a file was not saved\) · msg_/);
    const empty = await agentbar(['chat', '-a', 'demo/guide', '-m', 'file', '--save-files', '', '--data-dir', dir]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--save-files needs a folder');
  }, 30_000);

  it('gives a pipe the reply\'s bytes as they are (only a terminal has control characters removed)', async () => {
    const dir = await h.tmpDir();
    const run = await agentbar(['chat', '-a', 'demo/historian', '-m', '\u001b[2Jhello', '--data-dir', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('It started with: “\u001b[2Jhello”');
  }, 30_000);

  it('notes how long the agent thought, and keeps the thinking out of stdout', async () => {
    const dir = await h.tmpDir();
    const run = await agentbar(['chat', '-a', 'demo/guide', '-m', 'think', '--data-dir', dir]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^\[thought for \d+ s\]$/m);
    expect(run.stdout).toBe('Done thinking: **reasoning** parts are shown collapsed above this answer.\n');
  }, 30_000);

  it('refuses a tool call needing approval without a terminal', async () => {
    const dir = await h.tmpDir();
    const refused = await agentbar(['chat', '-a', 'demo/guide', '-m', 'read my selection', '--data-dir', dir]);
    expect(refused.code).toBe(0);
    expect(refused.stderr).toMatch(/Rejected get_selected_elements: no terminal to ask for approval \(pass --yes to approve tool calls\)/);
    expect(refused.stdout).toContain('Understood, I will not read the page');
  }, 30_000);

  it('starts each note on a line of its own when stdout and stderr go to one file (> log 2>&1)', async () => {
    const dir = await h.tmpDir();
    const { code, lines } = await agentbarToOneFile(['chat', '-a', 'demo/guide', '-m', 'read my selection', '--data-dir', dir], dir);
    expect(code).toBe(0);
    expect(lines.slice(0, 3)).toEqual(['I would like to read the elements you picked in the page.', '[tool get_selected_elements: awaiting-approval]', 'Rejected get_selected_elements: no terminal to ask for approval (pass --yes to approve tool calls)']);
    // Separate pipes keep stdout the reply alone, as before.
    const piped = await agentbar(['chat', '-a', 'demo/guide', '-m', 'read my selection', '--data-dir', dir]);
    expect(piped.stdout).toMatch(/^I would like to read the elements you picked in the page\.\n/);
    expect(piped.stderr).toMatch(/^\[tool get_selected_elements/);
  }, 30_000);

  it("puts what the ACP SDK prints about an update it could not read on a line of its own, and keeps the agent's start out of the chat", async () => {
    const dir = await h.tmpDir();
    const cwd = await h.tmpDir();
    const args = ['chat', '-a', 'acp/scripted', '-m', 'bad-update', '--data-dir', dir, '--acp', `node ${path.join(ROOT, 'test-support', 'scripted-acp-agent.mjs')} ${cwd}`, '--acp-id', 'acp/scripted', '--cwd', cwd];
    const { code, lines } = await agentbarToOneFile(args, dir);
    expect(code).toBe(0);
    // The SDK's console.error once ran on from "First half of the line, " as one line.
    expect(lines.slice(0, 3)).toEqual(['First half of the line, ', "Error handling notification { method: 'session/update', code: -32602, message: 'Invalid params' }", 'second half.']);
    expect(lines[3]).toMatch(/^✓ done · /);
    // "[agentbar acp/scripted] info: started node (pid …)" is no news in a chat.
    expect(lines.join('\n')).not.toContain('started node');
  }, 30_000);

  it('talks to an ACP agent given with --acp, approves its permission request with --yes, and leaves no process behind', async () => {
    const dir = await h.tmpDir();
    const cwd = await h.tmpDir();
    // The folder on the command line marks this test's agent processes among other tests' ones.
    const acp = ['--acp', `node ${path.join(ROOT, 'test-support', 'scripted-acp-agent.mjs')} ${cwd}`, '--acp-id', 'acp/scripted', '--cwd', cwd];
    const agents = JSON.parse((await agentbar(['agents', '--json', '--data-dir', dir, ...acp])).stdout) as AgentInfo[];
    expect(agents.map((a) => a.id)).toEqual(['acp/scripted', 'demo/guide', 'demo/historian', 'demo/planner']);
    const hello = await agentbar(['chat', '-a', 'acp/scripted', '-m', 'hello', '--data-dir', dir, ...acp]);
    expect(hello.code).toBe(0);
    expect(hello.stdout).toContain('Hello from the scripted agent.');
    const edit = await agentbar(['chat', '-a', 'acp/scripted', '-m', 'edit', '--yes', '--data-dir', dir, ...acp]);
    expect(edit.code).toBe(0);
    expect(edit.stdout).toContain('Edited.');
    // Its ok comes once the answer is on disk, after the run it let go on: the command waits for it.
    expect(edit.stderr).not.toContain('could not answer the approval');
    const shown = edit.stdout + edit.stderr;
    expect(shown).toContain('[tool Edit notes.txt: awaiting-approval]');
    expect(shown).not.toContain('"text":"new line"');
    expect(shown).toContain('[plan 2/2: ✓ Read the page · ✓ Edit the file]');
    // A tool call is its title; --verbose adds the agent's raw input (Codex's ids and all).
    const verbose = await agentbar(['chat', '-a', 'acp/scripted', '-m', 'codex-delete', '--yes', '--verbose', '--data-dir', dir, ...acp]);
    expect(verbose.stderr).toContain('[tool Run rm -f hello.txt {"call_id":"call_Tq1Zr6bV0n3yZc9t8Jm2aA","turn_id":');
    // Notices are notes: stderr, each once; stdout stays the reply.
    // What a session cost, as the agent reported it, in the list of sessions.
    await agentbar(['chat', '-a', 'acp/scripted', '-m', 'usage', '--session', 'costly', '--data-dir', dir, ...acp]);
    const sessions = await agentbar(['sessions', '--data-dir', dir, ...acp]);
    expect(sessions.stdout).toMatch(/^costly {2}· {2}acp\/scripted {2}· {2}2 messages {2}· {2}\$0\.42 {2}· {2}\d{4}-/m);
    expect(sessions.stdout).toMatch(/^default {2}· {2}acp\/scripted {2}· {2}\d+ messages {2}· {2}\d{4}-/m);
    const rows = JSON.parse((await agentbar(['sessions', '--json', '--data-dir', dir, ...acp])).stdout) as { name: string; cost?: unknown }[];
    expect(rows.find((r) => r.name === 'costly')!.cost).toEqual([{ amount: 0.42, currency: 'USD' }]);
    expect(rows.find((r) => r.name === 'default')).not.toHaveProperty('cost');
    const notices = await agentbar(['chat', '-a', 'acp/scripted', '-m', 'notice', '--data-dir', dir, ...acp]);
    expect(notices.code).toBe(0);
    expect(notices.stdout).toBe('Answered without the docs.\n');
    expect(notices.stderr.split('[warning] MCP server "docs" unavailable (Continuing without it.)\n')).toHaveLength(2);
    expect(notices.stderr).toContain('[note] Using a smaller model for this turn\n');
    const refused = await agentbar(['chat', '-a', 'acp/scripted', '-m', 'edit', '--data-dir', dir, ...acp]);
    expect(refused.stderr).toMatch(/Rejected edit: no terminal to ask for approval/);
    expect(refused.stdout).toContain('Left it alone.');
    const bad = await agentbar(['chat', '-a', 'acp/scripted', '-m', 'hi', '--data-dir', dir, '--acp-id', 'x/y']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--acp-id names the --acp before it');
    // A flag's mistake, as serve treats it: exit 2, said plainly.
    const missing = path.join(cwd, 'missing');
    const noFolder = await agentbar(['chat', '-a', 'acp/scripted', '-m', 'hi', '--data-dir', dir, '--acp', 'node x', '--acp-id', 'acp/scripted', '--cwd', missing]);
    expect(noFolder).toMatchObject({ code: 2, stderr: `agentbar chat: --cwd ${missing} is not a folder\n` });
    // The server chat starts looks for the program as serve does, and says so before the reply fails.
    const absent = await agentbar(['chat', '-a', 'acp/absent', '-m', 'hi', '--data-dir', dir, '--acp', 'agentbar-no-such-agent --acp', '--acp-id', 'acp/absent', '--cwd', cwd]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toMatch(/^\[agentbar acp\/absent\] Cannot find agentbar-no-such-agent on the PATH of the agentbar server: is it installed\?/m);
    const { execSync } = await import('node:child_process');
    expect(execSync('ps -eo args').toString()).not.toContain(`scripted-acp-agent.mjs ${cwd}`);
  }, 60_000);

  it('sessions lists chats, deletes one by name, and --new starts a session afresh', async () => {
    const dir = await h.tmpDir();
    await agentbar(['chat', '-a', 'demo/guide', '-m', 'help', '--session', 'work', '--data-dir', dir]);
    await agentbar(['chat', '-a', 'demo/guide', '-m', 'help', '--session', 'work', '--data-dir', dir]);
    await agentbar(['chat', '-a', 'demo/historian', '-m', 'summarize', '--session', 'other', '--data-dir', dir]);
    const list = await agentbar(['sessions', '--json', '--data-dir', dir]);
    const rows = JSON.parse(list.stdout) as { name: string; messages: number; agents: string[] }[];
    // "work" is not the active chat any more: who answered in it comes from its info.
    expect(rows).toEqual([expect.objectContaining({ name: 'other', agents: ['demo/historian'] }), expect.objectContaining({ name: 'work', messages: 4, agents: ['demo/guide'] })]);
    // For people: one line each, the time in the local zone to the minute.
    const human = await agentbar(['sessions', '--data-dir', dir]);
    expect(human.stdout).toMatch(/^other {2}· {2}demo\/historian {2}· {2}2 messages {2}· {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}· {2}chat_[\w-]+\nwork {2}· {2}demo\/guide {2}· {2}4 messages {2}· /);
    await agentbar(['sessions', '--delete', 'other', '--data-dir', dir]);
    await agentbar(['chat', '-a', 'demo/guide', '-m', 'help', '--session', 'work', '--new', '--data-dir', dir]);
    expect((JSON.parse((await agentbar(['sessions', '--json', '--data-dir', dir])).stdout) as { messages: number }[])[0]!.messages).toBe(2);
    const deleted = await agentbar(['sessions', '--delete', 'work', '--data-dir', dir]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(/Deleted "work"/);
    expect((await agentbar(['sessions', '--data-dir', dir])).stdout).toMatch(/No sessions yet/);
    const missing = await agentbar(['sessions', '--delete', 'work', '--data-dir', dir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No session named "work"');
  }, 60_000);
});

describe('with a server running', () => {
  it('attaches to it: the chat lands in the running server', async () => {
    const dir = await h.tmpDir();
    const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '0' } });
    const run = await agentbar(['chat', '-a', 'demo/guide', '-m', 'help', '--session', 'shared', '--data-dir', dir]);
    expect(run.code).toBe(0);
    const agents = await fetch(`${server.httpUrl}/agents`, { headers: { Authorization: `Bearer ${server.token}` } });
    expect(agents.status).toBe(200);
    const sessions = await agentbar(['sessions', '--json', '--data-dir', dir]);
    expect((JSON.parse(sessions.stdout) as { name: string }[]).map((s) => s.name)).toEqual(['shared']);
    // Still the same server: the command started none of its own.
    expect(isProcessAlive(server.pid)).toBe(true);
  }, 30_000);

  it('sessions --export prints a chat as Markdown, or its messages as JSON, and leaves the open chat open', async () => {
    const dir = await h.tmpDir();
    const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '0' } });
    await agentbar(['chat', '-a', 'demo/guide', '-m', 'docs', '--session', 'work', '--data-dir', dir]);
    await agentbar(['chat', '-a', 'demo/guide', '-m', 'help', '--session', 'other', '--data-dir', dir]);
    const watcher = await TestClient.connect(server);
    const open = watcher.state!.activeChatId;
    const rev = watcher.rev;

    const exported = await agentbar(['sessions', '--export', 'work', '--data-dir', dir]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^# work\n\n## You · \d{4}-\d\d-\d\d \d\d:\d\d\n\ndocs\n\n## demo\/guide · /);
    expect(exported.stdout).toMatch(/\*\*Tool call\*\* `search_docs` \(done\)\n\n```json\n/);
    expect(exported.stdout).toMatch(/\*\*Tool result\*\* of `search_docs`\n\n```/);
    const json = await agentbar(['sessions', '--export', 'work', '--json', '--data-dir', dir]);
    expect((JSON.parse(json.stdout) as { role: string }[]).map((m) => m.role)).toEqual(['user', 'assistant']);
    // Read, not switched to: the server's open chat and state are as they were.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(watcher.state!.activeChatId).toBe(open);
    expect(watcher.rev).toBe(rev);
    await watcher.close();

    const missing = await agentbar(['sessions', '--export', 'nope', '--data-dir', dir]);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain('No session named "nope"');
    const both = await agentbar(['sessions', '--export', 'work', '--delete', 'work', '--data-dir', dir]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--delete and --export do not go together');
  }, 60_000);

  it('says that --model and --acp do not change the running server, and talks to it as it is', async () => {
    const dir = await h.tmpDir();
    await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '0' } });
    const run = await agentbar(['chat', '-a', 'demo/guide', '-m', 'help', '--model', 'llama3.2', '--base-url', 'http://127.0.0.1:9/v1', '--data-dir', dir]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`agentbar chat: a server is already running on ${dir}, with its own agents; --model applies only to a server this command starts.`);
    // Its agent is not there: -a is still needed, with one that is.
    const bare = await agentbar(['chat', '-m', 'help', '--model', 'llama3.2', '--base-url', 'http://127.0.0.1:9/v1', '--data-dir', dir]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Error: Please specify an agent with -a (e.g., -a demo/guide)');
  }, 30_000);

  it('--yes approves a tool call, which a connected toolbar then runs', async () => {
    const dir = await h.tmpDir();
    const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '0' } });
    const toolbar = await TestClient.connect(server, { kind: 'toolbar', tools: [{ name: 'get_selected_elements', description: 'Picked elements', inputSchema: { type: 'object' } }] });
    toolbar.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; chatId: string; toolCallId: string };
      if (frame.type === 'tool.run') toolbar.sendJson({ type: 'tool.result', id: 'r1', chatId: frame.chatId, toolCallId: frame.toolCallId, output: [] });
    });
    const run = await agentbar(['chat', '-a', 'demo/guide', '-m', 'read my selection', '--yes', '--data-dir', dir]);
    await toolbar.terminate();
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[tool get_selected_elements: done]');
    expect(run.stdout).toContain('No elements are selected');
  }, 30_000);

  it('--no-progress leaves the tool notes out of stderr, and keeps the reply and the completion line', async () => {
    const dir = await h.tmpDir();
    await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '0' } });
    const run = await agentbar(['chat', '-a', 'demo/guide', '-m', 'docs', '--no-progress', '--data-dir', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Searching the docs');
    expect(run.stderr).not.toContain('[tool ');
    expect(run.stderr).toMatch(/✓ done · /);
    const shown = await agentbar(['chat', '-a', 'demo/guide', '-m', 'docs', '--show-progress', '--data-dir', dir]);
    expect(shown.stderr).toContain('[tool search_docs');
  }, 30_000);

  it('names an ambiguous session with its candidates, and changes nothing', async () => {
    const dir = await h.tmpDir();
    const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '0' } });
    const client = await TestClient.connect(server);
    const a = (await client.ok('chat.create', { title: 'dup' })).chatId as string;
    const b = (await client.ok('chat.create', { title: 'dup' })).chatId as string;
    await client.terminate();
    const run = await agentbar(['sessions', '--delete', 'dup', '--data-dir', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Session "dup" is ambiguous; use one of these ids:');
    expect(run.stderr).toContain(a);
    expect(run.stderr).toContain(b);
    const left = JSON.parse((await agentbar(['sessions', '--json', '--data-dir', dir])).stdout) as unknown[];
    expect(left).toHaveLength(2);
    expect((await agentbar(['sessions', '--delete', a, '--data-dir', dir])).code).toBe(0);
  }, 30_000);

  it('two servers started at the same moment on one folder: exactly one runs', async () => {
    const dir = await h.tmpDir();
    const [a, b] = await Promise.allSettled([spawnServer(dir, { readyTimeoutMs: 15_000 }), spawnServer(dir, { readyTimeoutMs: 15_000 })]);
    const ok = [a, b].filter((r) => r.status === 'fulfilled');
    const refused = [a, b].filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(String(refused[0]!.reason)).toMatch(/Another agentbar server \(pid \d+.*\) is using/);
  }, 40_000);
});
