/**
 * `agentbar agents --soul ID`: the agent's soul as it is kept in DATA_DIR/souls, and the file to
 * edit to change it. Read from disk, so it needs no server.
 */
import path from 'node:path';
import { readSoul, soulFile } from '../model-agent/souls.ts';
import { shownOn } from './terminal/terminal-text.ts';
import { UsageError } from './parse-args.ts';

/**
 * Prints the soul of `agentId`; exit status 0.
 *
 * @example await printSoul(dataDir, 'persona/reviewer')
 */
export async function printSoul(dataDir: string, agentId: string): Promise<number> {
  const dir = path.join(path.resolve(dataDir), 'souls');
  let file: string;
  try {
    file = soulFile(dir, agentId);
  } catch (error) {
    throw new UsageError(`--soul: ${(error as Error).message}`);
  }
  const soul = await readSoul(dir, agentId, Number.MAX_SAFE_INTEGER);
  console.log(`Soul of ${agentId} (${file}; edit that file to change it, it is read before every reply):`);
  // The soul is the model's words: on a terminal, escape sequences must not act.
  console.log(soul ? shownOn(process.stdout)(soul) : '(none yet)');
  return 0;
}
