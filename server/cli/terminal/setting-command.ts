/**
 * `/set` in the terminal chat: an agent's settings (its model, reasoning level…) listed with this
 * chat's values, and changed by id or by the name the toolbar shows.
 */
import { findSettingValue } from '../../../shared/agent-setting.ts';
import type { AgentSetting, State } from '../../../shared/schemas.ts';
import type { SyncClient } from '../../../shared/sync-client.ts';

export interface SettingCommandContext {
  client: Pick<SyncClient, 'request'>;
  state: State | null;
  chatId: string | null;
  /** The agent messages go to now. */
  agent: string | null | undefined;
  write: (text: string) => void;
}

/** An id as listed, else a name as the toolbar shows it (any case). */
function pick<T>(items: readonly T[], typed: string, id: (item: T) => string, name: (item: T) => string): T | undefined {
  return items.find((item) => id(item) === typed) ?? items.find((item) => name(item).toLowerCase() === typed.toLowerCase());
}

function describeValue(setting: AgentSetting, value: string): string {
  return setting.options.find((o) => o.value === value)?.name ?? value;
}

/**
 * Runs `/set`, `/set <setting>` or `/set <setting> <value>` (the value may have spaces: a name).
 *
 * @example await runSettingCommand('model opus', { client, state, chatId, agent: 'acp/claude-code', write })
 */
export async function runSettingCommand(arg: string, ctx: SettingCommandContext): Promise<void> {
  const { state, chatId, agent, write } = ctx;
  const settings = (agent && state?.agents.find((a) => a.id === agent)?.settings) || [];
  if (!agent || !state || settings.length === 0) {
    write(`${agent ?? 'The agent'} has no settings.\n`);
    return;
  }
  const [typedSetting = '', ...rest] = arg.split(/\s+/).filter(Boolean);
  if (!typedSetting) {
    const lines = settings.map((s) => `  ${s.id.padEnd(18)} ${`${s.name}:`.padEnd(14)} ${describeValue(s, findSettingValue(state, chatId, agent, s))}`);
    write(`Settings of ${agent} in this chat:\n${lines.join('\n')}\n/set <setting> lists its values; /set <setting> <value> changes it.\n`);
    return;
  }
  const setting = pick(settings, typedSetting, (s) => s.id, (s) => s.name);
  if (!setting) {
    write(`${agent} has no setting ${typedSetting}; its settings are ${settings.map((s) => s.id).join(', ')}.\n`);
    return;
  }
  const typedValue = rest.join(' ');
  if (!typedValue) {
    const current = findSettingValue(state, chatId, agent, setting);
    const lines = setting.options.map((o) => `  ${o.value === current ? '*' : ' '} ${o.value.padEnd(18)} ${o.name}${o.description ? ` — ${o.description}` : ''}`);
    write(`${setting.name} of ${agent} (* this chat's):\n${lines.join('\n')}\n/set ${setting.id} <value> changes it.\n`);
    return;
  }
  await setSetting(ctx, agent, setting, typedValue);
}

/**
 * Asks for one value of a setting in this chat (starting a chat when none is open); a value the
 * agent does not offer goes as typed, so the server's refusal lists the ones it does.
 *
 * @example await setSetting(ctx, 'acp/claude-code', modeSetting, 'plan')
 */
export async function setSetting(ctx: SettingCommandContext, agent: string, setting: AgentSetting, typed: string): Promise<void> {
  const value = pick(setting.options, typed, (o) => o.value, (o) => o.name);
  const chatId = ctx.chatId ?? (await ctx.client.request('chat.create', { agent })).chatId;
  await ctx.client.request('setting.set', { chatId, agent, setting: setting.id, value: value?.value ?? typed });
  ctx.write(`${setting.name} of ${agent} is ${value?.name ?? typed} in this chat now.\n`);
}
