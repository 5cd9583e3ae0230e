/**
 * The real Claude Code ACP adapter through agentbar, against a stand-in for Anthropic's API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserText, startFakeAnthropic, toolResults } from '../../../test-support/fake-providers/fake-anthropic.ts';
import type { ProviderServer } from '../../../test-support/fake-providers/provider-server.ts';
import { agentBin, pinnedVersion } from '../../../test-support/real-agents/real-agents.ts';
import type { AssistantMessage } from '../../../shared/schemas.ts';
import { userMessage } from '../../../test-support/test-client.ts';
import { lastMessage } from '../../../test-support/test-server.ts';
import { describeCommonFlows, useDriver, type AgentUnderTest } from '../../../test-support/real-agents/drive-agent.ts';

let fake: ProviderServer;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());

const CLAUDE: AgentUnderTest = {
  id: 'acp/claude',
  command: agentBin('claude-agent-acp'),
  // IS_SANDBOX: as root, Claude Code refuses to skip permissions unless told it runs in a sandbox.
  env: (f) => ({ ANTHROPIC_BASE_URL: f.baseUrl, ANTHROPIC_API_KEY: 'sk-ant-test', IS_SANDBOX: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' }),
};
const driver = useDriver(CLAUDE, () => fake);
const missingClaude = useDriver({ ...CLAUDE, env: (f) => ({ ...CLAUDE.env(f), CLAUDE_CODE_EXECUTABLE: '/nonexistent/claude' }) }, () => fake);
// Claude Code retries a refused key ten times (about 100 s); once is enough to see what the user gets.
// Retrying as it does by default, without a word: the reply says so after a while.
const quietRetries = useDriver({ ...CLAUDE, options: { quietNoticeMs: 3000 } }, () => fake);
const retryOnce = useDriver({ ...CLAUDE, env: (f) => ({ ...CLAUDE.env(f), CLAUDE_CODE_MAX_RETRIES: '1' }) }, () => fake);

describe(`Claude Code (@zed-industries/claude-agent-acp ${pinnedVersion('@zed-industries/claude-agent-acp')})`, () => {
  describeCommonFlows(() => fake, driver, {
    lastUserText,
    toolResults,
    read: (file) => ({ name: 'Read', input: { file_path: file } }),
    edit: (file, oldText, newText) => ({ name: 'Edit', input: { file_path: file, old_string: oldText, new_string: newText } }),
    pageInfoTool: 'mcp__agentbar-page__get_page_info',
  });

  it('says why it cannot start when Claude Code itself is missing', async () => {
    const d = await missingClaude.start();
    const reply = await d.ask('hello');
    expect(reply.status).toBe('failed');
    expect(reply.error).toMatch(/^The agent failed: Query closed before response received\./);
    expect(reply.error).toContain('CLAUDE_CODE_EXECUTABLE');
    // The adapter's SDK dumps the whole request on stderr: not in what the user reads.
    expect(reply.error).not.toContain('Error handling request');

  });

  it("reports the provider's refusal of the key in its own words", async () => {
    fake.respond = () => ({ status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    const d = await retryOnce.start();
    const reply = await d.ask('hello');
    expect(reply.status).toBe('failed');
    expect(reply.error).toBe('The agent failed: Invalid API key · Fix external API key.');
  });

  it('says on the reply when Claude Code retries its API without a word, and Stop ends the wait', async () => {
    fake.respond = () => ({ status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    const d = await quietRetries.start();
    await d.cli.ok('message.send', userMessage(d.chatId, 'hello'));
    await d.cli.waitFor(() => (lastMessage(d.cli.state) as AssistantMessage | undefined)?.notices?.some((n) => n.title === 'No word from acp/claude for 3 s') === true, 20_000, 'the notice');
    await d.cli.ok('run.stop', { chatId: d.chatId });
    await d.cli.waitFor(() => d.cli.state?.run === null, 20_000, 'the run to stop');
    expect(lastMessage(d.cli.state)).toMatchObject({ role: 'assistant', status: 'stopped' });
  });
});
