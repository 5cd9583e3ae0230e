/**
 * What "Always allow in this chat" keeps for the model agent: by chat id, the tools that run there
 * without asking. It lives in the agent's state (one for all chats, kept across restarts), so it is
 * keyed by chat and bounded: the chats that most recently allowed something, and tools per chat.
 */

export type AlwaysAllowed = Record<string, string[]>;

export const MAX_ALWAYS_CHATS = 100;
export const MAX_ALWAYS_TOOLS = 200;

/** The tools allowed in a chat; anything else stored there (an older or hand-edited state) is none. */
export function listAlwaysAllowed(allowed: unknown, chatId: string): string[] {
  if (!allowed || typeof allowed !== 'object' || Array.isArray(allowed)) return [];
  const list = Object.hasOwn(allowed, chatId) ? (allowed as Record<string, unknown>)[chatId] : undefined;
  return Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * The map with `name` allowed in `chatId`; that chat moves to the end, and the chats that allowed
 * something longest ago go first past the bound. Unchanged (the same object) when already allowed
 * or when the chat holds as many tools as it may.
 *
 * @example addAlwaysAllowed({}, 'chat_1', 'deploy') // { chat_1: ['deploy'] }
 */
export function addAlwaysAllowed(allowed: AlwaysAllowed | undefined, chatId: string, name: string): AlwaysAllowed {
  const map = allowed && typeof allowed === 'object' && !Array.isArray(allowed) ? allowed : {};
  const current = listAlwaysAllowed(map, chatId);
  if (current.includes(name) || current.length >= MAX_ALWAYS_TOOLS) return map;
  const others = Object.entries(map).filter(([id]) => id !== chatId);
  return Object.fromEntries([...others.slice(Math.max(0, others.length - (MAX_ALWAYS_CHATS - 1))), [chatId, [...current, name]]]);
}

/**
 * The map without `chatId`'s tools: what `/ask-again` does.
 *
 * @example removeAlwaysAllowed({ chat_1: ['deploy'] }, 'chat_1') // {}
 */
export function removeAlwaysAllowed(allowed: AlwaysAllowed | undefined, chatId: string): AlwaysAllowed {
  const map = allowed && typeof allowed === 'object' && !Array.isArray(allowed) ? allowed : {};
  return Object.fromEntries(Object.entries(map).filter(([id]) => id !== chatId));
}
