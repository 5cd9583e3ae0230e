/**
 * Opening a chat's ACP session for a turn: the one the process already has open, else the one
 * the agent can load (`session/load`), else a new one (`session/new`), which is told the chat so
 * far in the prompt, since it never saw it. An agent that wants a sign-in it offers through
 * environment variables that are set is signed in first (see sign-in-with-env.ts).
 */
import { methods, type AgentCapabilities, type McpServer, type NewSessionResponse } from '@agentclientprotocol/sdk';
import type { RunContext } from '../sdk/agent.ts';
import { readAcpAgentState, recordNewSession } from './acp-agent-state.ts';
import { withTimeout, type AcpSession } from './acp-process.ts';
import { describeAcpError } from './describe-acp-error.ts';
import { describeHistory } from './map-acp.ts';
import type { SessionChoices } from './session-choices.ts';
import { readSessionModels, withSessionModels } from './session-settings.ts';
import { requestSignedIn, SignInRefusedError } from './sign-in-with-env.ts';

export interface OpenSessionOptions {
  /** The agent's id, in what the log and the user read. */
  id: string;
  /** Where sessions start. */
  cwd: string;
  /** How long `session/load` and `session/new` may take. */
  startTimeoutMs: number;
  log: (level: 'info' | 'warn', message: string) => void;
  /** Gives the opened session the chat's mode and settings. */
  choices: SessionChoices;
}

export interface OpenedSession {
  sessionId: string;
  /** The chat's earlier messages for a new session, which never saw them; null when there are none to tell. */
  history: string | null;
}

/** The agent could not start a session: its error, as `cause`, explains a failure to start. */
export class SessionStartError extends Error {
  override name = 'SessionStartError';
  constructor(cause: unknown) {
    super(describeAcpError(cause), { cause });
  }
}

/**
 * The session for this chat: the known one, the one the agent can load, or a new one. Rejects
 * with a {@link SessionStartError} when the agent cannot start a new one.
 *
 * @example const { sessionId, history } = await openSession(ctx, await acp.ensure(), { id, cwd, startTimeoutMs, log, choices });
 */
export async function openSession(ctx: RunContext, session: AcpSession, o: OpenSessionOptions): Promise<OpenedSession> {
  const { agent, known } = session;
  const caps = session.init.agentCapabilities;
  const saved = readAcpAgentState(ctx.state);
  const stored = saved.sessions[ctx.chatId];
  const canLoad = caps?.loadSession === true;
  const mcpServers = pageToolServers(ctx.pageToolServer, caps);
  const signIn = { id: o.id, timeoutMs: o.startTimeoutMs, log: o.log };
  if (stored && known.has(stored)) return { sessionId: stored, history: null };
  if (stored && canLoad) {
    try {
      // The agent replays the conversation as updates while loading: nobody listens, so none of it is shown again.
      const load = () => withTimeout(agent.request(methods.agent.session.load, { sessionId: stored, cwd: o.cwd, mcpServers }), o.startTimeoutMs, 'The agent did not load its session');
      const loaded = await requestSignedIn(session, load, signIn);
      known.add(stored);
      await session.settle?.(stored);
      await o.choices.applyOnOpen(ctx, agent, stored, loaded?.modes, loaded?.configOptions, readSessionModels(loaded));
      return { sessionId: stored, history: null };
    } catch (error) {
      o.log('warn', `${o.id} could not load session ${stored}: ${describeAcpError(error)}; starting a new one`);
    }
  }
  const create = () => withTimeout<NewSessionResponse>(agent.request(methods.agent.session.new, { cwd: o.cwd, mcpServers }), o.startTimeoutMs, 'The agent did not start a session');
  const created = await requestSignedIn(session, create, signIn).catch((error: unknown) => {
    throw error instanceof SignInRefusedError ? error : new SessionStartError(error);
  });
  known.add(created.sessionId);
  const models = readSessionModels(created);
  recordNewSession(saved, ctx.chatId, created.sessionId, withSessionModels(created.configOptions, models));
  ctx.state.set(saved);
  await o.choices.applyOnOpen(ctx, agent, created.sessionId, created.modes, created.configOptions, models);
  const earlier = ctx.messages.slice(0, -1);
  return { sessionId: created.sessionId, history: earlier.length > 0 ? describeHistory(earlier) : null };
}

/**
 * The page tools for a session: over HTTP to an agent that says it takes HTTP MCP servers (ACP lets
 * a client pass one only then), else as the `agentbar mcp` stdio bridge, which every agent takes.
 */
function pageToolServers(server: RunContext['pageToolServer'], caps: AgentCapabilities | undefined): McpServer[] {
  if (!server) return [];
  const toPairs = (record: Record<string, string>) => Object.entries(record).map(([name, value]) => ({ name, value }));
  if (caps?.mcpCapabilities?.http) return [{ type: 'http', name: 'agentbar-page', url: server.url, headers: toPairs(server.headers) }];
  if (server.stdio) return [{ name: 'agentbar-page', command: server.stdio.command, args: server.stdio.args, env: toPairs(server.stdio.env) }];
  return [];
}
