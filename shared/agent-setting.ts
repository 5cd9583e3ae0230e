/**
 * Which value an agent's setting has in one chat (PROTOCOL extension `setting.set`): the one
 * recorded in the chat, else the setting's default. Shared so the server, the toolbar and the
 * terminal agree.
 */
import type { AgentSetting, AgentSettingOption, State } from './schemas.ts';

/** The values of a boolean setting (an on/off switch), in the order a menu lists them. */
export const BOOLEAN_SETTING_OPTIONS: readonly AgentSettingOption[] = [
  { value: 'true', name: 'On' },
  { value: 'false', name: 'Off' },
];

/**
 * Whether a setting is an on/off switch (its values `"true"` and `"false"`) rather than a menu.
 *
 * @example isBooleanSetting({ id: 'fast', name: 'Fast mode', type: 'boolean', defaultValue: 'false', options: BOOLEAN_SETTING_OPTIONS }) // true
 */
export function isBooleanSetting(setting: Pick<AgentSetting, 'type'>): boolean {
  return setting.type === 'boolean';
}

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
