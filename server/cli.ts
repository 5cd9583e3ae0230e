/**
 * `agentbar serve`: the demo agents on one port, until SIGINT / SIGTERM, which flush the chats,
 * remove the connection file and exit 0.
 */
import { createDemoAgents } from './demo-agents.ts';
import { parseServeArgs, UsageError, USAGE } from './cli-args.ts';
import path from 'node:path';
import type { AgentDefinition } from './agent.ts';
import { defaultDataDir, startServer } from './server.ts';

export async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'chat') {
    const { runTerminalChat } = await import('./terminal/run-terminal-chat.ts');
    process.exit(await runTerminalChat(argv.slice(1)));
  }
  if (argv[0] === 'sign-in') {
    const { runSignIn } = await import('./sign-in-command.ts');
    process.exit(await runSignIn(argv.slice(1)));
  }
  let args;
  try {
    args = parseServeArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`agentbar: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  }
  if (args.command === 'help') {
    console.log(USAGE);
    return;
  }
  if (args.unsafeExpose) console.error('[agentbar] WARNING: --unsafe-expose: listening beyond loopback. Anyone who can reach this address and learns the token can drive the agent.');
  let server;
  // AGENTBAR_DEMO_PACE_MS lets tests and demos stream the demo replies faster or slower.
  const agents: AgentDefinition[] = createDemoAgents(process.env.AGENTBAR_DEMO_PACE_MS ? { paceMs: Number(process.env.AGENTBAR_DEMO_PACE_MS) } : {});
  let modelLine = '';
  if (args.model) {
    const { createModelAgentFromArgs } = await import('./model-agent/from-args.ts');
    const made = createModelAgentFromArgs(args.model, path.resolve(args.dataDir ?? defaultDataDir()));
    agents.unshift(made.agent);
    modelLine = `\n  Model agent:     ${made.summary}`;
  }
  try {
    server = await startServer({
      agents,
      port: args.port,
      host: args.host,
      dataDir: args.dataDir,
      token: args.token,
      allowOrigins: args.allowOrigins,
      exposeBeyondLoopback: args.unsafeExpose,
    });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const why = e.code === 'EADDRINUSE' ? `port ${args.port} is in use; try --port 0 for a free one` : e.message;
    console.error(`agentbar: cannot start: ${why}`);
    process.exit(1);
  }
  console.log(`agentbar is running.
  Demo page:       ${server.signInUrl()}
                   (opens once, within 5 minutes; \`agentbar sign-in\` prints a new one)
  WebSocket:       ${server.url}
  Connection file: ${server.connectionFile}
  Data:            ${server.dataDir}${modelLine}
Press Ctrl+C to stop.`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\nagentbar: ${signal}, saving chats…`);
    server.close().then(
      () => process.exit(0),
      (error) => {
        console.error('agentbar: error while stopping:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
