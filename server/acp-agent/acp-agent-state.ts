/**
 * What an ACP agent keeps across restarts on its agentbar state: the ACP session of each chat (at
 * most one per chat), and the config values a new session starts with.
 */
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import { LIMITS } from '../../shared/limits.ts';
import type { AgentStateAccess } from '../sdk/agent.ts';
import { readCurrentValues } from './session-settings.ts';

export interface AcpAgentState {
  sessions: Record<string, string>;
  /** Each config option's value in the latest new session: a chat's until it picks another. */
  defaults?: Record<string, string>;
}

/**
 * A copy of the saved state to change and set again; parts missing or malformed start empty.
 *
 * @example const saved = readAcpAgentState(ctx.state); // { sessions: { chat_1: 'sess_1' } }
 */
export function readAcpAgentState(state: Pick<AgentStateAccess, 'get'>): AcpAgentState {
  const saved = state.get<AcpAgentState>();
  const defaults = saved && typeof saved.defaults === 'object' && saved.defaults !== null ? { defaults: { ...saved.defaults } } : {};
  return { sessions: { ...(saved && typeof saved.sessions === 'object' ? saved.sessions : {}) }, ...defaults };
}

/**
 * The config values a new session starts with, as saved.
 *
 * @example toAgentSettings(options, readDefaults(state))
 */
export function readDefaults(state: Pick<AgentStateAccess, 'get'>): Record<string, string> {
  return state.get<AcpAgentState>()?.defaults ?? {};
}

/**
 * The ACP session of a chat, if it had one; none before the agent's first run gave its state.
 *
 * @example const sessionId = findSessionOfChat(agentState, 'chat_1'); // 'sess_1'
 */
export function findSessionOfChat(state: Pick<AgentStateAccess, 'get'> | null, chatId: string): string | undefined {
  return state?.get<AcpAgentState>()?.sessions?.[chatId];
}

/**
 * The chat of an ACP session: sessions are kept by chat, at most one per chat.
 *
 * @example findChatOfSession(agentState, 'sess_1') // 'chat_1'
 */
export function findChatOfSession(state: Pick<AgentStateAccess, 'get'> | null, sessionId: string): string | undefined {
  const sessions = state?.get<AcpAgentState>()?.sessions ?? {};
  return Object.keys(sessions).find((chat) => sessions[chat] === sessionId);
}

/**
 * Records a chat's new session as the newest, and its config values as what the next new
 * session starts with. Deleted chats leave their sessions behind: the oldest go once there are
 * more than chats can be.
 *
 * @example recordNewSession(saved, 'chat_1', created.sessionId, created.configOptions); ctx.state.set(saved);
 */
export function recordNewSession(saved: AcpAgentState, chatId: string, sessionId: string, options: readonly SessionConfigOption[] | null | undefined): void {
  delete saved.sessions[chatId];
  saved.sessions[chatId] = sessionId;
  const ids = Object.keys(saved.sessions);
  for (const old of ids.slice(0, Math.max(0, ids.length - LIMITS.maxChats))) delete saved.sessions[old];
  if (Array.isArray(options) && options.length) saved.defaults = readCurrentValues(options);
}
