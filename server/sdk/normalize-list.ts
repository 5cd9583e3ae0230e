/**
 * The one way an agent's lists (its commands, modes, settings and each setting's values) are
 * checked before they reach the state every client renders: they come from another program, so
 * each is bounded in length, entries that are not objects or lack a usable key are left out, a key
 * is kept once, and text fields are clipped to one line.
 */
import { truncateLine } from '../../shared/truncate.ts';

export interface ListRules<T> {
  /** Entries kept at most; the rest are left out. */
  max: number;
  /** The entry's key (its name, its id, its value), or null when it has none usable. */
  pickKey(fields: Readonly<Record<string, unknown>>): string | null;
  /** The entry as kept, or null to leave it out; the key of an entry left out stays free. */
  build(key: string, fields: Readonly<Record<string, unknown>>): T | null;
  /** True once a budget over the whole list is spent: no further entry is read. */
  isFull?(): boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The entries as kept: in order, each key once (the first entry with it), at most `rules.max`.
 *
 * @example normalizeList([{ id: 'a' }, { id: 'a' }, null, { id: 'b' }], { max: 10, pickKey: (f) => readKey(f.id, 64), build: (id) => ({ id }) })
 * // [{ id: 'a' }, { id: 'b' }]
 */
export function normalizeList<T>(entries: readonly unknown[], rules: ListRules<T>): T[] {
  const kept: T[] = [];
  const keys = new Set<string>();
  for (const entry of entries) {
    if (kept.length >= rules.max || rules.isFull?.()) break;
    if (!isRecord(entry)) continue;
    const key = rules.pickKey(entry);
    if (key === null || keys.has(key)) continue;
    const built = rules.build(key, entry);
    if (built === null) continue;
    keys.add(key);
    kept.push(built);
  }
  return kept;
}

/**
 * A key as the protocol takes it: a string, trimmed, not empty and within `maxLength`; else null.
 *
 * @example readKey(' plan ', 128) // 'plan'
 */
export function readKey(value: unknown, maxLength: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= maxLength ? trimmed : null;
}

/**
 * A text field as one line of at most `max` characters, or undefined when it is not a string or
 * has no words (so the caller leaves the field out, or puts its fallback).
 *
 * @example readLine('Review\n  the diff', 300) // 'Review the diff'
 */
export function readLine(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.trim() ? truncateLine(value, max) : undefined;
}
