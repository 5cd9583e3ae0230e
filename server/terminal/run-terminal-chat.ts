/**
 * `agentbar chat`: the terminal client. Finds the running server through its connection file.
 */
import readline from 'node:readline';
import WebSocket from 'ws';
import { createSyncClient } from '../../shared/sync-client.ts';
import { createWebSocketConnector } from '../../shared/transport.ts';
import { readConnectionFile, type ConnectionInfo } from '../connection-file.ts';
import { defaultDataDir } from '../server.ts';
import { createTerminalChat, TERMINAL_HELP } from './terminal-chat.ts';

export const CHAT_USAGE = `Usage: agentbar chat [--data-dir <dir>]

Chats with the agent of the running agentbar server from this terminal. The server is found through
DATA_DIR/server.json (default $AGENTBAR_DATA_DIR or ~/.agentbar).`;

export async function runTerminalChat(argv: string[]): Promise<number> {
  let dataDir = defaultDataDir();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--data-dir' && argv[i + 1]) dataDir = argv[++i]!;
    else if (a.startsWith('--data-dir=')) dataDir = a.slice('--data-dir='.length);
    else if (a === '-h' || a === '--help') {
      console.log(CHAT_USAGE);
      return 0;
    } else {
      console.error(`agentbar chat: unknown option ${a}\n\n${CHAT_USAGE}`);
      return 2;
    }
  }
  let connection: ConnectionInfo;
  try {
    connection = await readConnectionFile(dataDir);
  } catch (error) {
    console.error(`agentbar chat: ${(error as Error).message}`);
    return 1;
  }
  const url = new URL(connection.url);
  url.searchParams.set('token', connection.token);
  const client = createSyncClient({ connect: createWebSocketConnector(url.toString(), WebSocket), client: { kind: 'cli', name: 'agentbar chat' } });
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  return new Promise<number>((resolve) => {
    const quit = () => {
      chat.dispose();
      client.close();
      rl.close();
      resolve(0);
    };
    const chat = createTerminalChat({ client, write: (s) => process.stdout.write(s), onQuit: quit });
    process.stdout.write(`Connecting to ${connection.url}… (/help for commands)\n`);
    client.start();
    rl.on('line', (line) => void chat.handleLine(line));
    rl.on('close', quit);
  });
}

export { TERMINAL_HELP };
