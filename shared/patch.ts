/**
 * The patch applier both sides use: RFC 6902 `add`, `remove`, `replace` plus the protocol's
 * `append` for streamed text (PROTOCOL §3).
 *
 * `applyPatch` is pure: it returns a new document that shares every untouched branch with the old
 * one, so a UI bound to it re-renders only what a patch changed. `applyPatchInPlace` mutates; the
 * server uses it on the document it owns.
 */
import type { Op } from './schemas.ts';

export class PatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchError';
  }
}

/** Splits a JSON Pointer into unescaped segments: `/a~1b/0` → `['a/b', '0']`. */
export function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (path[0] !== '/') throw new PatchError(`Invalid JSON Pointer: ${path}`);
  const parts = path.slice(1).split('/');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.includes('~')) parts[i] = p.replace(/~1/g, '/').replace(/~0/g, '~');
  }
  return parts;
}

/** Escapes one segment for a JSON Pointer: `a/b` → `a~1b`. */
export function escapePointerSegment(segment: string | number): string {
  const s = String(segment);
  return s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s;
}

/** Builds a JSON Pointer from segments: `toPointer(['chats', 'a/b'])` → `/chats/a~1b`. */
export function toPointer(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) out += '/' + escapePointerSegment(s);
  return out;
}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function arrayIndex(arr: unknown[], key: string, forInsert: boolean): number {
  if (forInsert && key === '-') return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(key)) throw new PatchError(`Invalid array index: ${key}`);
  const i = Number(key);
  if (i > arr.length || (!forInsert && i === arr.length)) throw new PatchError(`Array index out of range: ${key}`);
  return i;
}

function applyToParent(parent: Container, key: string, op: Op): void {
  if (Array.isArray(parent)) {
    if (op.op === 'add') {
      parent.splice(arrayIndex(parent, key, true), 0, op.value);
      return;
    }
    const i = arrayIndex(parent, key, false);
    if (op.op === 'remove') parent.splice(i, 1);
    else if (op.op === 'replace') parent[i] = op.value;
    else {
      const current = parent[i];
      if (typeof current !== 'string') throw new PatchError(`append target is not a string: ${op.path}`);
      parent[i] = current + op.value;
    }
    return;
  }
  const has = Object.prototype.hasOwnProperty.call(parent, key);
  if (op.op === 'add') {
    // defineProperty, so a `__proto__` key is a key (as JSON.parse makes it), not a prototype change.
    Object.defineProperty(parent, key, { value: op.value, writable: true, enumerable: true, configurable: true });
    return;
  }
  if (!has) throw new PatchError(`No value at ${op.path}`);
  if (op.op === 'remove') delete parent[key];
  else if (op.op === 'replace') Object.defineProperty(parent, key, { value: op.value, writable: true, enumerable: true, configurable: true });
  else {
    const current = parent[key];
    if (typeof current !== 'string') throw new PatchError(`append target is not a string: ${op.path}`);
    parent[key] = current + op.value;
  }
}

function shallowCopy(value: Container): Container {
  return Array.isArray(value) ? value.slice() : { ...value };
}

function childOf(container: Container, key: string, path: string): unknown {
  if (Array.isArray(container)) {
    const i = arrayIndex(container, key, false);
    return container[i];
  }
  if (!Object.prototype.hasOwnProperty.call(container, key)) throw new PatchError(`No value at ${path}`);
  return container[key];
}

function setChild(container: Container, key: string, value: unknown): void {
  if (Array.isArray(container)) container[Number(key)] = value;
  else container[key] = value;
}

function applyOne<T>(doc: T, op: Op, copy: boolean, copied: Set<unknown> | null): T {
  const segments = parsePointer(op.path);
  if (segments.length === 0) {
    if (op.op === 'add' || op.op === 'replace') return op.value as T;
    throw new PatchError(`Cannot ${op.op} the document root`);
  }
  if (!isContainer(doc)) throw new PatchError(`No container at ${op.path}`);
  let root = doc as Container;
  if (copy && !copied!.has(root)) {
    root = shallowCopy(root);
    copied!.add(root);
  }
  let parent = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i]!;
    const found = childOf(parent, key, op.path);
    if (!isContainer(found)) throw new PatchError(`No container at ${op.path}`);
    let child: Container = found;
    if (copy && !copied!.has(child)) {
      child = shallowCopy(child);
      copied!.add(child);
      setChild(parent, key, child);
    }
    parent = child;
  }
  applyToParent(parent, segments[segments.length - 1]!, op);
  return root as T;
}

/**
 * Applies `ops` in order and returns the new document; `doc` itself is never changed, and
 * branches the ops do not touch are shared. Throws `PatchError` when an op cannot apply, in which
 * case the caller keeps its old document (a frame applies atomically).
 *
 * @example
 * applyPatch({ text: 'Hel' }, [{ op: 'append', path: '/text', value: 'lo' }]) // { text: 'Hello' }
 */
export function applyPatch<T>(doc: T, ops: readonly Op[]): T {
  // Containers copied during this call may be mutated again by later ops of the same frame.
  const copied = new Set<unknown>();
  let out = doc;
  for (const op of ops) out = applyOne(out, op, true, copied);
  return out;
}

/**
 * Applies `ops` to `doc` by mutation and returns the (possibly new) root. Not atomic: use it only
 * on documents whose ops are known to apply, such as the server's own state. The document takes
 * added values by reference (the server shares a chat's message array with its state this way),
 * so serialize ops before applying them if they are to be sent: `StateStore.change` does.
 */
export function applyPatchInPlace<T>(doc: T, ops: readonly Op[]): T {
  let out = doc;
  for (const op of ops) out = applyOne(out, op, false, null);
  return out;
}
