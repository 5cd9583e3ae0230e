/**
 * The settings an agent offers per chat (ACP agents announce theirs per session as config
 * options: the model, the reasoning level…), checked and bounded before they reach the state
 * every client renders: they come from another program, and a client shows each as a menu.
 */
import { BOOLEAN_SETTING_OPTIONS } from '../../shared/agent-setting.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { AgentSetting, AgentSettingOption } from '../../shared/schemas.ts';
import { truncateLine } from '../../shared/truncate.ts';

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

function readId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= LIMITS.maxSettingIdLength ? trimmed : null;
}

function describeLine(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.trim() ? truncateLine(value, max) : undefined;
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
  const kept: AgentSetting[] = [];
  const ids = new Set<string>();
  let total = 0;
  for (const entry of settings) {
    if (kept.length >= MAX_AGENT_SETTINGS || total >= MAX_SETTING_OPTIONS_TOTAL) break;
    if (typeof entry !== 'object' || entry === null) continue;
    const { id: rawId, name, description, category, defaultValue, options: given, type } = entry as Record<string, unknown>;
    const id = readId(rawId);
    const isSwitch = type === 'boolean';
    // A switch's values are fixed, so every client can draw it as one.
    const options = isSwitch ? BOOLEAN_SETTING_OPTIONS : given;
    if (!id || ids.has(id) || !Array.isArray(options)) continue;
    const values = new Set<string>();
    const keptOptions: AgentSettingOption[] = [];
    for (const raw of options as unknown[]) {
      if (keptOptions.length >= MAX_SETTING_OPTIONS || total + keptOptions.length >= MAX_SETTING_OPTIONS_TOTAL) break;
      if (typeof raw !== 'object' || raw === null) continue;
      const o = raw as Record<string, unknown>;
      const value = readId(o.value);
      if (!value || values.has(value)) continue;
      values.add(value);
      const option: AgentSettingOption = { value, name: describeLine(o.name, MAX_NAME_LENGTH) ?? value };
      const about = describeLine(o.description, MAX_DESCRIPTION_LENGTH);
      if (about) option.description = about;
      const group = describeLine(o.group, MAX_NAME_LENGTH);
      if (group) option.group = group;
      keptOptions.push(option);
    }
    if (keptOptions.length === 0) continue;
    ids.add(id);
    total += keptOptions.length;
    const wanted = readId(typeof defaultValue === 'boolean' ? String(defaultValue) : defaultValue);
    const setting: AgentSetting = {
      id,
      name: describeLine(name, MAX_NAME_LENGTH) ?? id,
      ...(isSwitch ? { type: 'boolean' } : {}),
      // A switch is Off unless it says otherwise.
      defaultValue: wanted && values.has(wanted) ? wanted : isSwitch ? 'false' : keptOptions[0]!.value,
      options: keptOptions,
    };
    const about = describeLine(description, MAX_DESCRIPTION_LENGTH);
    if (about) setting.description = about;
    const kind = describeLine(category, MAX_CATEGORY_LENGTH);
    if (kind) setting.category = kind;
    kept.push(setting);
  }
  return kept;
}
