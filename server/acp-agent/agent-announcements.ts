/**
 * What an ACP agent announces about itself and its sessions, in a turn or between turns, that
 * agentbar keeps on the agent's state rather than on a reply: the commands it takes, and the title
 * it gives a session, which names that session's chat.
 */
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { AgentStateAccess } from '../sdk/agent.ts';
import { describeError } from '../sync/describe-error.ts';
import { findChatOfSession } from './acp-agent-state.ts';

/**
 * The agent's commands become the agent's `/name` commands; commands agentbar cannot keep are
 * logged, not thrown: they come outside any turn. Nothing is kept before the agent's state is known.
 *
 * @example publishCommands(agentState, commands, { id: 'acp/claude-agent', log });
 */
export function publishCommands(state: Pick<AgentStateAccess, 'setCommands'> | null, commands: readonly AvailableCommand[], o: { id: string; log: (level: 'info' | 'warn', message: string) => void }): void {
  try {
    state?.setCommands(commands.map((c) => ({ name: c.name, description: c.description, ...(c.input?.hint ? { hint: c.input.hint } : {}) })));
  } catch (error) {
    o.log('warn', `${o.id} announced commands agentbar could not keep: ${describeError(error)}`);
  }
}

/**
 * The agent named a session: its chat takes the title (never over a name the user gave).
 *
 * @example nameChatOfSession(agentState, 'sess_1', 'Fix the login form');
 */
export function nameChatOfSession(state: Pick<AgentStateAccess, 'get' | 'setChatTitle'> | null, sessionId: string, title: string): void {
  const chatId = findChatOfSession(state, sessionId);
  if (!chatId || !state) return;
  try {
    state.setChatTitle(chatId, title);
  } catch {
    // a title without words: the chat keeps its name
  }
}
