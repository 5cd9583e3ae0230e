/**
 * `agentbar serve`: the demo agents on one port, until SIGINT / SIGTERM / SIGHUP, which flush the chats,
 * remove the connection file and exit 0.
 */
import { PROXY_USAGE, USAGE } from './options.ts';
import { parseServeArgs, proxyToServeArgs, UsageError } from './parse-args.ts';
import path from 'node:path';
import type { AgentDefinition } from '../sdk/agent.ts';
import { readPackageVersion } from '../host/package-info.ts';
import { defaultDataDir } from '../host/data-dir.ts';

/** Each command's help, loaded only when asked for (each command's module is loaded on use). */
const USAGES: Record<string, () => Promise<string>> = {
  serve: async () => USAGE,
  proxy: async () => PROXY_USAGE,
  chat: async () => (await import('./chat-command.ts')).CHAT_USAGE,
  agents: async () => (await import('./agents-command.ts')).AGENTS_USAGE,
  sessions: async () => (await import('./sessions-command.ts')).SESSIONS_USAGE,
  'sign-in': async () => (await import('./sign-in-command.ts')).SIGN_IN_USAGE,
  mcp: async () => (await import('./mcp-command.ts')).MCP_USAGE,
};

/** `agentbar help [command]`: that command's help (serve's without one), exit 0; 2 for no such command. */
async function printHelp(topic: string | undefined, extra: string | undefined): Promise<number> {
  const usage = USAGES[topic ?? 'serve'];
  if (!usage || extra !== undefined) {
    const what = extra !== undefined ? `one command at a time, got ${topic} ${extra}` : `no command called ${topic}`;
    console.error(`agentbar help: ${what} (the commands: ${Object.keys(USAGES).join(', ')})`);
    return 2;
  }
  console.log(await usage());
  return 0;
}

/** Runs `agentbar chat | agents | sessions | sign-in`; usage mistakes exit 2, refusals 1. */
async function runSubcommand(sub: string, argv: string[]): Promise<number> {
  const { CliError } = await import('./chat-turn.ts');
  try {
    if (sub === 'chat') return await (await import('./chat-command.ts')).runChat(argv);
    if (sub === 'agents') return await (await import('./agents-command.ts')).runAgents(argv);
    if (sub === 'sessions') return await (await import('./sessions-command.ts')).runSessions(argv);
    if (sub === 'mcp') return await (await import('./mcp-command.ts')).runMcp(argv);
    return await (await import('./sign-in-command.ts')).runSignIn(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`agentbar ${sub}: ${error.message}\n\n${await USAGES[sub]!()}`);
      return 2;
    }
    if (error instanceof CliError) {
      console.error(error.message.startsWith('Error:') ? error.message : `agentbar ${sub}: ${error.message}`);
      return error.exitCode;
    }
    throw error;
  }
}

export async function main(argv: string[]): Promise<void> {
  const sub = argv[0];
  if (sub === '--version' || sub === '-v' || sub === 'version') {
    console.log(`agentbar ${readPackageVersion()}`);
    return;
  }
  if (sub === 'help') process.exit(await printHelp(argv[1], argv[2]));
  if (sub === 'chat' || sub === 'agents' || sub === 'sessions' || sub === 'sign-in' || sub === 'mcp') {
    process.exit(await runSubcommand(sub, argv.slice(1)));
  }
  let args;
  const usage = sub === 'proxy' ? PROXY_USAGE : USAGE;
  try {
    args = parseServeArgs(sub === 'proxy' ? proxyToServeArgs(argv) : argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`agentbar: ${error.message}\n\n${usage}`);
      process.exit(2);
    }
    throw error;
  }
  if (args.command === 'help') {
    console.log(usage);
    return;
  }
  if (args.unsafeExpose) console.error('[agentbar] WARNING: --unsafe-expose: listening beyond loopback. Anyone who can reach this address and learns the token can drive the agent.');
  let server;
  const { buildAgents } = await import('./build-agents.ts');
  let built;
  try {
    built = await buildAgents(args, path.resolve(args.dataDir ?? defaultDataDir()));
  } catch (error) {
    console.error(`agentbar: ${(error as Error).message}`);
    process.exit(2);
  }
  const agents: AgentDefinition[] = built.agents;
  const modelLine = built.summary.map((line) => `\n  ${line}`).join('');
  // Shared with the proxy: the codes `agentbar sign-in` asks the server for open either.
  const signIn = (await import('../edge/sign-in-links.ts')).createSignInLinks();
  try {
    // Loaded here: `--version`, help and usage mistakes answer without loading the server.
    const { startServer } = await import('../server.ts');
    server = await startServer({
      signIn,
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
  let proxy: { close(): Promise<void> } | null = null;
  let proxyLines = '';
  if (args.proxy) {
    const { startProxyFor } = await import('./proxy-banner.ts');
    try {
      const started = await startProxyFor(args.proxy, server, signIn);
      proxy = started.proxy;
      proxyLines = started.lines;
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      console.error(`agentbar: cannot start the proxy: ${e.code === 'EADDRINUSE' ? `port ${args.proxy.port} is in use; try --proxy-port 0 for a free one` : e.message}`);
      await server.close();
      process.exit(1);
    }
  }
  console.log(`agentbar ${readPackageVersion()} is running.${proxyLines}
  Demo page:       ${server.signInUrl()}
                   (opens once, within 5 minutes; \`agentbar sign-in\` prints a new one)
  WebSocket:       ${server.url}
  Connection file: ${server.connectionFile}
  Data:            ${server.dataDir}${modelLine}
Press Ctrl+C to stop.`);
  // After the banner, so its answer (or the lack of one) never delays the server.
  for (const check of built.checks) void check();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // After SIGHUP the terminal is gone: writing to it could fail (EIO) before the chats are saved.
    if (signal !== 'SIGHUP') console.log(`\nagentbar: ${signal}, saving chats…`);
    Promise.all([proxy?.close(), server.close()]).then(
      () => process.exit(0),
      (error) => {
        console.error('agentbar: error while stopping:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Closing the terminal sends SIGHUP: without this, chats waiting to be written and an ACP agent's processes were left behind.
  process.on('SIGHUP', () => stop('SIGHUP'));
}
