#!/usr/bin/env node
// `npm run test:node24`: runs the unit and socket tests (vitest) on another Node version, the one
// users most likely have, besides the machine's own. The binary comes from the npm registry's `node`
// package (pinned below), installed once under node_modules/.cache so a second run starts at once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSIONS = { 24: '24.21.0', 22: '22.23.3' };
const major = process.argv[2] ?? '24';
const version = VERSIONS[major] ?? major;
if (!/^\d+\.\d+\.\d+$/.test(version)) {
  console.error(`Usage: node bin/test-on-node.mjs <major|x.y.z> [vitest args…] (known majors: ${Object.keys(VERSIONS).join(', ')})`);
  process.exit(2);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prefix = path.join(root, 'node_modules', '.cache', 'agentbar-node', version);
const binDir = path.join(prefix, 'node_modules', '.bin');
const npmCli = process.env.npm_execpath && process.env.npm_execpath.endsWith('.js') ? process.env.npm_execpath : null;

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

if (!existsSync(path.join(binDir, 'node'))) {
  mkdirSync(prefix, { recursive: true });
  console.log(`Installing Node ${version} from the npm registry into ${path.relative(root, prefix)}…`);
  const args = ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `node@${version}`];
  const status = npmCli ? run(process.execPath, [npmCli, ...args]) : run('npm', args);
  if (status !== 0 || !existsSync(path.join(binDir, 'node'))) {
    console.error(`Could not install Node ${version} (npm exited ${status}).`);
    process.exit(1);
  }
}

// vitest starts its workers with process.execPath, so running it with that binary is enough.
const node = path.join(binDir, 'node');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` };
const probe = spawnSync(node, ['--version'], { encoding: 'utf8' });
console.log(`Running the unit and socket tests on Node ${probe.stdout.trim()}`);
process.exit(run(node, [vitest, 'run', ...process.argv.slice(3)], env));
