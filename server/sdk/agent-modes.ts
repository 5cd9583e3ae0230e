/**
 * The modes an agent offers (ACP agents announce theirs per session: Claude Code's "Default",
 * "Plan", "Accept Edits"…), checked and bounded before they reach the state every client renders:
 * they come from another program, and a client shows them as a choice beside the message box.
 */
import { LIMITS } from '../../shared/limits.ts';
import type { AgentMode } from '../../shared/schemas.ts';
import { truncateLine } from '../../shared/truncate.ts';

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
  const kept: AgentMode[] = [];
  const ids = new Set<string>();
  for (const entry of modes) {
    if (kept.length >= MAX_AGENT_MODES) break;
    if (typeof entry !== 'object' || entry === null) continue;
    const { id, name, description } = entry as Record<string, unknown>;
    if (typeof id !== 'string') continue;
    const trimmed = id.trim();
    if (!trimmed || trimmed.length > LIMITS.maxModeIdLength || ids.has(trimmed)) continue;
    ids.add(trimmed);
    const shownName = typeof name === 'string' ? truncateLine(name, MAX_NAME_LENGTH) : '';
    const mode: AgentMode = { id: trimmed, name: shownName || trimmed };
    if (typeof description === 'string' && description.trim()) mode.description = truncateLine(description, MAX_DESCRIPTION_LENGTH);
    kept.push(mode);
  }
  return kept;
}
