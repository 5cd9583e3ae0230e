/**
 * An agentbar agent backed by any coding agent that speaks ACP (Claude Code through its ACP
 * adapter, Gemini CLI, …): one ACP session per chat, the user's message and page context as the
 * prompt, the agent's text, thoughts, tool calls, plan and permission requests streamed into the
 * reply, Stop as `session/cancel`.
 */
import path from 'node:path';
import type { UsageUpdate } from '@agentclientprotocol/sdk';
import type { AgentDefinition, AgentStateAccess } from '../sdk/agent.ts';
import { describeError } from '../sync/describe-error.ts';
import { findSessionOfChat } from './acp-agent-state.ts';
import { AcpProcess } from './acp-process.ts';
import { nameChatOfSession, publishCommands } from './agent-announcements.ts';
import { deriveAcpId } from './derive-acp-id.ts';
import { describeRunFailure } from './describe-run-failure.ts';
import { LatestBySession } from './latest-by-session.ts';
import { openSession } from './open-session.ts';
import { runTurn, waitForPreviousTurn } from './run-turn.ts';
import { SessionChoices } from './session-choices.ts';

export { deriveAcpId };

export interface AcpAgentOptions {
  /** The command that starts the agent, and its arguments. */
  command: string;
  args?: readonly string[];
  /** Agent id; by default derived from the command (`acp/claude-agent`). */
  id?: string;
  description?: string;
  /** Where sessions start and the only folder the agent may read and write through agentbar. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** How long starting the process, `initialize` and `session/new` may take (default 60 s). */
  startTimeoutMs?: number;
  /** How long the agent may say nothing during a turn before the reply gets a notice saying so (default 30 s; 0: never). */
  quietNoticeMs?: number;
  log?: (level: 'info' | 'warn', message: string) => void;
}

/**
 * An agent that forwards each chat to an ACP coding agent run as a child process.
 *
 * @example
 * const claude = createAcpAgent({ command: 'npx', args: ['@zed-industries/claude-agent-acp'], cwd: process.cwd() });
 * await startServer({ agents: [claude] });
 */
export function createAcpAgent(options: AcpAgentOptions): AgentDefinition {
  const args = options.args ?? [];
  const id = options.id ?? deriveAcpId(options.command, args);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const log = options.log ?? (() => {});
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  /** Where what the agent announces between turns goes: its state, known from its first run (which starts the process). */
  let agentState: AgentStateAccess | null = null;
  const choices = new SessionChoices({ id, log });
  const usage = new LatestBySession<UsageUpdate>();
  const turns = new Map<string, Promise<unknown>>();
  const acp = new AcpProcess({
    command: options.command,
    args,
    cwd,
    ...(options.env ? { env: options.env } : {}),
    startTimeoutMs,
    log,
    onCommands: (commands) => publishCommands(agentState, commands, { id, log }),
    onConfigOptions: (sessionId, configOptions) => choices.noteOptions(agentState, sessionId, configOptions),
    onModeUpdate: (sessionId, modeId) => typeof modeId === 'string' && choices.noteMode(sessionId, modeId),
    onUsage: (sessionId, update) => usage.keep(sessionId, update),
    onTitle: (sessionId, title) => nameChatOfSession(agentState, sessionId, title),
  });

  /** The chat's session when the running process has it open (a pick changes it at once); else it takes the pick when it opens. */
  const findOpenSession = async (chatId: string) => {
    const sessionId = findSessionOfChat(agentState, chatId);
    if (!sessionId || !acp.running) return null;
    const { agent, known } = await acp.ensure();
    return known.has(sessionId) ? { agent, sessionId } : null;
  };

  return {
    id,
    description: options.description ?? `${[options.command, ...args].join(' ')} over ACP, in ${cwd}`,
    async onModeChange({ chatId, mode }) {
      const open = await findOpenSession(chatId);
      if (open) return choices.changeMode(open.agent, open.sessionId, mode);
    },
    async onSettingChange({ chatId, setting, value, state }) {
      const open = await findOpenSession(chatId);
      if (open) return choices.changeSetting(open.agent, open.sessionId, { setting, value, state }, agentState);
    },
    async run(ctx) {
      agentState = ctx.state;
      let session;
      try {
        session = await acp.ensure();
      } catch (error) {
        throw new Error(describeError(error));
      }
      // A stopped turn may still be closing its session: the next one opens it after that.
      await waitForPreviousTurn(turns, findSessionOfChat(agentState, ctx.chatId));
      let opened;
      try {
        opened = await openSession(ctx, session, { id, cwd, startTimeoutMs, log, choices });
      } catch (error) {
        throw await describeRunFailure(error, id, session, acp);
      }
      await runTurn(ctx, session, opened, { id, acp, choices, usage, turns, log, ...(options.quietNoticeMs !== undefined ? { quietNoticeMs: options.quietNoticeMs } : {}) });
    },
    dispose: () => acp.stop(),
  };
}
