/**
 * The settings an agent offers per chat (ACP agents announce theirs per session as config
 * options: the model, the reasoning level…), checked and bounded before they reach the state
 * every client renders: they come from another program, and a client shows each as a menu.
 */
import { BOOLEAN_SETTING_OPTIONS } from '../../shared/agent-setting.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { AgentSetting, AgentSettingOption } from '../../shared/schemas.ts';
import { normalizeList, readKey, readLine } from './normalize-list.ts';

/** Settings kept per agent; coding agents offer two or three (model, mode, reasoning level). */
export const MAX_AGENT_SETTINGS = 20;
/** Values kept per setting: a model list behind a router can run to hundreds. */
export const MAX_SETTING_OPTIONS = 100;
/** Values kept over all of an agent's settings, so its entry in every client's state stays small. */
export const MAX_SETTING_OPTIONS_TOTAL = 400;
const MAX_NAME_LENGTH = 100;
const MAX_DESCRIPTION_LENGTH = 300;
const MAX_CATEGORY_LENGTH = 64;

/**
 * A setting as an agent author or an ACP agent gives it: the default may be left out (the first
 * value). A menu lists its `options`; a `type: 'boolean'` switch has none (its values are `"true"`
 * and `"false"`, Off unless `defaultValue` says otherwise).
 */
export type AgentSettingInput =
  | { id: string; name: string; description?: string; category?: string; type?: string; defaultValue?: string; options: readonly AgentSettingOption[] }
  | { id: string; name: string; description?: string; category?: string; type: 'boolean'; defaultValue?: string | boolean };

/** A value or a setting's id as the protocol takes it, or null. */
function readId(value: unknown): string | null {
  return readKey(value, LIMITS.maxSettingIdLength);
}

/** A setting's values: each once, at most MAX_SETTING_OPTIONS and at most `room`, what is left of the agent's budget. */
function normalizeOptions(options: readonly unknown[], room: number): AgentSettingOption[] {
  return normalizeList(options, {
    max: Math.min(MAX_SETTING_OPTIONS, room),
    pickKey: (fields) => readId(fields.value),
    build: (value, { name, description, group }) => {
      const option: AgentSettingOption = { value, name: readLine(name, MAX_NAME_LENGTH) ?? value };
      const about = readLine(description, MAX_DESCRIPTION_LENGTH);
      if (about) option.description = about;
      const shownGroup = readLine(group, MAX_NAME_LENGTH);
      if (shownGroup) option.group = shownGroup;
      return option;
    },
  });
}

/** One setting as the state holds it, with at most `room` values; null when it is left with none. */
function buildSetting(id: string, fields: Readonly<Record<string, unknown>>, room: number): AgentSetting | null {
  const { name, description, category, defaultValue, type } = fields;
  const isSwitch = type === 'boolean';
  // A switch's values are fixed, so every client can draw it as one.
  const given = isSwitch ? BOOLEAN_SETTING_OPTIONS : fields.options;
  if (!Array.isArray(given)) return null;
  const options = normalizeOptions(given, room);
  if (options.length === 0) return null;
  const wanted = readId(typeof defaultValue === 'boolean' ? String(defaultValue) : defaultValue);
  const setting: AgentSetting = {
    id,
    name: readLine(name, MAX_NAME_LENGTH) ?? id,
    ...(isSwitch ? { type: 'boolean' } : {}),
    // A switch is Off unless it says otherwise.
    defaultValue: wanted && options.some((o) => o.value === wanted) ? wanted : isSwitch ? 'false' : options[0]!.value,
    options,
  };
  const about = readLine(description, MAX_DESCRIPTION_LENGTH);
  if (about) setting.description = about;
  const kind = readLine(category, MAX_CATEGORY_LENGTH);
  if (kind) setting.category = kind;
  return setting;
}

/**
 * The settings as the state holds them: ids and values trimmed and each once (within the
 * protocol's length), names, descriptions and groups on one line and clipped, a missing name
 * replaced by the id, a default that is not among the values replaced by the first value; at most
 * MAX_AGENT_SETTINGS settings and MAX_SETTING_OPTIONS values each (MAX_SETTING_OPTIONS_TOTAL in
 * all). Entries without a usable id, and settings left with no value, are left out. A
 * `type: 'boolean'` setting gets the values On (`"true"`) and Off (`"false"`), whatever options it
 * gave; another type is a menu.
 *
 * @example normalizeSettings([{ id: 'model', name: 'Model', options: [{ value: 'opus', name: 'Opus' }, { value: 'sonnet', name: 'Sonnet' }] }])
 * // [{ id: 'model', name: 'Model', defaultValue: 'opus', options: [{ value: 'opus', name: 'Opus' }, { value: 'sonnet', name: 'Sonnet' }] }]
 */
export function normalizeSettings(settings: readonly unknown[]): AgentSetting[] {
  let total = 0;
  return normalizeList(settings, {
    max: MAX_AGENT_SETTINGS,
    isFull: () => total >= MAX_SETTING_OPTIONS_TOTAL,
    pickKey: (fields) => readId(fields.id),
    build: (id, fields) => {
      const setting = buildSetting(id, fields, MAX_SETTING_OPTIONS_TOTAL - total);
      if (setting) total += setting.options.length;
      return setting;
    },
  });
}
