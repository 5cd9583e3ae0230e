/**
 * `agentbar serve --model NAME --base-url URL`: a model agent for any OpenAI-compatible endpoint,
 * from the command line. The key is read from the environment (never printed, never written).
 */
import path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { AgentDefinition } from '../sdk/agent.ts';
import type { CommandLinePrice, ModelArgs } from '../cli/parse-args.ts';
import { checkModelEndpoint } from './check-endpoint.ts';
import { createModelAgent } from './create-model-agent.ts';
import type { Persona } from './personas.ts';

/** `$0.15 in, $0.60 out per million tokens` for the start banner. */
function describePrice(price: CommandLinePrice): string {
  const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 10 })}`;
  return `${usd(price.input)} in${price.cachedInput !== undefined ? ` (${usd(price.cachedInput)} cached)` : ''}, ${usd(price.output)} out per million tokens`;
}

/**
 * The agent, its line in the start banner, and `checkEndpoint`, which logs what the endpoint's
 * model list says (run it once the server listens; it never throws).
 *
 * With `persona`, the agent is that persona: its id, description, prompt, model and skills.
 *
 * @example const { agent, summary, checkEndpoint } = createModelAgentFromArgs(args.model, dataDir);
 */
export function createModelAgentFromArgs(
  args: ModelArgs,
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  log: (level: 'info' | 'warn' | 'error', message: string) => void = (level, message) => console.error(`[agentbar ${args.agentId}] ${level}: ${message}`),
  persona?: Persona,
): { agent: AgentDefinition; summary: string; checkEndpoint: () => Promise<void> } {
  if (persona) args = { ...args, agentId: persona.id, name: persona.model ?? args.name, others: persona.model ? [] : args.others, system: undefined };
  const apiKey = env[args.apiKeyEnv] || undefined;
  // Token counts are asked for only with a window to measure them against: a server that does not
  // know stream_options could refuse every request for it.
  const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL: args.baseUrl, ...(apiKey ? { apiKey } : {}), ...(args.contextWindow ? { includeUsage: true } : {}) });
  const skillsDir = path.resolve(args.skillsDir ?? path.join(dataDir, 'skills'));
  const agent = createModelAgent({
    id: args.agentId,
    description: persona?.description ?? `${args.name} at ${args.baseUrl}`,
    model: provider(args.name),
    ...(args.others.length ? { models: args.others.map((name) => ({ id: name, model: provider(name) })) } : {}),
    baseUrl: args.baseUrl,
    ...(args.system ? { system: args.system } : {}),
    skills: { dir: skillsDir, reloadEachTask: args.reloadSkillsEachTask },
    notes: { dir: path.join(path.resolve(dataDir), 'notes') },
    soul: { dir: path.join(path.resolve(dataDir), 'souls'), record: args.recordSoul },
    ...(persona ? { persona } : {}),
    ...(args.maxTurns !== undefined ? { maxSteps: args.maxTurns } : {}),
    ...(args.contextWindow ? { contextWindow: args.contextWindow } : {}),
    ...(args.price ? { price: args.price } : {}),
    log,
  });
  const key = apiKey ? `key from $${args.apiKeyEnv}` : `no key ($${args.apiKeyEnv} is not set)`;
  const checkEndpoint = async () => {
    try {
      const { level, message } = await checkModelEndpoint({ baseUrl: args.baseUrl, model: args.name, apiKeyEnv: args.apiKeyEnv, ...(apiKey ? { apiKey } : {}) });
      log(level, message);
      // The other models of its menu: only what is wrong with them (the server itself was just checked).
      if (level === 'info') {
        for (const other of args.others) {
          const found = await checkModelEndpoint({ baseUrl: args.baseUrl, model: other, apiKeyEnv: args.apiKeyEnv, ...(apiKey ? { apiKey } : {}) });
          if (found.level === 'warn') log('warn', found.message);
        }
      }
    } catch (error) {
      // A look that failed in a way nobody foresaw must not take the server down with it.
      log('warn', `Could not check the model server at ${args.baseUrl}: ${(error as Error).message}`);
    }
  };
  const also = args.others.length ? ` (also ${args.others.join(', ')}, in its Model menu)` : '';
  return { agent, summary: `${args.agentId} → ${args.name}${also} at ${args.baseUrl} (${key}; skills in ${skillsDir}${args.contextWindow ? `; context window ${args.contextWindow.toLocaleString('en-US')} tokens` : ''}${args.price ? `; ${describePrice(args.price)}` : ''})`, checkEndpoint };
}
