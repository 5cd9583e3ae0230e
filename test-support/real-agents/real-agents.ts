/**
 * The real coding agents `npm run test:real-agents` drives, installed from the registry at the
 * versions pinned in this folder's package-lock.json. They go into node_modules/.cache (one folder
 * per lockfile, so a changed pin installs afresh), never into the project's own dependencies:
 * together they are 400 MB and `npm test` does not need them.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

/** Where the pinned agents are installed, e.g. node_modules/.cache/agentbar-real-agents/1a2b3c4d5e6f. */
export function realAgentsDir(): string {
  const lock = readFileSync(path.join(HERE, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).digest('hex').slice(0, 12);
  return path.join(ROOT, 'node_modules/.cache/agentbar-real-agents', hash);
}

/** The path of an installed agent's command, e.g. `agentBin('claude-agent-acp')`. */
export function agentBin(name: string): string {
  return path.join(realAgentsDir(), 'node_modules/.bin', name);
}

/** The pinned version of a package, for test names and the README. */
export function pinnedVersion(name: string): string {
  const pkg = JSON.parse(readFileSync(path.join(HERE, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return pkg.dependencies[name] ?? '?';
}

/**
 * Vitest's global setup: installs the pinned agents once (`npm ci`, from npm's own cache when it
 * has them), then leaves them for the next run.
 */
export default function installRealAgents(): void {
  const dir = realAgentsDir();
  const done = path.join(dir, '.installed');
  if (existsSync(done)) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(HERE, 'package.json'), path.join(dir, 'package.json'));
  copyFileSync(path.join(HERE, 'package-lock.json'), path.join(dir, 'package-lock.json'));
  // Their install scripts only build optional native parts (node-pty, keytar) the tests never use.
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline'], { cwd: dir, stdio: 'inherit' });
  writeFileSync(done, new Date().toISOString());
}
