/**
 * Brings chat files written by older versions up to the current shape before validation, so an
 * upgrade never turns a user's history into a "corrupt" file.
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Fills what older versions did not write: an assistant message without `agent` (before agents
 * were named) gets `'unknown'`, one without `status` was finished, so `'done'`; a user message
 * without metadata gets an empty one. Returns the input unchanged when nothing is missing.
 *
 * @example migrateMessage({ id: 'm1', role: 'assistant', content: [], status: 'done', createdAt: 1 })
 * // → { …, agent: 'unknown' }
 */
export function migrateMessage(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  if (raw.role === 'assistant') {
    if (typeof raw.agent === 'string' && typeof raw.status === 'string') return raw;
    return {
      ...raw,
      agent: typeof raw.agent === 'string' ? raw.agent : 'unknown',
      status: typeof raw.status === 'string' ? raw.status : 'done',
    };
  }
  if (raw.role === 'user' && raw.metadata === undefined) {
    return { ...raw, metadata: { source: 'other', selectedElements: [] } };
  }
  return raw;
}

/**
 * Header line of a chat file. Version 0 (no `v`, no `gen`) had the info only; its journal lines, if
 * any, carry no generation either, so both get the empty generation.
 */
export function migrateHeader(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  if (raw.v === undefined) return { ...raw, v: 1, gen: typeof raw.gen === 'string' ? raw.gen : '' };
  if (raw.v === 1 && raw.gen === undefined) return { ...raw, gen: '' };
  return raw;
}
