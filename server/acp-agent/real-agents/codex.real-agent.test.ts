/**
 * The real Codex ACP adapter (`@zed-industries/codex-acp`, one linux-x64 binary) through
 * agentbar, against a stand-in for OpenAI's Responses API.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionOutputs, lastUserText, startFakeResponses } from '../../../test-support/fake-providers/fake-responses.ts';
import type { ProviderServer } from '../../../test-support/fake-providers/provider-server.ts';
import { agentBin, pinnedVersion, realAgentsDir } from '../../../test-support/real-agents/real-agents.ts';
import { describeCommonFlows, replyText, useDriver, type AgentUnderTest } from './drive-agent.ts';

let fake: ProviderServer;
beforeAll(async () => {
  fake = await startFakeResponses();
});
afterAll(() => fake.close());

/** A provider of its own in Codex's config.toml, as the README sets Codex up for another endpoint. */
function writeCodexConfig(f: ProviderServer, home: string, model = 'gpt-5.3-codex'): void {
  mkdirSync(path.join(home, '.codex'), { recursive: true });
  writeFileSync(
    path.join(home, '.codex', 'config.toml'),
    [
      `model = "${model}"`,
      'model_provider = "stand-in"',
      // Ask before anything but known read-only commands, as a cautious user sets Codex up.
      'approval_policy = "untrusted"',
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
const brokenConfig = useDriver({ ...CODEX, prepareHome: async (f, home) => writeFile(home, 'model = "gpt-5.3-codex\nmodel_provider = "x"\n') }, () => fake);

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
});
