/**
 * `/soul`: the agent's soul shown and edited from any client (the toolbar's `/` menu, `agentbar
 * chat`), answered without the model. `/soul` shows it and its file, `/soul set <text>` replaces
 * it (clipped as every soul is), `/soul clear` empties it. The next reply reads the file again,
 * so its system prompt has the new soul.
 */
import { rm } from 'node:fs/promises';
import { truncateText } from '../../shared/truncate.ts';
import type { RunContext } from '../sdk/agent.ts';
import { readSoul, soulFile, writeSoul } from './souls.ts';

const SOUL_TEXT = /^\/soul(?:\s+([\s\S]*))?$/;

/** The command as the agent declares it. */
export const SOUL_COMMAND = { name: 'soul', description: 'Show this agent\'s soul (what it keeps across sessions); "set <text>" replaces it, "clear" empties it', hint: 'set <text> | clear' };

/** Where an agent's soul is kept, and what stands in for it. */
export interface SoulStore {
  dir: string;
  agentId: string;
  maxChars: number;
  /** The persona's personality, shown while it has no soul. */
  seed: () => string | undefined;
  /** Resolves once the recordings under way have ended: an edit must not be overwritten by one. */
  settled: () => Promise<void>;
}

/**
 * Whether the user's text is the command.
 *
 * @example isSoulCommand('/soul set - Prefers tabs.') // true
 */
export function isSoulCommand(text: string): boolean {
  return SOUL_TEXT.test(text.trim());
}

const USAGE = '`/soul` shows it, `/soul set <text>` replaces it, `/soul clear` empties it.';

function describeSoul(store: SoulStore, soul: string, file: string): string {
  const where = `\`${file}\`, read before every reply, at most ${store.maxChars.toLocaleString('en-US')} characters`;
  if (soul) return `The soul of \`${store.agentId}\` (${where}):\n\n${soul}\n\n${USAGE}`;
  const seed = store.seed();
  if (seed) return `\`${store.agentId}\` has no soul recorded yet (${where}); its personality stands in:\n\n${seed}\n\n${USAGE}`;
  return `\`${store.agentId}\` has no soul yet (${where}). ${USAGE}`;
}

async function setSoul(store: SoulStore, text: string, file: string): Promise<string> {
  if (!text) return `Give the new soul after \`/soul set\`. ${USAGE}`;
  await writeSoul(store.dir, store.agentId, text, store.maxChars);
  const kept = await readSoul(store.dir, store.agentId, store.maxChars);
  const clipped = text.length > store.maxChars ? `\n\nIt was cut to ${store.maxChars.toLocaleString('en-US')} characters (of ${text.length.toLocaleString('en-US')}): a soul holds no more.` : '';
  return `The soul of \`${store.agentId}\` is now (\`${file}\`):\n\n${kept}${clipped}`;
}

async function clearSoul(store: SoulStore, file: string): Promise<string> {
  await rm(file, { force: true });
  const seed = store.seed() ? ' Its personality stands in until it has another.' : '';
  return `The soul of \`${store.agentId}\` is empty now (\`${file}\` removed).${seed}`;
}

/**
 * Answers `/soul`, `/soul set <text>` or `/soul clear` in the chat.
 *
 * @example if (isSoulCommand(ctx.text)) return answerSoulCommand(ctx, store);
 */
export async function answerSoulCommand(ctx: RunContext, store: SoulStore): Promise<void> {
  const [, arg = ''] = SOUL_TEXT.exec(ctx.text.trim()) ?? [];
  const [, word = '', rest = ''] = /^(\S*)\s*([\s\S]*)$/.exec(arg) ?? [];
  const file = soulFile(store.dir, store.agentId);
  await store.settled();
  if (word === '') return ctx.reply.text(describeSoul(store, await readSoul(store.dir, store.agentId, store.maxChars), file));
  if (word === 'set') return ctx.reply.text(await setSoul(store, rest.trim(), file));
  if (word === 'clear' && !rest.trim()) return ctx.reply.text(await clearSoul(store, file));
  return ctx.reply.text(`\`/soul ${truncateText(word, 40)}\` is not a soul command. ${USAGE}`);
}
