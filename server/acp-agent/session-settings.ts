/**
 * An ACP session's config options (its model, mode, reasoning level…) as agentbar settings. ACP
 * gives them per session with each one's current value; agentbar shows them per agent, with a
 * value per chat, so a setting's default is what a new session starts with. An agent that gives
 * its models as ACP's `models` instead (Gemini CLI) has them shown as one more option.
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
 * A session's models as ACP's `models` gives them (`SessionModelState`, which Gemini CLI answers
 * `session/new` with instead of a config option); switched with `session/set_model`.
 */
export interface SessionModels {
  currentModelId: string;
  availableModels: { modelId: string; name: string; description?: string }[];
}

/** The setting a session's `models` are shown as: the Model menu, as a model config option is. */
export const MODELS_SETTING_ID = 'model';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The `models` of an agent's answer to `session/new` or `session/load`, checked: it comes from
 * another program, and ACP's SDK no longer types it. Null when there are none usable.
 *
 * @example readSessionModels({ sessionId: 's', models: { currentModelId: 'pro', availableModels: [{ modelId: 'pro', name: 'Pro' }] } })
 * // { currentModelId: 'pro', availableModels: [{ modelId: 'pro', name: 'Pro' }] }
 */
export function readSessionModels(answer: unknown): SessionModels | null {
  const models = isRecord(answer) ? answer.models : undefined;
  if (!isRecord(models) || typeof models.currentModelId !== 'string' || !Array.isArray(models.availableModels)) return null;
  const availableModels = models.availableModels.flatMap((m: unknown) => {
    if (!isRecord(m) || typeof m.modelId !== 'string' || !m.modelId) return [];
    const name = typeof m.name === 'string' && m.name.trim() ? m.name : m.modelId;
    return [{ modelId: m.modelId, name, ...(typeof m.description === 'string' && m.description ? { description: m.description } : {}) }];
  });
  return availableModels.length > 0 ? { currentModelId: models.currentModelId, availableModels } : null;
}

/**
 * Whether the session's `models` carry its Model setting: it has them, and no config option of
 * its own is the model (ACP asks clients to prefer the config option).
 *
 * @example usesSessionModels(undefined, geminiModels, 'model') // true
 */
export function usesSessionModels(options: readonly SessionConfigOption[] | null | undefined, models: SessionModels | null | undefined, setting: string): boolean {
  return Boolean(models) && setting === MODELS_SETTING_ID && !hasModelOption(options ?? []);
}

/**
 * The session's config options with its `models` as one more: a Model select, so the toolbar's
 * menu, `/set model` and the chat's value work as for an agent that gives its model as an option.
 *
 * @example withSessionModels(undefined, { currentModelId: 'pro', availableModels: [{ modelId: 'pro', name: 'Pro' }] })
 * // [{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'pro', options: [{ value: 'pro', name: 'Pro' }] }]
 */
export function withSessionModels(options: readonly SessionConfigOption[] | null | undefined, models: SessionModels | null | undefined): SessionConfigOption[] {
  const given = Array.isArray(options) ? [...options] : [];
  if (!models || !usesSessionModels(given, models, MODELS_SETTING_ID)) return given;
  const values = models.availableModels.map((m) => ({ value: m.modelId, name: m.name, ...(m.description ? { description: m.description } : {}) }));
  return [...given, { id: MODELS_SETTING_ID, name: 'Model', category: 'model', type: 'select', currentValue: models.currentModelId, options: values }];
}

/** Whether an option already is the model (by its category, or by taking the Model setting's id). */
function hasModelOption(options: readonly SessionConfigOption[]): boolean {
  return options.some((o) => o?.id === MODELS_SETTING_ID || o?.category === 'model');
}

/**
 * Whether the options include the session's mode: ACP asks clients to use such an option instead
 * of the older `modes`, which agents keep sending for clients that know only those.
 */
export function hasModeOption(options: readonly SessionConfigOption[]): boolean {
  return listKnown(options).some((o) => o.type === 'select' && o.category === 'mode');
}
