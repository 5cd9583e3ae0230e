/**
 * What a run sends the model: the system prompt (personality, skills, the active skill's prompt,
 * session memory), built again each step as a skill may switch on mid-run, and the chat's messages
 * with what the run's attachments let through, told to the user as notices.
 */
import type { ModelMessage } from 'ai';
import type { RunContext } from '../sdk/agent.ts';
import { readActiveSkill } from './agent-state.ts';
import { describeLeftOut, describeUnreadable, describeUnsendableImages, listUnreadable, listUnsendableImages, withoutMedia } from './attachments.ts';
import { buildModelMessages } from './build-prompt.ts';
import { buildSessionMemory, type MemoryOptions } from './session-memory.ts';
import { SKILL_TOOLS } from './skill-source.ts';
import type { Skill } from './skills.ts';
import type { AgentTaskEntry } from './souls.ts';

/** What the agent's options say about its prompt (see `ModelAgentOptions`). */
export interface PromptOptions {
  id: string;
  system?: string;
  memory?: MemoryOptions | false;
}

/** What a step adds to the prompt from outside the chat: the agent's soul, its tasks in other chats, the active skill's context. */
export interface PromptExtras {
  soul?: string;
  agentMemory?: AgentTaskEntry[];
  skillContext?: string | null;
}

/**
 * The system prompt of a step; a model that refused tools is not told of skills it cannot switch on.
 *
 * @example const system = buildSystemPrompt(ctx, await skills.get(), { id: 'acme/assistant' }, false);
 */
export function buildSystemPrompt(ctx: RunContext, skills: readonly Skill[], options: PromptOptions, toolsRefused: boolean, extras: PromptExtras = {}): string {
  const sections: string[] = [];
  sections.push(options.system?.trim() || `You are ${options.id}, an assistant that talks with a developer through a toolbar on the web page they are working on.`);
  if (extras.soul) sections.push(`SOUL (who you are and what you have learned in earlier sessions):\n${extras.soul}`);
  if (skills.length) {
    if (!toolsRefused) sections.push(`Skills you can ask the user to switch on with ${SKILL_TOOLS.activate} (one at a time):\n${skills.map((s) => `- ${s.name}: ${s.description}`).join('\n')}`);
    const active = skills.find((s) => s.name === readActiveSkill(ctx));
    if (active) sections.push(`Active skill: ${active.name}\n${active.prompt}`);
    if (active && extras.skillContext) sections.push(extras.skillContext);
  }
  if (options.memory !== false) {
    const memory = buildSessionMemory(ctx.messages.slice(0, -1), options.memory ?? {});
    if (memory.length) sections.push(`SESSION_CONTEXT (earlier tasks in this chat, oldest first): ${JSON.stringify(memory)}`);
  }
  if (extras.agentMemory?.length) sections.push(`AGENT_MEMORY (your recent tasks in other chats, oldest first): ${JSON.stringify(extras.agentMemory)}`);
  return sections.join('\n\n');
}

/**
 * The run's first messages to the model; `mediaRefused` (the model refused images or PDFs before)
 * leaves them out. Notices, not text: the reply stays the model's words, and the model is not
 * sent them back.
 *
 * @example let messages = buildRunMessages(ctx, 'acme/assistant', 24, false);
 */
export function buildRunMessages(ctx: RunContext, agentId: string, historyMessages: number, mediaRefused: boolean): ModelMessage[] {
  const messages = buildModelMessages(ctx.messages, agentId, historyMessages);
  const unreadable = listUnreadable(ctx.message);
  if (unreadable.length) ctx.reply.notice(describeUnreadable(unreadable));
  const unsendable = listUnsendableImages(ctx.message);
  if (unsendable.length) ctx.reply.notice(describeUnsendableImages(unsendable));
  if (mediaRefused) {
    const stripped = withoutMedia(messages);
    if (stripped.leftOut.length > 0) {
      ctx.reply.notice(describeLeftOut(stripped.leftOut, true));
      return stripped.messages;
    }
  }
  return messages;
}
