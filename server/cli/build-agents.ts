/**
 * The agents `agentbar serve` runs, and every command that starts a server of its own when none is
 * running: the demo agents, plus a model agent when `--model` is given.
 */
import path from 'node:path';
import type { AgentDefinition } from '../agent.ts';
import type { ModelArgs } from '../cli-args.ts';
import { createDemoAgents } from '../demo-agents.ts';

/**
 * @example const { agents, summary } = await buildAgents(args.model, dataDir);
 */
export async function buildAgents(model: ModelArgs | null, dataDir: string): Promise<{ agents: AgentDefinition[]; modelSummary: string | null }> {
  // AGENTBAR_DEMO_PACE_MS lets tests and demos stream the demo replies faster or slower.
  const pace = process.env.AGENTBAR_DEMO_PACE_MS;
  const agents: AgentDefinition[] = createDemoAgents(pace ? { paceMs: Number(pace) } : {});
  if (!model) return { agents, modelSummary: null };
  const { createModelAgentFromArgs } = await import('../model-agent/from-args.ts');
  const made = createModelAgentFromArgs(model, path.resolve(dataDir));
  return { agents: [made.agent, ...agents], modelSummary: made.summary };
}
