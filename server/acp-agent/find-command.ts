/**
 * Where an `--acp` command's program is, looked up the way `spawn` will look for it, so a
 * misspelt or uninstalled agent (`gemini` before `npm i -g @google/gemini-cli`) is reported when
 * the server starts instead of on the first message. Nothing is run.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export interface FindCommandOptions {
  /** The folder the agent will start in: a program given as a path is relative to it. */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/**
 * The program's full path, or null when `spawn` would fail with ENOENT (or EACCES).
 *
 * @example findCommand('node', { cwd: process.cwd() }) // '/usr/local/bin/node'
 */
export function findCommand(command: string, options: FindCommandOptions): string | null {
  const env = options.env ?? process.env;
  const windows = (options.platform ?? process.platform) === 'win32';
  // libuv, which spawns without a shell, tries these on Windows; a .cmd (npx.cmd) is not run.
  const extensions = windows ? ['', '.com', '.exe'] : [''];
  // A name with a separator is a path (relative to the agent's folder); only a bare name is searched on PATH.
  const isPath = command.includes('/') || (windows && command.includes('\\'));
  const folders = isPath ? [''] : (env.PATH ?? env.Path ?? '').split(windows ? ';' : path.delimiter).filter(Boolean);
  for (const folder of folders) {
    for (const ext of extensions) {
      const candidate = path.resolve(options.cwd, folder, command + ext);
      if (isRunnable(candidate, windows)) return candidate;
    }
  }
  return null;
}

function isRunnable(file: string, windows: boolean): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (!windows) accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
