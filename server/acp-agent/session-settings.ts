/**
 * An ACP session's config options (its model, mode, reasoning level…) as agentbar settings. ACP
 * gives them per session with each one's current value; agentbar shows them per agent, with a
 * value per chat, so a setting's default is what a new session starts with.
 */
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import type { AgentSettingInput } from '../agent-settings.ts';

type SelectOption = Extract<SessionConfigOption, { type: 'select' }>;

/** The options a client can show as a menu: ACP's selects (agentbar does not announce booleans, so agents send none). */
function listSelects(options: readonly SessionConfigOption[]): SelectOption[] {
  return options.filter((o): o is SelectOption => o?.type === 'select' && typeof o.id === 'string' && Array.isArray(o.options));
}

/**
 * The session's options as agentbar settings: selects only, grouped values flattened with their
 * group's name; a setting's default is `defaults[id]` when it still offers it, else the session's
 * current value.
 *
 * @example toAgentSettings(created.configOptions, { model: 'default' })
 */
export function toAgentSettings(options: readonly SessionConfigOption[], defaults: Readonly<Record<string, string>>): AgentSettingInput[] {
  return listSelects(options).map((o) => {
    const values = o.options.flatMap((entry) =>
      'group' in entry && Array.isArray(entry.options)
        ? entry.options.map((v) => ({ value: v.value, name: v.name, ...(v.description ? { description: v.description } : {}), group: entry.name }))
        : 'value' in entry
          ? [{ value: entry.value, name: entry.name, ...(entry.description ? { description: entry.description } : {}) }]
          : [],
    );
    const kept = defaults[o.id];
    const setting: AgentSettingInput = {
      id: o.id,
      name: o.name,
      defaultValue: kept !== undefined && values.some((v) => v.value === kept) ? kept : o.currentValue,
      options: values,
    };
    if (o.description) setting.description = o.description;
    if (o.category) setting.category = o.category;
    return setting;
  });
}

/**
 * Each select's current value in the session, by option id.
 *
 * @example readCurrentValues(created.configOptions) // { model: 'default', mode: 'plan' }
 */
export function readCurrentValues(options: readonly SessionConfigOption[]): Record<string, string> {
  return Object.fromEntries(listSelects(options).map((o) => [o.id, o.currentValue]));
}

/**
 * Whether the options include the session's mode: ACP asks clients to use such an option instead
 * of the older `modes`, which agents keep sending for clients that know only those.
 */
export function hasModeOption(options: readonly SessionConfigOption[]): boolean {
  return listSelects(options).some((o) => o.category === 'mode');
}
