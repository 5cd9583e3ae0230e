/**
 * How `agentbar chat -m` ends when something happens during its reply: another client opens a
 * chat, the server goes away, the user presses Ctrl+C or closes the terminal. Real processes: a
 * spawned `agentbar serve` (or the one `chat` starts for itself) and the command as a shell runs it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../shared/schemas.ts';
import { isProcessAlive, killSpawnedServers, runCli, spawnServer, type CliProcess } from '../../test-support/spawn-server.ts';
import { TestClient } from '../../test-support/test-client.ts';
import { useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = path.join(ROOT, 'test-support', 'scripted-acp-agent.mjs');
const BIN = path.join(ROOT, 'bin', 'agentbar.mjs');

afterEach(async () => {
  for (const pid of await killSpawnedServers()) expect(isProcessAlive(pid)).toBe(false);
});

/** `agentbar chat -a demo/guide -m long` against the server on `dir`, once its reply is under way. */
async function startLongReply(dir: string): Promise<CliProcess> {
  const chat = runCli(['chat', '-a', 'demo/guide', '-m', 'long', '--session', 'long', '--data-dir', dir]);
  await waitUntil(() => chat.stdout.includes('Step 2 '), 'the reply to stream', 20_000);
  return chat;
}

describe('agentbar chat -m, while its reply streams', () => {
  it('follows the reply to its end when another client opens another chat meanwhile', async () => {
    const dir = await h.tmpDir();
    const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '3' } });
    const chat = await startLongReply(dir);
    // The toolbar's +: the new chat is the active one, and the reply is no longer in the state.
    const toolbar = await TestClient.connect(server);
    await toolbar.ok('chat.create', { title: 'meanwhile' });
    const exit = await chat.exited;
    await toolbar.close();
    expect(exit.code).toBe(0);
    expect(chat.stdout).toContain('40. Step 40 of a long plan: check the layout, then the spacing, then the colours of section 40.\n');
    // Every character once: nothing printed twice when the end came from the chat's file.
    expect(chat.stdout.split('Step 40 of').length).toBe(2);
    expect(chat.stderr).toContain('[another client opened another chat; the rest of the reply shows when it ends]');
    expect(chat.stderr).toMatch(/✓ done · msg_/);
  }, 60_000);

  it('exits 1, saying it lost the server, when the server dies', async () => {
    const dir = await h.tmpDir();
    const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '5' } });
    const chat = await startLongReply(dir);
    await server.kill('SIGKILL');
    const exit = await chat.exited;
    expect(exit.code).toBe(1);
    expect(chat.stderr).toContain('agentbar chat: Lost the connection to the agent server (');
    expect(chat.stderr).toContain('the reply may go on there: `agentbar sessions` lists the chat');
  }, 60_000);

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`stops the reply on ${signal} and exits ${code}, and the agent is free again`, async () => {
      const dir = await h.tmpDir();
      const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '5' } });
      const chat = await startLongReply(dir);
      await chat.kill(signal);
      expect((await chat.exited).code).toBe(code);
      expect(chat.stderr).toContain(`agentbar chat: ${signal}, stopping…`);
      const watcher = await TestClient.connect(server);
      expect(watcher.state!.run).toBeNull();
      expect((watcher.state!.active!.messages.at(-1) as AssistantMessage).status).toBe('stopped');
      await watcher.close();
    }, 60_000);
  }

  it('sends no more piped lines after Ctrl+C', async () => {
    const dir = await h.tmpDir();
    const server = await spawnServer(dir, { env: { AGENTBAR_DEMO_PACE_MS: '5' } });
    // Spawned plainly: runCli's watchdog reads stdin, which here is the chat's input.
    const chat = spawn(process.execPath, [BIN, 'chat', '-a', 'demo/guide', '--session', 'piped', '--data-dir', dir], { cwd: ROOT, env: { ...process.env, AGENTBAR_DATA_DIR: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => chat.on('close', resolve));
    try {
      let stdout = '';
      chat.stdout.on('data', (d) => (stdout += d));
      chat.stdin.write('long\nhelp\n');
      await waitUntil(() => stdout.includes('Step 2 '), 'the reply to stream', 20_000);
      chat.kill('SIGINT');
      expect(await exited).toBe(130);
    } finally {
      if (chat.exitCode === null) chat.kill('SIGKILL');
    }
    const watcher = await TestClient.connect(server);
    // The second line ("help") was never sent: the chat holds the first message and its stopped reply.
    expect(watcher.state!.active!.messages.map((m) => (m.role === 'assistant' ? m.status : m.role))).toEqual(['user', 'stopped']);
    expect(watcher.state!.run).toBeNull();
    await watcher.close();
  }, 60_000);

  it('on SIGHUP (the terminal closed), stops the server it started, with its ACP agent and what that agent started', async () => {
    const dir = await h.tmpDir();
    const cwd = await h.tmpDir();
    const logFile = path.join(await h.tmpDir(), 'acp.log');
    const chat = runCli(['chat', '-a', 'acp/scripted', '-m', 'long', '--acp', `node ${SCRIPT}`, '--acp-id', 'acp/scripted', '--cwd', cwd, '--data-dir', dir], {
      env: { ACP_SCRIPT_LOG: logFile, ACP_SCRIPT_HELPER: '1' },
    });
    await waitUntil(() => chat.stdout.includes('tick 3 '), 'the reply to stream', 20_000);
    const logged = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; pid: number; data: { pid?: number } });
    const pids = [logged.find((r) => r.kind === 'start')!.pid, logged.find((r) => r.kind === 'helper')!.data.pid!];
    try {
      expect(pids.map(isProcessAlive)).toEqual([true, true]);
      await chat.kill('SIGHUP');
      expect((await chat.exited).code).toBe(129);
      await waitUntil(() => !pids.some(isProcessAlive), 'the agent and its helper to stop', 10_000);
    } finally {
      for (const pid of pids.filter(isProcessAlive)) process.kill(pid, 'SIGKILL');
    }
  }, 60_000);
});
