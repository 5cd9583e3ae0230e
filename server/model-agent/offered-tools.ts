/**
 * The tools offered to the model in one step, as the AI SDK takes them, each with where it runs
 * and whether it asks the user first: the two skill tools, the agent's own tools, then the page
 * tools the toolbar declared (an own tool of the same name wins). A tool a skill lists is offered
 * only while that skill is active.
 */
import { jsonSchema, tool, type ToolSet } from 'ai';
import type { RunContext } from '../sdk/agent.ts';
import { readActiveSkill } from './agent-state.ts';
import { SKILL_TOOLS } from './skill-source.ts';
import { SKILL_TOOL_DESCRIPTIONS } from './skill-tools.ts';
import type { Skill } from './skills.ts';

/** Where an offered tool runs, and whether it asks the user first. */
export type ToolPlace = { runtime: 'cli' | 'toolbar'; requiresApproval: boolean };

/** The tools of a step: `set` for the model, `places` for running the calls it makes. */
export interface OfferedTools {
  set: ToolSet;
  places: Map<string, ToolPlace>;
}

/** What the agent's options say about tools (see `ModelAgentOptions`). */
export interface ToolOffer {
  ownTools: readonly { name: string; description?: string; inputSchema?: Record<string, unknown>; requiresApproval?: boolean }[];
  pageTools?: boolean | string[];
  pageToolApproval?: string[];
}

const EMPTY_SCHEMA = { type: 'object', properties: {}, additionalProperties: false };

/**
 * No tools: for a model that refused a request for offering them.
 *
 * @example const { set, places } = toolsRefused ? offerNoTools() : buildOfferedTools(ctx, skills, offer);
 */
export function offerNoTools(): OfferedTools {
  return { set: {}, places: new Map() };
}

/**
 * The tools the model may call in this step, given the skills as they are now.
 *
 * @example const { set, places } = buildOfferedTools(ctx, await skills.get(), { ownTools: [], pageTools: true });
 */
export function buildOfferedTools(ctx: RunContext, skills: readonly Skill[], offer: ToolOffer): OfferedTools {
  const active = skills.find((s) => s.name === readActiveSkill(ctx)) ?? null;
  const gated = new Set(skills.flatMap((s) => s.tools));
  const allowed = (name: string) => !gated.has(name) || (active?.tools.includes(name) ?? false);
  const set: ToolSet = {};
  const places = new Map<string, ToolPlace>();
  const names = skills.map((s) => s.name);
  set[SKILL_TOOLS.activate] = tool({
    description: SKILL_TOOL_DESCRIPTIONS.activate,
    inputSchema: jsonSchema({ type: 'object', properties: { name: names.length ? { type: 'string', enum: names } : { type: 'string' } }, required: ['name'], additionalProperties: false }),
  });
  places.set(SKILL_TOOLS.activate, { runtime: 'cli', requiresApproval: true });
  set[SKILL_TOOLS.deactivate] = tool({ description: SKILL_TOOL_DESCRIPTIONS.deactivate, inputSchema: jsonSchema(EMPTY_SCHEMA as never) });
  places.set(SKILL_TOOLS.deactivate, { runtime: 'cli', requiresApproval: false });
  for (const t of offer.ownTools) {
    if (!allowed(t.name)) continue;
    set[t.name] = tool({ description: t.description ?? t.name, inputSchema: jsonSchema((t.inputSchema ?? EMPTY_SCHEMA) as never) });
    places.set(t.name, { runtime: 'cli', requiresApproval: t.requiresApproval ?? false });
  }
  const page = offer.pageTools ?? true;
  if (page !== false) {
    for (const t of ctx.pageTools) {
      if (set[t.name] || (Array.isArray(page) && !page.includes(t.name)) || !allowed(t.name)) continue;
      set[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as never) });
      places.set(t.name, { runtime: 'toolbar', requiresApproval: offer.pageToolApproval?.includes(t.name) ?? false });
    }
  }
  return { set, places };
}
