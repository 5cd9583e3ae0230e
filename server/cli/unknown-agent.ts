/** The words for an agent id nobody serves, shared by `chat -a` and the terminal chat's `/agent`. */
import { findClosest } from './closest-word.ts';

/**
 * The refusal of an agent id nobody serves, with the ones there are and, for a near miss (the
 * name without its folder, another case, a typo), the one meant.
 *
 * @example describeUnknownAgent('guide', agents) // 'Unknown agent: guide; did you mean demo/guide? (agents here: …)'
 */
export function describeUnknownAgent(id: string, agents: readonly { id: string; implemented: boolean }[]): string {
  const usable = agents.filter((a) => a.implemented).map((a) => a.id);
  const lower = id.toLowerCase();
  const near = usable.filter((a) => a.toLowerCase() === lower || a.toLowerCase().endsWith(`/${lower}`));
  const typo = near.length === 0 ? findClosest(id, usable) : null;
  const meant = near.length === 1 ? `; did you mean ${near[0]}?` : typo ? `; did you mean ${typo}?` : '';
  const here = usable.length > 0 ? ` (agents here: ${usable.join(', ')}; \`agentbar agents\` describes them)` : ' (this server has no agents that answer)';
  return `Unknown agent: ${id}${meant}${here}`;
}
