/**
 * Reads `DATA_DIR/server.json`, the file a running server writes (PROTOCOL §1), for the commands
 * that talk to it (`agentbar chat`, `agentbar sign-in`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface ConnectionInfo {
  /** `ws://127.0.0.1:PORT/ws` */
  url: string;
  /** `http://127.0.0.1:PORT` */
  http: string;
  token: string;
}

/**
 * @example const { url, token } = await readConnectionFile(defaultDataDir());
 * @throws Error whose message says which file and what is wrong with it, ready to print.
 */
export async function readConnectionFile(dataDir: string): Promise<ConnectionInfo> {
  const file = path.join(path.resolve(dataDir), 'server.json');
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    const { url, http, token } = (parsed ?? {}) as Record<string, unknown>;
    if (typeof url !== 'string' || typeof token !== 'string') throw new Error('missing url or token');
    // Files written before `http` existed still name the same port.
    const httpUrl = typeof http === 'string' ? http : url.replace(/^ws/, 'http').replace(/\/ws$/, '');
    return { url, http: httpUrl, token };
  } catch (error) {
    throw new Error(`no running server found (${file}: ${(error as Error).message}). Start one with \`agentbar serve\`.`);
  }
}
