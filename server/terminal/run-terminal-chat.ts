/**
 * The interactive `agentbar chat -a AGENT` on a terminal: the live transcript of the active chat,
 * messages to AGENT, and the slash commands (/help). The client is already connected and holds
 * the state, so nothing typed is read or sent before the first snapshot.
 */
import readline from 'node:readline';
import type { SyncClient } from '../../shared/sync-client.ts';
import { createTerminalChat, TERMINAL_HELP } from './terminal-chat.ts';

/**
 * @example const status = await runTerminalChatOn(client, { agent: 'demo/guide' });
 */
export function runTerminalChatOn(client: SyncClient, options: { agent: string }): Promise<number> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  return new Promise<number>((resolve) => {
    const quit = () => {
      chat.dispose();
      rl.close();
      resolve(0);
    };
    const chat = createTerminalChat({ client, write: (s) => process.stdout.write(s), onQuit: quit, agent: options.agent });
    process.stdout.write(`Talking to ${options.agent}. /help for commands, Ctrl+D to leave.\n`);
    rl.on('line', (line) => void chat.handleLine(line));
    rl.on('close', quit);
  });
}

export { TERMINAL_HELP };
