/**
 * Which value an agent's setting has in one chat (PROTOCOL extension `setting.set`): the one
 * recorded in the chat, else the setting's default. Shared so the server, the toolbar and the
 * terminal agree.
 */
import type { AgentSetting, State } from './schemas.ts';

/**
 * The value of one setting in the chat: the chat's choice while the setting still offers it, else
 * the setting's `defaultValue`.
 *
 * @example findSettingValue(state, chatId, 'acp/claude-code', modelSetting) // 'opus'
 */
export function findSettingValue(state: Pick<State, 'chats'>, chatId: string | null | undefined, agentId: string, setting: AgentSetting): string {
  const chosen = chatId ? state.chats[chatId]?.settings?.[agentId]?.[setting.id] : undefined;
  // A value the agent no longer offers is not one the chat can have.
  return chosen !== undefined && setting.options.some((o) => o.value === chosen) ? chosen : setting.defaultValue;
}

/**
 * Every setting of the agent with its value in the chat, by setting id; empty when it offers none.
 *
 * @example findChatSettings(state, chatId, 'acp/claude-code') // { model: 'opus', effort: 'high' }
 */
export function findChatSettings(state: Pick<State, 'agents' | 'chats'>, chatId: string | null | undefined, agentId: string): Record<string, string> {
  const settings = state.agents.find((a) => a.id === agentId)?.settings ?? [];
  return Object.fromEntries(settings.map((s) => [s.id, findSettingValue(state, chatId, agentId, s)]));
}
