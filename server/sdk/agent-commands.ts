/**
 * The commands an agent takes as `/name` messages (ACP agents announce theirs: Claude Code's
 * `/review`, `/compact`, its MCP prompts), checked and bounded before they reach the state every
 * client renders: they come from another program, and a client lists them as the user types `/`.
 */
import type { AgentCommand } from '../../shared/schemas.ts';
import { normalizeList, readLine } from './normalize-list.ts';

/** Commands kept per agent; Claude Code announces a few dozen. */
export const MAX_AGENT_COMMANDS = 200;
const MAX_DESCRIPTION_LENGTH = 300;
const MAX_HINT_LENGTH = 200;
/** What a command's name may be: one word, as typed after the slash (`mcp__github__pr`, `speckit.plan`). */
const NAME = /^[\w.:-]{1,64}$/;

/** The name as typed after the slash, or null when a user could not type it as one word. */
function readName(name: unknown): string | null {
  if (typeof name !== 'string') return null;
  const bare = name.trim().replace(/^\//, '');
  return NAME.test(bare) ? bare : null;
}

/**
 * The commands as the state holds them: names without their slash, each once, descriptions and
 * hints clipped, at most MAX_AGENT_COMMANDS. Entries without a usable name are left out.
 *
 * @example normalizeCommands([{ name: '/review', description: 'Review the diff', hint: 'branch' }])
 * // [{ name: 'review', description: 'Review the diff', hint: 'branch' }]
 */
export function normalizeCommands(commands: readonly unknown[]): AgentCommand[] {
  return normalizeList(commands, {
    max: MAX_AGENT_COMMANDS,
    pickKey: (fields) => readName(fields.name),
    build: (name, { description, hint }) => {
      const command: AgentCommand = { name, description: readLine(description, MAX_DESCRIPTION_LENGTH) ?? '' };
      const shownHint = readLine(hint, MAX_HINT_LENGTH);
      if (shownHint) command.hint = shownHint;
      return command;
    },
  });
}
