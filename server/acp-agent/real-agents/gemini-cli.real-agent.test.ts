/**
 * The real Gemini CLI (`gemini --acp`) through agentbar, against a stand-in for the Gemini API.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { functionResponses, lastUserText, startFakeGemini } from '../../../test-support/fake-providers/fake-gemini.ts';
import type { ProviderServer } from '../../../test-support/fake-providers/provider-server.ts';
import { agentBin, pinnedVersion } from '../../../test-support/real-agents/real-agents.ts';
import { describeCommonFlows, useDriver, type AgentUnderTest } from '../../../test-support/real-agents/drive-agent.ts';

let fake: ProviderServer;
beforeAll(async () => {
  fake = await startFakeGemini();
});
afterAll(() => fake.close());

const GEMINI: AgentUnderTest = {
  id: 'acp/gemini',
  command: agentBin('gemini'),
  args: ['--acp'],
  // The test's project folder is new to Gemini CLI: trusted, as a user trusts their own.
  env: (f) => ({ GOOGLE_GEMINI_BASE_URL: f.baseUrl, GEMINI_API_KEY: 'gemini-test-key', GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
};
const driver = useDriver(GEMINI, () => fake);

describe(`Gemini CLI (@google/gemini-cli ${pinnedVersion('@google/gemini-cli')})`, () => {
  describeCommonFlows(() => fake, driver, {
    lastUserText,
    toolResults: (request) => new Map([...functionResponses(request)].map(([id, response]) => [id, { content: response, isError: JSON.stringify(response).includes('"error"') }])),
    read: (file) => ({ name: 'read_file', input: { file_path: file } }),
    edit: (file, oldText, newText) => ({ name: 'replace', input: { file_path: file, old_string: oldText, new_string: newText, instruction: 'Change the line.' } }),
    pageInfoTool: 'mcp_agentbar-page_get_page_info',
  });
});
