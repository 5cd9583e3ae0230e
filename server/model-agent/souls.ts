/**
 * A soul per agent: what it has learned across sessions, in `<dir>/<agent id>.md` (DATA_DIR/souls),
 * bounded, edited by hand as the user likes, and read into the agent's system prompt in every chat.
 * After each finished task it may be recorded again: by one model call (`record: true`) or by the
 * SDK's hook. Beside it, `<agent id>.memory.json` keeps the agent's recent finished tasks across
 * chats: memory keyed by agent as well as by chat.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { streamText, type LanguageModel } from 'ai';
import { truncateLine, truncateText } from '../../shared/truncate.ts';
import { DEFAULT_MEMORY, type MemoryOptions } from './session-memory.ts';

/** What a soul hook is told when a task has finished. */
export interface FinishedTask {
  agent: string;
  chatId: string;
  /** The user's request. */
  task: string;
  /** The reply's final text. */
  reply: string;
  /** The soul as it is now ('' for none). */
  soul: string;
}

/** Returns the new soul, or null / undefined to keep it as it is. */
export type SoulHook = (finished: FinishedTask) => string | null | undefined | Promise<string | null | undefined>;

export interface SoulOptions {
  /** The folder of souls (DATA_DIR/souls). */
  dir: string;
  /** A soul is clipped to this many characters. Default 2,000. */
  maxChars?: number;
  /** After each finished task: `true` asks the model once, a function is your own hook; default: not recorded. */
  record?: boolean | SoulHook;
}

export interface AgentTaskEntry {
  chatId: string;
  task: string;
  status: string;
  summary: string;
  at: number;
}

export const DEFAULT_SOUL_CHARS = 2_000;

/**
 * The soul file of an agent: its id's segments as folders (`souls/persona/reviewer.md`).
 *
 * @example soulFile('/data/souls', 'persona/reviewer') // '/data/souls/persona/reviewer.md'
 */
export function soulFile(dir: string, agentId: string, suffix = '.md'): string {
  const segments = agentId.split('/');
  if (segments.some((s) => !s || s === '.' || s === '..')) throw new Error(`No soul for the agent id ${JSON.stringify(agentId)}`);
  return path.join(dir, ...segments) + suffix;
}

/**
 * The soul of `agentId`, '' when it has none.
 *
 * @example const soul = await readSoul(path.join(dataDir, 'souls'), 'model/llama3.2');
 */
export async function readSoul(dir: string, agentId: string, maxChars = DEFAULT_SOUL_CHARS): Promise<string> {
  try {
    return truncateText((await readFile(soulFile(dir, agentId), 'utf8')).trim(), maxChars);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

async function writeWhole(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
}

/**
 * Replaces the soul of `agentId`, clipped.
 *
 * @example await writeSoul(dir, 'model/llama3.2', '- The user prefers short answers.');
 */
export async function writeSoul(dir: string, agentId: string, soul: string, maxChars = DEFAULT_SOUL_CHARS): Promise<void> {
  await writeWhole(soulFile(dir, agentId), `${truncateText(soul.trim(), maxChars)}\n`);
}

/**
 * The agent's recent finished tasks across chats, oldest first.
 *
 * @example const tasks = await readAgentTasks(dir, 'model/llama3.2');
 */
export async function readAgentTasks(dir: string, agentId: string): Promise<AgentTaskEntry[]> {
  try {
    const parsed: unknown = JSON.parse(await readFile(soulFile(dir, agentId, '.memory.json'), 'utf8'));
    return Array.isArray(parsed) ? parsed.filter(isTaskEntry) : [];
  } catch {
    return [];
  }
}

function isTaskEntry(value: unknown): value is AgentTaskEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v: Record<string, unknown> = { ...value };
  return typeof v.chatId === 'string' && typeof v.task === 'string' && typeof v.status === 'string' && typeof v.summary === 'string' && typeof v.at === 'number';
}

/** Keeps the newest `entries`, the whole under `totalChars`. */
function boundTasks(tasks: AgentTaskEntry[], memory: MemoryOptions): AgentTaskEntry[] {
  const max = { ...DEFAULT_MEMORY, ...memory };
  const recent = tasks.slice(-max.entries);
  while (recent.length > 0 && JSON.stringify(recent).length > max.totalChars) recent.shift();
  return recent;
}

/**
 * Adds a finished task to the agent's memory, within the bounds.
 *
 * @example await appendAgentTask(dir, 'model/llama3.2', { chatId, task: 'deploy', status: 'done', summary: 'Deployed.', at: Date.now() });
 */
export async function appendAgentTask(dir: string, agentId: string, entry: AgentTaskEntry, memory: MemoryOptions = {}): Promise<void> {
  const max = { ...DEFAULT_MEMORY, ...memory };
  const clipped = { ...entry, task: truncateLine(entry.task, max.summaryChars), summary: truncateLine(entry.summary, max.summaryChars) };
  await writeWhole(soulFile(dir, agentId, '.memory.json'), JSON.stringify(boundTasks([...(await readAgentTasks(dir, agentId)), clipped], memory)));
}

/**
 * The agent's tasks in other chats than `chatId`, bounded, for the prompt.
 *
 * @example const other = otherChatsTasks(await readAgentTasks(dir, id), ctx.chatId, {});
 */
export function otherChatsTasks(tasks: readonly AgentTaskEntry[], chatId: string, memory: MemoryOptions): AgentTaskEntry[] {
  return boundTasks(tasks.filter((t) => t.chatId !== chatId), memory);
}

/**
 * The new soul after a finished task, written by one model call; null when the model said nothing.
 *
 * @example const soul = await recordSoulWithModel(model, finished, 2000);
 */
export async function recordSoulWithModel(model: LanguageModel, finished: FinishedTask, maxChars: number): Promise<string | null> {
  const result = streamText({
    model,
    maxRetries: 1,
    system:
      `You keep the soul of the agent ${finished.agent}: a short record, in its own words, of its personality and of what it has learned ` +
      `about this user and their work that will help in later sessions. Answer with the whole updated soul only, as Markdown bullet points, ` +
      `at most ${maxChars} characters. Keep what still holds, drop what no longer does; if nothing was learned, give it back unchanged.`,
    prompt: `The soul now:\n${finished.soul || '(empty)'}\n\nThe task that just finished:\nUser: ${truncateText(finished.task, 2_000)}\nYou answered: ${truncateText(finished.reply, 2_000)}`,
    onError: () => {},
  });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') text += part.text;
    else if (part.type === 'error') throw part.error;
  }
  const soul = text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  return soul ? truncateText(soul, maxChars) : null;
}
