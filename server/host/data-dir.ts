/** Where chats and `server.json` live unless told otherwise. */
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * `$AGENTBAR_DATA_DIR`, else `~/.agentbar`.
 *
 * @example defaultDataDir() // '/home/me/.agentbar'
 */
export function defaultDataDir(): string {
  return process.env.AGENTBAR_DATA_DIR || path.join(homedir(), '.agentbar');
}
