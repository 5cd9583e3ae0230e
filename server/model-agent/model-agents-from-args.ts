/**
 * The model agents of `agentbar serve --model …`: the `--model` agent (or, with `--persona NAME`,
 * that persona in its place) and every persona of DATA_DIR/agents beside it, all on the same
 * endpoint. A broken persona file is logged with its path; the others still serve. A persona file
 * added or removed while it runs is logged at the next reply (the agents are fixed at start).
 */
import path from 'node:path';
import type { AgentDefinition } from '../sdk/agent.ts';
import type { ModelArgs } from '../cli/parse-args.ts';
import { createModelAgentFromArgs } from './from-args.ts';
import { watchPersonaFolder } from './persona-folder.ts';
import { loadPersonas } from './personas.ts';

type Log = (agentId: string, level: 'info' | 'warn' | 'error', message: string) => void;

/** The agent, looking at the persona folder before each reply. */
function withFolderCheck(agent: AgentDefinition, check: () => Promise<void>): AgentDefinition {
  const { run } = agent;
  if (!run) return agent;
  return {
    ...agent,
    async run(ctx) {
      await check();
      return run(ctx);
    },
  };
}

/**
 * Throws when `--persona` names no persona.
 *
 * @example const { agents, summary, checks } = await createModelAgentsFromArgs(args.model, dataDir, process.env, log);
 */
export async function createModelAgentsFromArgs(
  args: ModelArgs,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  log: Log,
): Promise<{ agents: AgentDefinition[]; summary: string[]; checks: (() => Promise<void>)[] }> {
  const dir = path.join(path.resolve(dataDir), 'agents');
  const { personas, errors } = await loadPersonas(dir);
  for (const e of errors) log(args.agentId, 'error', `Persona not loaded: ${e}`);
  const logFor = (id: string) => (level: 'info' | 'warn' | 'error', message: string) => log(id, level, message);
  const check = await watchPersonaFolder(dir, logFor(args.agentId));
  if (args.persona !== undefined) {
    const persona = personas.find((p) => p.name === args.persona);
    if (!persona) throw new Error(`--persona ${args.persona}: no ${path.join(dir, `${args.persona}.md`)}${personas.length ? ` (the personas: ${personas.map((p) => p.name).join(', ')})` : ''}`);
    const made = createModelAgentFromArgs(args, dataDir, env, logFor(persona.id), persona);
    return { agents: [withFolderCheck(made.agent, check)], summary: [`Persona agent:   ${made.summary}`], checks: [made.checkEndpoint] };
  }
  const main = createModelAgentFromArgs(args, dataDir, env, logFor(args.agentId));
  const agents = [main.agent];
  const summary = [`Model agent:     ${main.summary}`];
  for (const persona of personas) {
    if (persona.id === args.agentId) {
      log(args.agentId, 'error', `Persona not loaded: ${persona.file}: its id ${persona.id} is the --model agent's`);
      continue;
    }
    const made = createModelAgentFromArgs(args, dataDir, env, logFor(persona.id), persona);
    agents.push(made.agent);
    summary.push(`Persona agent:   ${persona.id} (${persona.file})`);
  }
  return { agents: agents.map((a) => withFolderCheck(a, check)), summary, checks: [main.checkEndpoint] };
}
