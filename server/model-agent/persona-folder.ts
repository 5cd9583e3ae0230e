/**
 * The persona folder while the server runs: the agents were registered at start and cannot be
 * added or taken away, so a persona file added or removed since is only reported in the log,
 * once, at the next reply of any agent (one `readdir`).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

type Log = (level: 'info' | 'warn' | 'error', message: string) => void;

async function listPersonaFiles(dir: string): Promise<Set<string>> {
  try {
    return new Set((await readdir(dir)).filter((n) => n.endsWith('.md')));
  } catch {
    return new Set();
  }
}

/**
 * The folder as it is now, and `check()`, which logs what was added or removed since the last look.
 *
 * @example const check = await watchPersonaFolder(path.join(dataDir, 'agents'), log); await check();
 */
export async function watchPersonaFolder(dir: string, log: Log): Promise<() => Promise<void>> {
  let known = await listPersonaFiles(dir);
  return async () => {
    const now = await listPersonaFiles(dir);
    for (const name of now) {
      if (!known.has(name)) log('warn', `New persona file ${path.join(dir, name)}: it is served after a restart (agents are fixed while the server runs)`);
    }
    for (const name of known) {
      if (!now.has(name)) log('warn', `Persona file removed: ${path.join(dir, name)}: its agent, if it was served, keeps its last version until a restart`);
    }
    known = now;
  };
}
