import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium when it is there (CI, machines without Playwright's browser download);
// Playwright's own browser everywhere else.
const systemChromium = process.env.AGENTBAR_CHROMIUM ?? '/usr/bin/chromium';
const executablePath = existsSync(systemChromium) ? systemChromium : undefined;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  // The spawned servers run `agentbar` bundled once for the run, not through tsx.
  globalSetup: './test-support/cli-bundle.ts',
  // Files run side by side, each file's tests one after another (they share its server).
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  projects: [
    { name: 'toolbar', testIgnore: 'real-apps/**' },
    // Apps made with `npm create vite`, and the proxy's Vite, webpack-dev-server and Next.js apps
    // (kept under ~/.cache/agentbar-real-apps): the first run installs them, hence the long
    // timeout; their tests share no state, so they spread over both workers.
    { name: 'real-apps', testDir: 'e2e/real-apps', timeout: 300_000, fullyParallel: true },
  ],
  use: {
    headless: true,
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    // A trace records every action's DOM: a fifth of the run. Rerun a failure with --trace on.
    trace: 'off',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
    },
  },
});
