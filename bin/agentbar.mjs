#!/usr/bin/env node
// The `agentbar` command. Installed from npm it runs the compiled JavaScript in lib/; in a checkout
// of the repository (where the TypeScript sources are) it runs them through tsx, so `npm start` and
// the tests always run the code as it is, with no compile step.
import { existsSync } from 'node:fs';

const source = new URL('../server/cli/main.ts', import.meta.url);
let cli;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(source.href);
} else {
  cli = await import('../lib/server/cli/main.js');
}
await cli.main(process.argv.slice(2));
