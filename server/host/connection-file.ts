/**
 * `DATA_DIR/server.json`, the file a running server writes for its clients (PROTOCOL §1): written
 * here (atomically, mode 0600) and read here against one schema, by the server, the commands
 * (`agentbar chat`, `agents`, `sessions`, `sign-in`) and the tests.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../persistence/atomic-file.ts';

export const ConnectionFileSchema = v.object({
  /** `ws://127.0.0.1:PORT/ws` */
  url: v.pipe(v.string(), v.startsWith('ws')),
  /** `http://127.0.0.1:PORT` */
  http: v.pipe(v.string(), v.startsWith('http')),
  token: v.pipe(v.string(), v.minLength(16)),
  pid: v.pipe(v.number(), v.integer()),
  /** Only while `agentbar proxy` runs: its address and the dev server behind it (`agentbar sign-in` signs into it). */
  proxy: v.optional(v.object({ url: v.pipe(v.string(), v.startsWith('http')), upstream: v.string() })),
});
export type ConnectionFile = v.InferOutput<typeof ConnectionFileSchema>;
/** What a client needs of it. */
export type ConnectionInfo = Pick<ConnectionFile, 'url' | 'http' | 'token'>;

export function connectionFilePath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'server.json');
}

/**
 * @example await writeConnectionFile(dataDir, { url, http, token, pid: process.pid });
 */
export async function writeConnectionFile(dataDir: string, file: ConnectionFile): Promise<string> {
  const target = connectionFilePath(dataDir);
  // Atomic and created 0600: a reader never sees half a file, and the token is never world-readable.
  await writeFileAtomic(target, JSON.stringify(v.parse(ConnectionFileSchema, file), null, 2) + '\n');
  return target;
}

/**
 * The file's content, or null when there is none (or it does not match the schema).
 *
 * @example const file = await tryReadConnectionFile(dataDir);
 */
export async function tryReadConnectionFile(dataDir: string): Promise<ConnectionFile | null> {
  try {
    const parsed = v.safeParse(ConnectionFileSchema, JSON.parse(await readFile(connectionFilePath(dataDir), 'utf8')));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/**
 * @example const { url, token } = await readConnectionFile(defaultDataDir());
 * @throws Error whose message says which file and what is wrong with it, ready to print.
 */
export async function readConnectionFile(dataDir: string): Promise<ConnectionFile> {
  const file = connectionFilePath(dataDir);
  let why: string;
  try {
    const parsed = v.safeParse(ConnectionFileSchema, JSON.parse(await readFile(file, 'utf8')));
    if (parsed.success) return parsed.output;
    why = `not a connection file: ${parsed.issues[0]!.message} at ${v.getDotPath(parsed.issues[0]!) ?? 'the top'}`;
  } catch (error) {
    why = (error as Error).message;
  }
  throw new Error(`no running server found (${file}: ${why}). Start one with \`agentbar serve\`.`);
}

/**
 * Why the server a connection file names did not answer, and what to do, ready to print. A server
 * that was killed (or crashed) leaves its file behind; "fetch failed" alone said none of that.
 *
 * @example describeSilentServer(dataDir, info, error) // 'the server named in …/server.json (pid 4242, http://127.0.0.1:4477) does not answer (ECONNREFUSED): …'
 */
export function describeSilentServer(dataDir: string, info: Pick<ConnectionFile, 'http' | 'pid'>, error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
  return `the server named in ${connectionFilePath(dataDir)} (pid ${info.pid}, ${info.http}) does not answer (${why}): it may have stopped without removing that file. Start one with \`agentbar serve\`.`;
}
