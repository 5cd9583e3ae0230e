/**
 * The file access agentbar offers an ACP agent (`fs/read_text_file`, `fs/write_text_file`): text
 * files inside the working folder only, with a size limit. A path outside it, through `..` or a
 * symlink, is refused with a clear error; the agent sees the error and can tell the user.
 */
import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The largest text file an agent may read or write through agentbar. */
export const MAX_AGENT_FILE_BYTES = 10 * 1024 * 1024;

/** Resolves `given` and checks that it stays inside `root`, symlinks followed. */
async function resolveInside(root: string, given: string): Promise<string> {
  if (!path.isAbsolute(given)) throw new Error(`Paths must be absolute: ${given}`);
  const realRoot = await realpath(root);
  const target = path.resolve(given);
  // The deepest part of the path that exists decides where it really points.
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      existing = await realpath(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) throw new Error(`No such path: ${given}`);
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
  const real = path.join(existing, ...rest);
  const relative = path.relative(realRoot, real);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`${given} is outside the working folder ${root}; agentbar only lets the agent reach files inside it`);
  return real;
}

/**
 * Reads a text file inside `root`, optionally from a 1-based `line` for `limit` lines.
 *
 * @example const { content } = await readTextInside('/repo', { path: '/repo/src/app.ts', line: 10, limit: 20 });
 */
export async function readTextInside(root: string, request: { path: string; line?: number | null; limit?: number | null }): Promise<{ content: string }> {
  const file = await resolveInside(root, request.path);
  const info = await stat(file);
  if (!info.isFile()) throw new Error(`${request.path} is not a file`);
  if (info.size > MAX_AGENT_FILE_BYTES) throw new Error(`${request.path} is ${info.size} bytes; agentbar reads at most ${MAX_AGENT_FILE_BYTES}`);
  let content = await readFile(file, 'utf8');
  if (request.line != null || request.limit != null) {
    const lines = content.split('\n');
    const from = Math.max(0, (request.line ?? 1) - 1);
    content = lines.slice(from, request.limit != null ? from + request.limit : undefined).join('\n');
  }
  return { content };
}

/**
 * Writes a text file inside `root`, making its folders.
 *
 * @example await writeTextInside('/repo', { path: '/repo/notes.txt', content: 'hi' });
 */
export async function writeTextInside(root: string, request: { path: string; content: string }): Promise<Record<string, never>> {
  if (Buffer.byteLength(request.content, 'utf8') > MAX_AGENT_FILE_BYTES) throw new Error(`The content is over ${MAX_AGENT_FILE_BYTES} bytes; agentbar writes at most that`);
  const file = await resolveInside(root, request.path);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, request.content, 'utf8');
  return {};
}
