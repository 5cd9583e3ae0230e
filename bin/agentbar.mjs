#!/usr/bin/env node
// The `agentbar` command. Installed from npm it runs the compiled JavaScript in lib/; in a checkout
// of the repository (where the TypeScript sources are) it runs them through tsx, so `npm start`
// always runs the code as it is, with no compile step. The tests set AGENTBAR_TEST_CLI to the same
// sources bundled once per test run (test-support/cli-bundle.ts), which starts in half the time.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const source = new URL('../server/cli/main.ts', import.meta.url);
let cli;
if (process.env.AGENTBAR_TEST_CLI && existsSync(source)) {
  cli = await import(pathToFileURL(process.env.AGENTBAR_TEST_CLI).href);
} else if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(source.href);
} else {
  cli = await import('../lib/server/cli/main.js');
}
await cli.main(process.argv.slice(2));
