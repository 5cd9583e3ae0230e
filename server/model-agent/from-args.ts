/**
 * `agentbar serve --model NAME --base-url URL`: a model agent for any OpenAI-compatible endpoint,
 * from the command line. The key is read from the environment (never printed, never written).
 */
import path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { AgentDefinition } from '../agent.ts';
import type { ModelArgs } from '../cli-args.ts';
import { createModelAgent } from './create-model-agent.ts';

/**
 * @example const { agent, summary } = createModelAgentFromArgs(args.model, dataDir);
 */
export function createModelAgentFromArgs(args: ModelArgs, dataDir: string, env: NodeJS.ProcessEnv = process.env): { agent: AgentDefinition; summary: string } {
  const apiKey = env[args.apiKeyEnv] || undefined;
  const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL: args.baseUrl, ...(apiKey ? { apiKey } : {}) });
  const skillsDir = path.resolve(args.skillsDir ?? path.join(dataDir, 'skills'));
  const agent = createModelAgent({
    id: args.agentId,
    description: `${args.name} at ${args.baseUrl}`,
    model: provider(args.name),
    baseUrl: args.baseUrl,
    ...(args.system ? { system: args.system } : {}),
    skills: { dir: skillsDir, reloadEachTask: args.reloadSkillsEachTask },
    log: (level, message) => console.error(`[agentbar ${args.agentId}] ${level}: ${message}`),
  });
  const key = apiKey ? `key from $${args.apiKeyEnv}` : `no key ($${args.apiKeyEnv} is not set)`;
  return { agent, summary: `${args.agentId} → ${args.name} at ${args.baseUrl} (${key}; skills in ${skillsDir})` };
}
