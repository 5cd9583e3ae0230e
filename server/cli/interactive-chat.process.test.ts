/**
 * The interactive chat through a real pseudo-terminal (`script` from util-linux): the prompt,
 * queued lines, the completion line, Ctrl+C during a run (exit 130) and at the prompt or Ctrl+D
 * (exit 0). Skipped, with the reason, where `script` is missing.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killSpawnedServers, spawnServer } from '../../test-support/spawn-server.ts';
import { TestClient } from '../../test-support/test-client.ts';
import { useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'agentbar.mjs');
const children = new Set<ChildProcess>();

function hasScript(): boolean {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return process.platform === 'linux';
  } catch {
    return false;
  }
}

afterEach(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  children.clear();
  await killSpawnedServers();
});

/** `agentbar chat …` on a pseudo-terminal; keystrokes go in, the screen comes out. */
function onTerminal(args: string[], paceMs: number) {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, AGENTBAR_DEMO_PACE_MS: String(paceMs), TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let screen = '';
  child.stdout!.on('data', (d) => (screen += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    type: (keys: string) => child.stdin!.write(keys),
    get screen() {
      return screen;
    },
    /** Waits until the screen shows `text` `times` times. */
    async waitFor(text: string, times = 1, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (screen.split(text).length - 1 < times) {
        if (Date.now() > deadline) throw new Error(`never showed ${JSON.stringify(text)} ×${times}:\n${screen}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    exited,
    /** Closes the terminal, as closing its window does. */
    hangUp: () => child.kill('SIGKILL'),
  };
}

/** The `agentbar chat` processes whose command line names `dir`, with their pids. */
function chatProcesses(dir: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(BIN) && line.includes(' chat ') && line.includes(dir) && !line.includes('script '))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

function runningWith(dir: string): boolean {
  return chatProcesses(dir).length > 0;
}

function chatPid(dir: string): number {
  const [pid] = chatProcesses(dir);
  if (!pid) throw new Error(`no agentbar chat process for ${dir}`);
  return pid;
}

/** The interactive chat with the scripted ACP agent (test-support/scripted-acp-agent.mjs) in a temp folder. */
async function onScriptedAgentTerminal() {
  const dir = await h.tmpDir();
  const script = path.join(ROOT, 'test-support', 'scripted-acp-agent.mjs');
  return onTerminal(['chat', '--acp', `${process.execPath} ${script}`, '--acp-id', 'acp/scripted', '--cwd', dir, '--data-dir', dir], 0);
}

describe.skipIf(!hasScript())('agentbar chat on a terminal', () => {
  it('prompts, runs queued lines in order with a completion line each, and Ctrl+D leaves with 0', async () => {
    const dir = await h.tmpDir();
    const t = onTerminal(['chat', '-a', 'demo/guide', '--data-dir', dir], 10);
    await t.waitFor('agent> ');
    t.type('think\r');
    await t.waitFor('Done thinking');
    // Typed while the reply streams: queued, sent after it, shown when sent.
    t.type('help\r');
    await t.waitFor('✓ done', 2);
    expect(t.screen.indexOf('Done thinking')).toBeLessThan(t.screen.indexOf("I'm the **demo guide**"));
    expect(t.screen).toMatch(/✓ done · msg_[\w-]+ · [\d.]+ s · chat "default" · .*\.jsonl/);
    await t.waitFor('agent> ', 3);
    t.type('/chats\r');
    await t.waitFor('1. default  (active)');
    await t.waitFor('agent> ', 4);
    t.type('\x04');
    expect(await t.exited).toBe(0);
  }, 40_000);

  it('Ctrl+C during a run stops it and exits 130; at the prompt it exits 0', async () => {
    const dir = await h.tmpDir();
    const t = onTerminal(['chat', '-a', 'demo/guide', '--data-dir', dir], 30);
    await t.waitFor('agent> ');
    t.type('long\r');
    await t.waitFor('Step 1');
    t.type('\x03');
    expect(await t.exited).toBe(130);
    expect(t.screen).toContain('Stopping the agent');
    expect(t.screen).toMatch(/■ stopped · msg_/);

    const again = onTerminal(['chat', '-a', 'demo/guide', '--data-dir', dir], 30);
    await again.waitFor('agent> ');
    again.type('\x03');
    expect(await again.exited).toBe(0);
  }, 40_000);

  it('/stop typed while a reply streams stops it and the chat goes on; /help answers at once, and a message waits for the reply', async () => {
    const dir = await h.tmpDir();
    // The demo's long reply holds after its first step until the gate opens, which it never does here.
    const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_GATE: 'stdin', AGENTBAR_DEMO_PACE_MS: '0' } });
    const t = onTerminal(['chat', '-a', 'demo/guide', '--data-dir', dir], 0);
    await t.waitFor('agent> ');
    t.type('long\r');
    await t.waitFor('Step 1 of a long plan');
    t.type('/help\r');
    await t.waitFor('/chats               list chats');
    t.type('markdown\r');
    await t.waitFor('[queued "markdown": it is sent when this reply ends; /stop ends the reply now]');
    t.type('/stop\r');
    await t.waitFor('Stopping the reply… The line typed during it goes after it.');
    await t.waitFor('■ stopped · msg_');
    // The queued message goes next, and the chat is still there to take more.
    await t.waitFor('debounces a function');
    await t.waitFor('✓ done');
    t.type('/chats\r');
    await t.waitFor('1. default  (active)');
    t.type('\x04');
    expect(await t.exited).toBe(0);
    expect(t.screen).not.toContain('Step 2 of a long plan');
    const watcher = await TestClient.connect(server);
    expect(watcher.state!.active!.messages.map((m) => (m.role === 'assistant' ? m.status : m.role))).toEqual(['user', 'stopped', 'user', 'done']);
    await watcher.close();
  }, 40_000);

  it('/agent alone sends the next message to the chat\'s own agent, as it says', async () => {
    const dir = await h.tmpDir();
    const t = onTerminal(['chat', '-a', 'demo/guide', '--data-dir', dir], 0);
    await t.waitFor('agent> ');
    t.type('/agent demo/historian\r');
    await t.waitFor('Messages now go to demo/historian.');
    t.type('summarize\r');
    await t.waitFor('✓ done');
    t.type('/agent\r');
    await t.waitFor('Messages go to the chat’s agent (demo/historian).');
    t.type('help\r');
    await t.waitFor('✓ done', 2);
    t.type('\x04');
    expect(await t.exited).toBe(0);
    // Both replies are the historian's (a summary of 1, then 3 messages): the guide, given with -a, never answered.
    expect(t.screen).toContain('This chat has **1 message**');
    expect(t.screen).toContain('This chat has **3 messages**: 2 from you, 1 reply from agents');
    expect(t.screen).not.toContain('demo guide');
  }, 40_000);

  it('when the terminal closes during chat -m, the reply is stopped and saved, and the server chat started ends', async () => {
    const dir = await h.tmpDir();
    const t = onTerminal(['chat', '-a', 'demo/guide', '-m', 'long', '--data-dir', dir], 5);
    await t.waitFor('Step 2 ');
    // The terminal goes away: its processes get SIGHUP, and every write to it fails (EIO).
    t.hangUp();
    await waitUntil(() => !existsSync(path.join(dir, 'server.json')) && !runningWith(dir), 'the chat and its server to end', 15_000);
    const exported = spawnSync(process.execPath, [BIN, 'sessions', '--export', 'default', '--json', '--data-dir', dir], { encoding: 'utf8', env: { ...process.env, AGENTBAR_DATA_DIR: '' } });
    const messages = JSON.parse(exported.stdout) as { role: string; status?: string }[];
    // Stopped, not interrupted: the server stopped the run and saved the chat before it closed.
    expect(messages.map((m) => m.status ?? m.role)).toEqual(['user', 'stopped']);
  }, 40_000);

  it('SIGTERM stops the reply the interactive chat waits for, and exits 143', async () => {
    const dir = await h.tmpDir();
    const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '5' } });
    const t = onTerminal(['chat', '-a', 'demo/guide', '--data-dir', dir], 5);
    await t.waitFor('agent> ');
    t.type('long\r');
    await t.waitFor('Step 2 ');
    process.kill(chatPid(dir), 'SIGTERM');
    expect(await t.exited).toBe(143);
    const watcher = await TestClient.connect(server);
    expect(watcher.state!.run).toBeNull();
    expect(watcher.state!.active!.messages.map((m) => (m.role === 'assistant' ? m.status : m.role))).toEqual(['user', 'stopped']);
    await watcher.close();
  }, 40_000);

  it('chat -m on a terminal starts each note on a line of its own, the embedded server\'s log too', async () => {
    const dir = await h.tmpDir();
    const docs = onTerminal(['chat', '-a', 'demo/guide', '-m', 'docs', '--data-dir', dir], 0);
    expect(await docs.exited).toBe(0);
    // The reply's text, then the tool call's note below it (not run on from "docs… "), then the text again.
    expect(docs.screen).toMatch(/Searching the docs… *\r\n\[tool search_docs\(\{"query":"streaming diffs"\}\): done\]\r\nFound it/);
    // Paced, so the text is on screen before the agent throws and the server logs it.
    const fail = onTerminal(['chat', '-a', 'demo/guide', '-m', 'fail', '--data-dir', dir], 20);
    expect(await fail.exited).toBe(1);
    expect(fail.screen).toMatch(/(^|\r\n)\[agentbar\] Agent demo\/guide failed: Demo failure/);
    expect(fail.screen).toContain('Let me try something risky');
  }, 40_000);

  it('/save writes the files of the latest reply to the folder given, or to --save-files\'s', async () => {
    const dir = await h.tmpDir();
    const out = await h.tmpDir();
    const t = onTerminal(['chat', '-a', 'demo/guide', '--data-dir', dir], 0);
    await t.waitFor('agent> ');
    t.type('/save\r');
    await t.waitFor('No reply in this chat carries a file.');
    t.type('file\r');
    await t.waitFor('/save [dir] saves it]');
    await t.waitFor('✓ done');
    t.type(`/save ${out}\r`);
    await t.waitFor(`Saved file orders.csv · text/csv · 123 B to ${path.join(out, 'orders.csv')}`);
    t.type('\x04');
    expect(await t.exited).toBe(0);
    expect(await readFile(path.join(out, 'orders.csv'), 'utf8')).toMatch(/^order,customer,total,status\n10421,Ada Lovelace/);

    const auto = onTerminal(['chat', '-a', 'demo/guide', '--save-files', out, '--data-dir', dir], 0);
    await auto.waitFor('agent> ');
    auto.type('file\r');
    await auto.waitFor(`saved to ${path.join(out, 'orders-1.csv')}]`);
    await auto.waitFor('✓ done');
    auto.type('\x04');
    expect(await auto.exited).toBe(0);
  }, 40_000);

  it("sends an ACP agent's own /commands as messages and prints the reply; //text sends /text", async () => {
    const t = await onScriptedAgentTerminal();
    await t.waitFor('agent> ');
    t.type('hello\r');
    await t.waitFor('✓ done');
    t.type('/help\r');
    await t.waitFor('Commands of acp/scripted, sent to it as messages:');
    expect(t.screen).toContain('/review <what to focus on> Review the changes on this branch');
    t.type('/review the tests\r');
    await t.waitFor('Reviewing the branch, focusing on the tests: it looks fine.');
    await t.waitFor('✓ done', 2);
    t.type('//compact\r');
    await t.waitFor('Compacted the conversation.');
    await t.waitFor('✓ done', 3);
    t.type('\x04');
    expect(await t.exited).toBe(0);
  }, 40_000);

  it("asks in the agent's own words, and a answers with its \"always\"", async () => {
    const t = await onScriptedAgentTerminal();
    await t.waitFor('agent> ');
    t.type('npm-test\r');
    await t.waitFor('Approve npm test? [y = "Yes, proceed", a = "Yes, and don\'t ask again for commands that start with `npm test`", Enter = "No, and tell Codex what to do differently", or type a reason to reject]');
    t.type('a\r');
    await t.waitFor('Tests passed (approved-execpolicy-amendment).');
    await t.waitFor('✓ done');
    t.type('\x04');
    expect(await t.exited).toBe(0);
  }, 40_000);

  it("asks Codex's question about the command it runs, and notes the call by its title, never its raw input", async () => {
    const t = await onScriptedAgentTerminal();
    await t.waitFor('agent> ');
    t.type('codex-delete\r');
    await t.waitFor('Do you want me to delete hello.txt, as you asked?\r\nApprove Run rm -f hello.txt? [y = "Yes", a = "Always", Enter = "No, provide feedback", or type a reason to reject]');
    t.type('y\r');
    await t.waitFor('Deleted hello.txt.');
    await t.waitFor('✓ done');
    t.type('\x04');
    expect(await t.exited).toBe(0);
    expect(t.screen).toContain('[tool Run rm -f hello.txt: done]');
    // Codex's bookkeeping (its rawInput: call, process and turn ids) stays off the screen.
    expect(t.screen).not.toMatch(/call_id|process_id|turn_id|parsed_cmd/);
  }, 40_000);

  it('numbers the options where the agent offers two kinds of "always", and a number answers with that one', async () => {
    const t = await onScriptedAgentTerminal();
    await t.waitFor('agent> ');
    t.type('plan-exit\r');
    await t.waitFor('[1 = "Yes, and manually approve edits", 2 = "Yes, and bypass permissions", 3 = "Yes, and auto-accept edits", 4 or Enter = "No, keep planning", or type a reason to reject]');
    t.type('3\r');
    await t.waitFor('Leaving plan mode for acceptEdits.');
    await t.waitFor('✓ done');
    t.type('\x04');
    expect(await t.exited).toBe(0);
  }, 40_000);

  it('starts a note on a line of its own when it comes in the middle of a reply', async () => {
    const t = await onScriptedAgentTerminal();
    await t.waitFor('agent> ');
    // Mid-sentence the agent sends an update ACP's SDK refuses, and the SDK says so on stderr.
    t.type('bad-update\r');
    await t.waitFor('✓ done');
    expect(t.screen).toMatch(/First half of the line, \r?\nError handling notification \{ method: 'session\/update', code: -32602, message: 'Invalid params' \}\r?\nsecond half\./);
    t.type('\x04');
    expect(await t.exited).toBe(0);
  }, 40_000);

  it('/attach sends a file with the next message typed', async () => {
    const dir = await h.tmpDir();
    const file = path.join(dir, 'notes.md');
    await writeFile(file, '# Notes\n');
    const t = onTerminal(['chat', '-a', 'demo/historian', '--data-dir', dir], 0);
    await t.waitFor('agent> ');
    t.type(`/attach ${file}\r`);
    await t.waitFor('Attached notes.md (text/markdown, 8 B): it goes with your next message.');
    t.type('summarize\r');
    await t.waitFor('✓ done');
    t.type('/attach\r');
    await t.waitFor('Nothing attached');
    t.type('\x04');
    expect(await t.exited).toBe(0);
    const chats = (await readdir(path.join(dir, 'chats'))).filter((f) => f.endsWith('.jsonl'));
    const saved = await Promise.all(chats.map((f) => readFile(path.join(dir, 'chats', f), 'utf8')));
    expect(saved.join('')).toContain(`{"type":"file","data":"data:text/markdown;base64,${Buffer.from('# Notes\n').toString('base64')}","filename":"notes.md","mimeType":"text/markdown"}`);
  }, 40_000);

  it('keeps control characters from a reply or a chat name off the terminal, as visible text', async () => {
    const dir = await h.tmpDir();
    // The historian quotes the chat's first message back: an escape sequence in it reaches the reply.
    const t = onTerminal(['chat', '-a', 'demo/historian', '-m', '\u001b[2Jhello', '--session', 'x\u001b]0;owned\u0007y', '--data-dir', dir], 0);
    expect(await t.exited).toBe(0);
    expect(t.screen).toContain('It started with: “[2Jhello”');
    expect(t.screen).toContain('chat "x]0;ownedy"');
    expect(t.screen).not.toMatch(/[\u001b\u0007]/);
    // The list of sessions names it too.
    const sessions = onTerminal(['sessions', '--data-dir', dir], 0);
    expect(await sessions.exited).toBe(0);
    expect(sessions.screen).toMatch(/^x\]0;ownedy {2}· {2}demo\/historian/m);
    expect(sessions.screen).not.toMatch(/[\u001b\u0007]/);
  }, 40_000);

  it('chat -m on a terminal asks before a tool call; a typed reason rejects it', async () => {
    const dir = await h.tmpDir();
    const t = onTerminal(['chat', '-a', 'demo/guide', '-m', 'read my selection', '--data-dir', dir], 0);
    await t.waitFor('Approve get_selected_elements');
    t.type('not on this page\r');
    expect(await t.exited).toBe(0);
    expect(t.screen).toContain('Understood, I will not read the page (not on this page).');
    expect(t.screen).toContain('[tool get_selected_elements: denied]');
  }, 40_000);
});
