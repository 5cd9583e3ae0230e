/** Every server-made id (chats, messages, tool calls, sessions) matches this (PROTOCOL §3). */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/**
 * Makes a random id with a readable prefix, e.g. `makeId('chat')` → `chat_V1StGXR8Z5jdHi6B`.
 * 16 characters of a 64-letter alphabet give 96 random bits: collisions are not a concern.
 */
export function makeId(prefix: string): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let out = prefix + '_';
  for (const b of bytes) out += ALPHABET[b & 63];
  return out;
}

/** True when `id` is safe to use as a file name or a JSON Pointer segment. */
export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}
