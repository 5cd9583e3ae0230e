/**
 * What the model agent keeps in its agent state (one for all chats, kept across restarts): the
 * active skill and, by chat, the tools the user chose "Always allow in this chat" for. Each write
 * keeps the other's value.
 */
import type { RunContext } from '../sdk/agent.ts';
import { addAlwaysAllowed, listAlwaysAllowed, removeAlwaysAllowed, type AlwaysAllowed } from './always-allowed.ts';

interface ModelAgentState {
  activeSkill?: string | null;
  /** By chat id (see always-allowed.ts). */
  alwaysAllowed?: AlwaysAllowed;
}

/**
 * The name of the active skill, or null.
 *
 * @example const active = readActiveSkill(ctx);
 */
export function readActiveSkill(ctx: RunContext): string | null {
  return ctx.state.get<ModelAgentState>()?.activeSkill ?? null;
}

/**
 * Switches a skill on (null: off), in the state and where clients show it.
 *
 * @example writeActiveSkill(ctx, 'review');
 */
export function writeActiveSkill(ctx: RunContext, name: string | null): void {
  ctx.state.set({ ...(ctx.state.get<ModelAgentState>() ?? {}), activeSkill: name });
  ctx.state.setActiveSkill(name);
}

/**
 * The tools that run without asking in the run's chat.
 *
 * @example if (readAlwaysAllowed(ctx).includes('deploy')) …
 */
export function readAlwaysAllowed(ctx: RunContext): string[] {
  return listAlwaysAllowed(ctx.state.get<ModelAgentState>()?.alwaysAllowed, ctx.chatId);
}

/**
 * Lets `name` run without asking for the rest of the run's chat.
 *
 * @example allowAlways(ctx, 'deploy');
 */
export function allowAlways(ctx: RunContext, name: string): void {
  const stored = ctx.state.get<ModelAgentState>() ?? {};
  const next = addAlwaysAllowed(stored.alwaysAllowed, ctx.chatId, name);
  if (next !== stored.alwaysAllowed) ctx.state.set({ ...stored, alwaysAllowed: next });
}

/**
 * Every tool of the run's chat asks again.
 *
 * @example forgetAlwaysAllowed(ctx);
 */
export function forgetAlwaysAllowed(ctx: RunContext): void {
  const stored = ctx.state.get<ModelAgentState>() ?? {};
  ctx.state.set({ ...stored, alwaysAllowed: removeAlwaysAllowed(stored.alwaysAllowed, ctx.chatId) });
}
