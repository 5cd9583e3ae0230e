/**
 * The modes an agent offers (ACP agents announce theirs per session: Claude Code's "Default",
 * "Plan", "Accept Edits"…), checked and bounded before they reach the state every client renders:
 * they come from another program, and a client shows them as a choice beside the message box.
 */
import { LIMITS } from '../../shared/limits.ts';
import type { AgentMode } from '../../shared/schemas.ts';
import { normalizeList, readKey, readLine } from './normalize-list.ts';

/** Modes kept per agent; coding agents offer a handful. */
export const MAX_AGENT_MODES = 50;
const MAX_NAME_LENGTH = 100;
const MAX_DESCRIPTION_LENGTH = 300;

/**
 * The modes as the state holds them: ids trimmed and each once (within the protocol's length),
 * names and descriptions on one line and clipped, a missing name replaced by the id, at most
 * MAX_AGENT_MODES. Entries without a usable id are left out.
 *
 * @example normalizeModes([{ id: 'plan', name: 'Plan', description: 'Read only; proposes a plan' }, { id: 'plan', name: 'Again' }])
 * // [{ id: 'plan', name: 'Plan', description: 'Read only; proposes a plan' }]
 */
export function normalizeModes(modes: readonly unknown[]): AgentMode[] {
  return normalizeList(modes, {
    max: MAX_AGENT_MODES,
    pickKey: (fields) => readKey(fields.id, LIMITS.maxModeIdLength),
    build: (id, { name, description }) => {
      const mode: AgentMode = { id, name: readLine(name, MAX_NAME_LENGTH) ?? id };
      const about = readLine(description, MAX_DESCRIPTION_LENGTH);
      if (about) mode.description = about;
      return mode;
    },
  });
}
