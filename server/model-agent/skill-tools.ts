/**
 * The two skill tools the model agent declares: `activate_skill` (a decision, so the user is asked
 * first) and `deactivate_skill`. They run in the server and act on the agent state of the run in
 * progress.
 */
import type { AgentTool, RunContext } from '../sdk/agent.ts';
import { readActiveSkill, writeActiveSkill } from './agent-state.ts';
import { SKILL_TOOLS, type SkillSource } from './skill-source.ts';

/** What the model reads of each skill tool. */
export const SKILL_TOOL_DESCRIPTIONS = {
  activate: 'Switches on one of your skills (the user is asked first). Activating another skill replaces the active one.',
  deactivate: 'Switches off the active skill.',
} as const;

/**
 * The skill tools; `currentRun` is the run in progress (one at a time per server).
 *
 * @example const tools = createSkillTools(skills, () => current);
 */
export function createSkillTools(skills: SkillSource, currentRun: () => RunContext | null): AgentTool[] {
  const requireRun = (): RunContext => {
    const ctx = currentRun();
    if (!ctx) throw new Error('No run in progress');
    return ctx;
  };
  return [
    {
      name: SKILL_TOOLS.activate,
      description: SKILL_TOOL_DESCRIPTIONS.activate,
      type: 'decision',
      runtime: 'cli',
      execute: async (input) => {
        const ctx = requireRun();
        const name = typeof input.name === 'string' ? input.name : '';
        const skill = (await skills.get()).find((s) => s.name === name);
        if (!skill) {
          const names = (await skills.get()).map((s) => s.name);
          throw new Error(`No skill named "${name}". Skills: ${names.length ? names.join(', ') : `none (add <name>/SKILL.md to ${skills.dir ?? 'the skills folder'})`}`);
        }
        const previous = readActiveSkill(ctx);
        writeActiveSkill(ctx, skill.name);
        return previous && previous !== skill.name ? `Skill ${skill.name} is active (it replaced ${previous}).` : `Skill ${skill.name} is active.`;
      },
    },
    {
      name: SKILL_TOOLS.deactivate,
      description: SKILL_TOOL_DESCRIPTIONS.deactivate,
      type: 'deterministic',
      runtime: 'cli',
      execute: () => {
        const ctx = requireRun();
        const previous = readActiveSkill(ctx);
        writeActiveSkill(ctx, null);
        return previous ? `Skill ${previous} is off.` : 'No skill was active.';
      },
    },
  ];
}
