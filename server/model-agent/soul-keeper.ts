/**
 * One model agent's soul and cross-chat memory over a run: read for each step's prompt, and, after
 * each finished task, the task added to its memory and the soul recorded (model call or hook).
 * The recording runs after the reply has ended, one at a time; the next run waits for it, so it
 * sees the soul the last task left.
 */
import type { LanguageModel } from 'ai';
import type { RunContext } from '../sdk/agent.ts';
import { appendAgentTask, DEFAULT_SOUL_CHARS, otherChatsTasks, readAgentTasks, readSoul, recordSoulWithModel, writeSoul, type AgentTaskEntry, type SoulOptions } from './souls.ts';
import type { MemoryOptions } from './session-memory.ts';

export interface SoulKeeper {
  /** The soul (or the persona's personality seed) and the tasks of other chats, for the prompt. */
  read(ctx: RunContext): Promise<{ soul?: string; agentMemory?: AgentTaskEntry[] }>;
  /** Records a finished task in the background. */
  afterTask(ctx: RunContext, model: LanguageModel, reply: string): void;
  /** Resolves once every recording started so far has ended. */
  settled(): Promise<void>;
}

/**
 * `seed` is read each time: a persona's personality may be edited while the server runs.
 *
 * @example const souls = createSoulKeeper(options.soul, { id: 'model/llama3.2' }, log);
 */
export function createSoulKeeper(
  options: SoulOptions | undefined,
  agent: { id: string; seed?: () => string | undefined; memory?: MemoryOptions | false },
  log: (level: 'info' | 'warn' | 'error', message: string) => void,
): SoulKeeper {
  const maxChars = options?.maxChars ?? DEFAULT_SOUL_CHARS;
  let pending: Promise<void> = Promise.resolve();
  const memory = agent.memory === false ? null : (agent.memory ?? {});

  async function record(ctx: RunContext, model: LanguageModel, reply: string, at: number): Promise<void> {
    if (!options) return;
    if (memory) await appendAgentTask(options.dir, agent.id, { chatId: ctx.chatId, task: ctx.text, status: 'done', summary: reply, at }, memory);
    if (!options.record) return;
    const soul = await readSoul(options.dir, agent.id, maxChars);
    const finished = { agent: agent.id, chatId: ctx.chatId, task: ctx.text, reply, soul: soul || (agent.seed?.() ?? '') };
    const next = options.record === true ? await recordSoulWithModel(model, finished, maxChars) : await options.record(finished);
    if (typeof next === 'string' && next.trim() && next.trim() !== soul) await writeSoul(options.dir, agent.id, next, maxChars);
  }

  return {
    async read(ctx) {
      await pending;
      const soul = options ? await readSoul(options.dir, agent.id, maxChars) : '';
      const tasks = options && memory ? otherChatsTasks(await readAgentTasks(options.dir, agent.id), ctx.chatId, memory) : [];
      const shown = soul || agent.seed?.();
      return { ...(shown ? { soul: shown } : {}), ...(tasks.length ? { agentMemory: tasks } : {}) };
    },
    afterTask(ctx, model, reply) {
      if (!options) return;
      const at = Date.now();
      pending = pending
        .then(() => record(ctx, model, reply, at))
        .catch((error: unknown) => log('warn', `Could not record the soul of ${agent.id}: ${error instanceof Error ? error.message : String(error)}`));
    },
    settled: () => pending,
  };
}
