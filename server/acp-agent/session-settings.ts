/**
 * An ACP session's config options (its model, mode, reasoning level…) as agentbar settings. ACP
 * gives them per session with each one's current value; agentbar shows them per agent, with a
 * value per chat, so a setting's default is what a new session starts with.
 */
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import type { AgentSettingInput } from '../sdk/agent-settings.ts';

type SelectOption = Extract<SessionConfigOption, { type: 'select' }>;
type BooleanOption = Extract<SessionConfigOption, { type: 'boolean' }>;

/** The options agentbar shows: ACP's selects (menus) and booleans (switches); a type it does not know is left out. */
function listKnown(options: readonly SessionConfigOption[]): (SelectOption | BooleanOption)[] {
  return options.filter(
    (o): o is SelectOption | BooleanOption =>
      typeof o?.id === 'string' && ((o.type === 'select' && Array.isArray(o.options)) || (o.type === 'boolean' && typeof o.currentValue === 'boolean')),
  );
}

/**
 * The session's options as agentbar settings: selects as menus, their grouped values flattened
 * with their group's name, and booleans as switches; a setting's default is `defaults[id]` when it
 * still offers it, else the session's current value.
 *
 * @example toAgentSettings(created.configOptions, { model: 'default' })
 */
export function toAgentSettings(options: readonly SessionConfigOption[], defaults: Readonly<Record<string, string>>): AgentSettingInput[] {
  return listKnown(options).map((o): AgentSettingInput => {
    const about = { ...(o.description ? { description: o.description } : {}), ...(o.category ? { category: o.category } : {}) };
    if (o.type === 'boolean') {
      const kept = defaults[o.id];
      return { id: o.id, name: o.name, type: 'boolean', defaultValue: kept === 'true' || kept === 'false' ? kept : String(o.currentValue), ...about };
    }
    const values = o.options.flatMap((entry) =>
      'group' in entry && Array.isArray(entry.options)
        ? entry.options.map((v) => ({ value: v.value, name: v.name, ...(v.description ? { description: v.description } : {}), group: entry.name }))
        : 'value' in entry
          ? [{ value: entry.value, name: entry.name, ...(entry.description ? { description: entry.description } : {}) }]
          : [],
    );
    const kept = defaults[o.id];
    return { id: o.id, name: o.name, defaultValue: kept !== undefined && values.some((v) => v.value === kept) ? kept : o.currentValue, options: values, ...about };
  });
}

/**
 * Each option's current value in the session, by option id, as agentbar holds it (a boolean as
 * `"true"` or `"false"`).
 *
 * @example readCurrentValues(created.configOptions) // { model: 'default', mode: 'plan', fast: 'false' }
 */
export function readCurrentValues(options: readonly SessionConfigOption[]): Record<string, string> {
  return Object.fromEntries(listKnown(options).map((o) => [o.id, String(o.currentValue)]));
}

/**
 * Whether the session's option is a boolean (its `session/set_config_option` takes `type:
 * "boolean"` and a boolean); undefined when the options do not include it.
 *
 * @example isBooleanOption(options, 'fast') // true
 */
export function isBooleanOption(options: readonly SessionConfigOption[] | undefined, configId: string): boolean | undefined {
  const option = options?.find((o) => o?.id === configId);
  return option ? option.type === 'boolean' : undefined;
}

/**
 * Whether the options include the session's mode: ACP asks clients to use such an option instead
 * of the older `modes`, which agents keep sending for clients that know only those.
 */
export function hasModeOption(options: readonly SessionConfigOption[]): boolean {
  return listKnown(options).some((o) => o.type === 'select' && o.category === 'mode');
}
