/**
 * Which of an agent's commands to offer while the user types one: the message box holds only a
 * slash and the start of a name (`/rev`). Names that start with what was typed come first, then
 * names that contain it, each in the agent's order.
 */
import type { AgentCommand } from '../shared/schemas.ts';

/** What the box holds while a command's name is being typed: `/` and the name so far, nothing after. */
const TYPING_COMMAND = /^\/([\w.:-]*)$/;

/** At most this many are offered; typing more of the name narrows them. */
export const MAX_OFFERED_COMMANDS = 50;

/**
 * @example matchCommands('/re', [{ name: 'compact', … }, { name: 'review', … }, { name: 'pr-review', … }])
 * // [review, pr-review]
 */
export function matchCommands(draft: string, commands: readonly AgentCommand[] | undefined): AgentCommand[] {
  const typed = TYPING_COMMAND.exec(draft);
  if (!typed || !commands?.length) return [];
  const query = typed[1]!.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(query));
  const contains = query ? commands.filter((c) => !c.name.toLowerCase().startsWith(query) && c.name.toLowerCase().includes(query)) : [];
  return [...starts, ...contains].slice(0, MAX_OFFERED_COMMANDS);
}
