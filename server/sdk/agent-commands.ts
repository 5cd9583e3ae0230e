/**
 * The commands an agent takes as `/name` messages (ACP agents announce theirs: Claude Code's
 * `/review`, `/compact`, its MCP prompts), checked and bounded before they reach the state every
 * client renders: they come from another program, and a client lists them as the user types `/`.
 */
import type { AgentCommand } from '../../shared/schemas.ts';
import { truncateLine } from '../../shared/truncate.ts';

/** Commands kept per agent; Claude Code announces a few dozen. */
export const MAX_AGENT_COMMANDS = 200;
const MAX_DESCRIPTION_LENGTH = 300;
const MAX_HINT_LENGTH = 200;
/** What a command's name may be: one word, as typed after the slash (`mcp__github__pr`, `speckit.plan`). */
const NAME = /^[\w.:-]{1,64}$/;

/**
 * The commands as the state holds them: names without their slash, each once, descriptions and
 * hints clipped, at most MAX_AGENT_COMMANDS. Entries without a usable name are left out.
 *
 * @example normalizeCommands([{ name: '/review', description: 'Review the diff', hint: 'branch' }])
 * // [{ name: 'review', description: 'Review the diff', hint: 'branch' }]
 */
export function normalizeCommands(commands: readonly unknown[]): AgentCommand[] {
  const kept: AgentCommand[] = [];
  const names = new Set<string>();
  for (const entry of commands) {
    if (kept.length >= MAX_AGENT_COMMANDS) break;
    if (typeof entry !== 'object' || entry === null) continue;
    const { name, description, hint } = entry as Record<string, unknown>;
    if (typeof name !== 'string') continue;
    const bare = name.trim().replace(/^\//, '');
    if (!NAME.test(bare) || names.has(bare)) continue;
    names.add(bare);
    const command: AgentCommand = { name: bare, description: truncateLine(typeof description === 'string' ? description : '', MAX_DESCRIPTION_LENGTH) };
    if (typeof hint === 'string' && hint.trim()) command.hint = truncateLine(hint, MAX_HINT_LENGTH);
    kept.push(command);
  }
  return kept;
}
