/**
 * `agentbar agents [--json]`: every agent of the server, with its tools, workflows, active skill
 * and the commands, modes and settings it announced.
 */
import { shownOn } from './terminal/terminal-text.ts';
import type { AgentInfo } from '../../shared/schemas.ts';
import { isBooleanSetting } from '../../shared/agent-setting.ts';
import { attachOrEmbed } from './attach.ts';
import { COMMON_HELP, describeOptions } from './options.ts';
import { parseCommandArgs } from './parse-args.ts';
import { printSoul } from './print-soul.ts';

export const AGENTS_USAGE = `Usage: agentbar agents [--json] [--soul <id>] [--data-dir <dir>]

Lists the agents of the agent server: id, description, whether it is implemented, its tools (with
their type: deterministic or decision), its workflows, its active skill, the /commands it
announced (an ACP agent's, sent to it as messages), its modes (the first is a chat's default) and
its settings (a model, a reasoning level: each with its values, the default marked *).
${describeOptions(['json', 'soul'], 22, 'agents')}
${COMMON_HELP}`;

/** The human listing. */
export function formatAgents(agents: readonly AgentInfo[]): string {
  return agents
    .map((a) => {
      const lines = [`${a.id}${a.implemented ? '' : '  (not implemented)'}`, `  ${a.description}`];
      if (a.tools.length) lines.push(`  tools: ${a.tools.map((t) => `${t.name} (${t.type})`).join(', ')}`);
      if (a.workflows.length) lines.push(`  workflows: ${a.workflows.join(', ')}`);
      if (a.activeSkill) lines.push(`  active skill: ${a.activeSkill}`);
      if (a.commands?.length) lines.push(`  commands: ${a.commands.map((c) => `/${c.name}`).join(', ')}`);
      if (a.modes?.length) lines.push(`  modes: ${a.modes.map((m) => (m.name === m.id ? m.id : `${m.id} (${m.name})`)).join(', ')}`);
      for (const s of a.settings ?? []) {
        const values = isBooleanSetting(s)
          ? `on/off (${s.defaultValue === 'true' ? 'on' : 'off'} by default)`
          : s.options.map((o) => `${o.value === s.defaultValue ? '*' : ''}${o.value}`).join(', ');
        lines.push(`  ${s.id === s.name ? s.id : `${s.id} (${s.name})`}: ${values}`);
      }
      return lines.join('\n');
    })
    .join('\n\n');
}

export async function runAgents(argv: string[]): Promise<number> {
  const { values, common } = parseCommandArgs('agents', argv);
  if (common.help) {
    console.log(AGENTS_USAGE);
    return 0;
  }
  if (values.soul !== undefined) return printSoul(common.dataDir, values.soul);
  const session = await attachOrEmbed({ dataDir: common.dataDir, flags: common, name: 'agentbar agents' });
  try {
    const agents = session.client.getSnapshot().state!.agents;
    // An agent's names and descriptions are its own words: on a terminal, escape sequences must not act.
    console.log(values.json ? JSON.stringify(agents, null, 2) : shownOn(process.stdout)(formatAgents(agents)));
    return 0;
  } finally {
    await session.close();
  }
}
