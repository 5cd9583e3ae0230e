/**
 * Which mode an agent works in, in one chat (PROTOCOL extension `mode.set`): the one recorded in
 * the chat, else the agent's first. Shared so the server, the toolbar and the terminal agree.
 */
import type { State } from './schemas.ts';

/**
 * The agent's mode in the chat; undefined when the agent offers no modes.
 *
 * @example findCurrentMode(state, chatId, 'acp/claude-code') // 'plan'
 */
export function findCurrentMode(state: Pick<State, 'agents' | 'chats'>, chatId: string | null | undefined, agentId: string): string | undefined {
  const modes = state.agents.find((a) => a.id === agentId)?.modes;
  if (!modes?.length) return undefined;
  const chosen = chatId ? state.chats[chatId]?.modes?.[agentId] : undefined;
  // A mode the agent no longer offers is not one it can be in.
  return chosen !== undefined && modes.some((m) => m.id === chosen) ? chosen : modes[0]!.id;
}
