/**
 * The unit, socket and process tests, as three vitest projects that run at once on every core:
 *
 * - `unit`: tests beside the code that need no socket of the server's and start no process;
 * - `wire`: `server/wire/`, a real server on port 0 and real WebSocket clients in one process;
 * - `process`: `*.process.test.ts`, which start `agentbar` (or another program) as a process. They
 *   run the command bundled once for the whole run (test-support/cli-bundle.ts), not through tsx.
 *
 * `npm run test:unit -- --project unit` runs one of them. The pack-and-install test has its own
 * config (vitest.package.config.ts): it needs the build. e2e/ is Playwright's.
 */
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const WIRE = ['server/wire/**/*.test.ts'];
const PROCESS = ['**/*.process.test.ts'];
// The real coding agents have their own config (vitest.real-agents.config.ts): they need a 400 MB install.
const REAL_AGENTS = ['**/*.real-agent.test.ts'];

export default defineConfig({
  // Preact's automatic JSX runtime, as in vite.config.ts (the toolbar's build).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    environment: 'node',
    exclude: ['e2e/**', 'node_modules/**', 'dist/**', 'lib/**', 'test-support/package-install.test.ts', ...REAL_AGENTS],
    globalSetup: ['test-support/cli-bundle.ts'],
    // Every core, and two on a two-core machine (vitest's default there is one): the process
    // tests spend much of their time waiting for the processes they started.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Threads start faster than processes; nothing here needs a process of its own.
          pool: 'threads',
          include: ['{bench,docs,test-support,shared,server,toolbar,vite-plugin}/**/*.test.{ts,tsx}'],
          exclude: ['e2e/**', 'node_modules/**', 'dist/**', 'lib/**', 'test-support/package-install.test.ts', ...REAL_AGENTS, ...WIRE, ...PROCESS],
        },
      },
      // A process each: they open sockets and (process) start and signal children.
      { extends: true, test: { name: 'wire', include: WIRE, pool: 'forks' } },
      { extends: true, test: { name: 'process', include: PROCESS, pool: 'forks' } },
    ],
  },
});
