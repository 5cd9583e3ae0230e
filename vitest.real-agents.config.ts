/**
 * `npm run test:real-agents`: the real Claude Code, Gemini CLI and Codex ACP adapters (pinned in
 * test-support/real-agents/) driven through agentbar against local stand-ins of their model APIs
 * (test-support/fake-providers/). No network and no API key: each agent is pointed at the stand-in.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['server/acp-agent/real-agents/*.real-agent.test.ts'],
    // The agents, and the `agentbar` command bundled once (for the tests that run it).
    globalSetup: ['test-support/real-agents/real-agents.ts', 'test-support/cli-bundle.ts'],
    pool: 'forks',
    // One agent at a time: each is a heavy process tree, and two cores are shared with it.
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
