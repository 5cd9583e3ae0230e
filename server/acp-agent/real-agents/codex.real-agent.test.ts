/**
 * The real Codex ACP adapter (`@zed-industries/codex-acp`, one linux-x64 binary) through
 * agentbar, against a stand-in for OpenAI's Responses API.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionOutputs, lastUserText, startFakeResponses } from '../../../test-support/fake-providers/fake-responses.ts';
import type { ProviderServer } from '../../../test-support/fake-providers/provider-server.ts';
import { agentBin, pinnedVersion, realAgentsDir } from '../../../test-support/real-agents/real-agents.ts';
import { describeApprovalQuestion } from '../../cli/approval-prompt.ts';
import { describeCommonFlows, replyText, useDriver, type AgentUnderTest } from '../../../test-support/real-agents/drive-agent.ts';

let fake: ProviderServer;
beforeAll(async () => {
  fake = await startFakeResponses();
});
afterAll(() => fake.close());

/** A provider of its own in Codex's config.toml, as the README sets Codex up for another endpoint. */
function writeCodexConfig(f: ProviderServer, home: string, model = 'gpt-5.3-codex', approvalPolicy = 'untrusted'): void {
  mkdirSync(path.join(home, '.codex'), { recursive: true });
  writeFileSync(
    path.join(home, '.codex', 'config.toml'),
    [
      `model = "${model}"`,
      'model_provider = "stand-in"',
      // Ask before anything but known read-only commands, as a cautious user sets Codex up.
      `approval_policy = "${approvalPolicy}"`,
      '',
      '[model_providers.stand-in]',
      'name = "Responses stand-in"',
      `base_url = "${f.baseUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "STAND_IN_API_KEY"',
      '',
    ].join('\n'),
  );
}

const CODEX: AgentUnderTest = {
  id: 'acp/codex',
  command: agentBin('codex-acp'),
  env: (f, home) => ({ CODEX_HOME: path.join(home!, '.codex'), STAND_IN_API_KEY: 'sk-test' }),
  // Codex refuses to put its sandbox helper under /tmp, and then cannot run a command in its sandbox.
  homeParent: path.join(realAgentsDir(), 'homes'),
  prepareHome: async (f, home) => writeCodexConfig(f, home),
};
const driver = useDriver(CODEX, () => fake);
// OpenAI itself, signed in with OPENAI_API_KEY only (no `codex login`), at the stand-in's address.
const OPENAI_CONFIG = (f: ProviderServer) => ['model = "gpt-5.3-codex"', `openai_base_url = "${f.baseUrl}/v1"`, 'approval_policy = "untrusted"', ''].join('\n');
const withApiKey = useDriver({ ...CODEX, env: (f, home) => ({ CODEX_HOME: path.join(home!, '.codex'), OPENAI_API_KEY: 'sk-test' }), prepareHome: async (f, home) => writeFile(home, OPENAI_CONFIG(f)) }, () => fake);
const withoutApiKey = useDriver({ ...CODEX, env: (f, home) => ({ CODEX_HOME: path.join(home!, '.codex') }), prepareHome: async (f, home) => writeFile(home, OPENAI_CONFIG(f)) }, () => fake);
const unknownModel = useDriver({ ...CODEX, prepareHome: async (f, home) => writeCodexConfig(f, home, 'stand-in-model') }, () => fake);
const onRequest = useDriver({ ...CODEX, prepareHome: async (f, home) => writeCodexConfig(f, home, 'gpt-5.3-codex', 'on-request') }, () => fake);
const brokenConfig = useDriver({ ...CODEX, prepareHome: async (f, home) => writeFile(home, 'model = "gpt-5.3-codex\nmodel_provider = "x"\n') }, () => fake);

/** Runs `node ARGS` from the repository, to its end (killed after a minute). */
function runCommand(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function writeFile(home: string, config: string): void {
  mkdirSync(path.join(home, '.codex'), { recursive: true });
  writeFileSync(path.join(home, '.codex', 'config.toml'), config);
}

describe(`Codex (@zed-industries/codex-acp ${pinnedVersion('@zed-industries/codex-acp')})`, () => {
  describeCommonFlows(() => fake, driver, {
    lastUserText,
    toolResults: functionOutputs,
    read: (file) => ({ name: 'exec_command', input: { cmd: `cat ${path.basename(file)}` } }),
    edit: (file, oldText, newText) => ({ name: 'apply_patch', input: {}, freeform: `*** Begin Patch\n*** Update File: ${file}\n-${oldText}\n+${newText}\n*** End Patch\n` }),
    pageInfoTool: 'mcp__agentbar_page__get_page_info',
  });

  it('signs in with OPENAI_API_KEY by itself, and shows its transport warning as a notice', async () => {
    fake.respond = (r) => (lastUserText(r).includes('hello') ? { steps: [{ text: 'Hello from Codex.' }] } : undefined);
    const d = await withApiKey.start();
    const reply = await d.ask('hello');
    expect(reply.status).toBe('done');
    expect(replyText(reply)).toBe('Hello from Codex.');
    // The stand-in speaks no WebSocket: Codex falls back to HTTPS and says so, before the answer.
    expect(reply.notices?.map((n) => n.title)).toContain('Falling back from WebSockets to HTTPS transport');
  });

  it('names the variable to set when OPENAI_API_KEY is missing', async () => {
    const d = await withoutApiKey.start();
    const reply = await d.ask('hello');
    expect(reply.status).toBe('failed');
    expect(reply.error).toContain('Set CODEX_API_KEY or OPENAI_API_KEY in the environment of the agentbar server');
  });

  it("shows Codex's model-metadata warning as a notice, not as the answer", async () => {
    fake.respond = (r) => (lastUserText(r).includes('hello') ? { steps: [{ text: 'Hello from Codex.' }] } : undefined);
    const d = await unknownModel.start();
    const reply = await d.ask('hello');
    expect(replyText(reply)).toBe('Hello from Codex.');
    expect(reply.notices?.map((n) => n.title).join(' ')).toMatch(/metadata/i);
  });

  it('shows the error that stopped Codex from starting, not its backtrace', async () => {
    const d = await brokenConfig.start();
    const reply = await d.ask('hello');
    expect(reply.status).toBe('failed');
    expect(reply.error).toMatch(/^The agent process exited with code 1\. Its output: Error: error loading config: .*config\.toml:1:23: invalid basic string/);
    expect(reply.error).toContain('Codex could not read its config');
    expect(reply.error).not.toMatch(/thread_start|std::/);
  });

  it('prints its tool calls in agentbar chat as what they do, never its raw input', async () => {
    const parent = path.join(realAgentsDir(), 'homes');
    mkdirSync(parent, { recursive: true });
    const home = mkdtempSync(path.join(parent, 'home-'));
    const cwd = mkdtempSync(path.join(tmpdir(), 'agentbar-codex-cli-'));
    try {
      // The model may ask to leave the sandbox, and the user is asked.
      writeCodexConfig(fake, home, 'gpt-5.3-codex', 'on-request');
      writeFileSync(path.join(cwd, 'hello.txt'), 'hi\n');
      fake.respond = (r) => {
        if (functionOutputs(r).has('call_rm')) return { steps: [{ text: 'Deleted hello.txt.' }] };
        if (lastUserText(r).includes('delete hello')) return { steps: [{ toolCall: { id: 'call_rm', name: 'exec_command', input: { cmd: 'rm -f hello.txt', sandbox_permissions: 'require_escalated', justification: 'Do you want me to delete hello.txt, as you asked?' } } }] };
        return undefined;
      };
      const args = ['bin/agentbar.mjs', 'chat', '--data-dir', path.join(home, 'agentbar'), '--acp', agentBin('codex-acp'), '--acp-id', 'acp/codex', '--cwd', cwd, '-a', 'acp/codex', '-m', 'delete hello.txt', '--yes'];
      // Not spawnSync: the stand-in answers from this process.
      const run = await runCommand(args, { ...process.env, HOME: home, CODEX_HOME: path.join(home, '.codex'), STAND_IN_API_KEY: 'sk-test' });
      const printed = run.stdout + run.stderr;
      expect(run.status, printed).toBe(0);
      expect(run.stdout).toContain('Deleted hello.txt.');
      expect(printed).toContain('rm -f hello.txt');
      expect(printed).not.toMatch(/call_id|turn_id|process_id|parsed_cmd/);
      expect(existsSync(path.join(cwd, 'hello.txt'))).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("asks the user Codex's own question to leave its sandbox, as the command line prints it", async () => {
    fake.respond = (r) => {
      if (functionOutputs(r).has('call_rm')) return { steps: [{ text: 'Deleted hello.txt.' }] };
      if (lastUserText(r).includes('delete hello')) return { steps: [{ toolCall: { id: 'call_rm', name: 'exec_command', input: { cmd: 'rm -f hello.txt', sandbox_permissions: 'require_escalated', justification: 'Do you want me to delete hello.txt, as you asked?' } } }] };
      return undefined;
    };
    const d = await onRequest.start();
    writeFileSync(path.join(d.cwd, 'hello.txt'), 'hi\n');
    const questions: string[] = [];
    const reply = await d.ask('delete hello.txt', (call) => {
      questions.push(describeApprovalQuestion(call));
      return true;
    });
    expect(replyText(reply)).toBe('Deleted hello.txt.');
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('Do you want me to delete hello.txt, as you asked?');
    expect(questions[0]).toContain('rm -f hello.txt');
    expect(questions[0]).not.toMatch(/call_id|turn_id|process_id|parsed_cmd/);
  });
});
