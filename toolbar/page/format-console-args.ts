/**
 * Page values as bounded text, the way the browser's console shows them. Part of the page capture
 * (page-capture.ts), so it runs on every console call of the page: it reads own data properties
 * only and never runs the page's code (no getter, no `toString`, no `valueOf`), so logging an
 * object looks the same to the page with or without agentbar.
 */
import { truncateText } from '../../shared/truncate.ts';

/** What stands for a value that throws when read. */
const UNREADABLE = '(unreadable)';
/** Keys or items shown per object or array, and levels of nesting before `{…}`. */
const MAX_ENTRIES = 20;
const MAX_DEPTH = 2;

/** A property's value without calling a getter: an accessor shows as `(...)`, as in the console. */
function readOwn(target: object, key: PropertyKey): { value: unknown } | null {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (!descriptor) return null;
  return 'value' in descriptor ? { value: descriptor.value } : null;
}

/** The name an object's class gives it (`Foo` for `new Foo()`), or '' for plain objects. */
function classNameOf(value: object): string {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === null || proto === Object.prototype || typeof proto !== 'object') return '';
  const ctor = readOwn(proto, 'constructor')?.value;
  if (typeof ctor !== 'function') return '';
  const name = readOwn(ctor, 'name')?.value;
  return typeof name === 'string' ? name : '';
}

function functionName(fn: Function): string {
  const name = readOwn(fn, 'name')?.value;
  return typeof name === 'string' && name ? name : 'anonymous';
}

function quote(text: string, budget: number): string {
  return `'${truncateText(text, budget)}'`;
}

/** `<div id="a" class="b">`, `#text 'hi'`: how the console names a DOM node. */
function showNode(value: Node, budget: number): string {
  if (typeof Element === 'function' && value instanceof Element) {
    const id = value.getAttribute('id');
    const cls = value.getAttribute('class');
    return truncateText(`<${value.localName}${id ? ` id="${id}"` : ''}${cls ? ` class="${cls}"` : ''}>`, budget);
  }
  if (value.nodeType === 3) return `#text ${quote(value.nodeValue ?? '', budget)}`;
  return value.nodeName;
}

function isNode(value: object): value is Node {
  return typeof Node === 'function' && value instanceof Node;
}

/** The first `MAX_ENTRIES + 1` entries of a Map or Set, without copying a large one whole. */
function firstEntries(collection: Map<unknown, unknown> | Set<unknown>): [unknown, unknown][] {
  const out: [unknown, unknown][] = [];
  for (const entry of collection.entries()) {
    if (out.length > MAX_ENTRIES) break;
    out.push(entry);
  }
  return out;
}

function show(value: unknown, depth: number, budget: number): string {
  switch (typeof value) {
    case 'string':
      return quote(value, budget);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'symbol':
      return `Symbol(${value.description ?? ''})`;
    case 'function':
      return `ƒ ${functionName(value)}()`;
  }
  if (value === null) return 'null';
  return showObject(value as object, depth, budget);
}

function showObject(value: object, depth: number, budget: number): string {
  if (value instanceof Error) return errorHeadline(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
  if (isNode(value)) return showNode(value, budget);
  if (value instanceof Promise) return 'Promise {…}';
  const name = classNameOf(value);
  if (ArrayBuffer.isView(value)) return `${name || 'TypedArray'}(${value.byteLength} bytes)`;
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return `Array(${value.length})`;
    return `[${listEntries(value.length, (i) => show(readOwn(value, i)?.value, depth + 1, budget), budget)}]`;
  }
  if (value instanceof Map || value instanceof Set) {
    const kind = value instanceof Map ? 'Map' : 'Set';
    if (depth >= MAX_DEPTH) return `${kind}(${value.size})`;
    const items = firstEntries(value);
    const shown = listEntries(items.length, (i) => {
      const [k, v] = items[i]!;
      return value instanceof Map ? `${show(k, depth + 1, budget)} => ${show(v, depth + 1, budget)}` : show(v, depth + 1, budget);
    }, budget);
    return `${kind}(${value.size}) {${shown}}`;
  }
  const prefix = name ? `${name} ` : '';
  if (depth >= MAX_DEPTH) return `${prefix}{…}`;
  const keys = Object.keys(value);
  const body = listEntries(keys.length, (i) => {
    const key = keys[i]!;
    const own = readOwn(value, key);
    return `${key}: ${own ? show(own.value, depth + 1, budget) : '(...)'}`;
  }, budget);
  return `${prefix}{${body}}`;
}

/** Up to `MAX_ENTRIES` entries joined with `, `, stopping early once `budget` characters are used. */
function listEntries(count: number, entry: (index: number) => string, budget: number): string {
  const parts: string[] = [];
  let used = 0;
  for (let i = 0; i < count; i++) {
    if (i >= MAX_ENTRIES || used > budget) {
      parts.push('…');
      break;
    }
    const part = entry(i);
    parts.push(part);
    used += part.length + 2;
  }
  return parts.join(', ');
}

function errorHeadline(error: Error): string {
  const name = typeof error.name === 'string' ? error.name : 'Error';
  const message = typeof error.message === 'string' ? error.message : '';
  return message ? `${name}: ${message}` : name;
}

/**
 * One value as the console shows it at the top level: a string as it is, an error with its stack,
 * anything else as a bounded preview.
 *
 * @example
 * previewValue({ a: 1, b: [1, 2] }, 100) // "{a: 1, b: [1, 2]}"
 */
export function previewValue(value: unknown, max: number): string {
  try {
    if (typeof value === 'string') return truncateText(value, max);
    if (value instanceof Error && typeof value.stack === 'string' && value.stack.includes(errorHeadline(value))) {
      return truncateText(value.stack, max);
    }
    return truncateText(show(value, 0, max), max);
  } catch {
    // A revoked proxy, say: the rest of the message is still worth keeping.
    return UNREADABLE;
  }
}

/** `%d`/`%i`: an integer, from a number or a numeric string, as the console does; NaN otherwise. */
function formatInteger(value: unknown): string {
  if (typeof value === 'number') return String(Math.trunc(value));
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return String(Number.parseInt(value, 10));
  return 'NaN';
}

function formatFloat(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return String(Number.parseFloat(value));
  return 'NaN';
}

/**
 * A console call's arguments as one line of text: the format specifiers of a first string
 * argument (`%s %d %i %f %o %O %c %%`) take the arguments that follow (`%c` styles are dropped),
 * the rest are joined with spaces. Each argument gets at most `maxArgChars`, the whole at most
 * `maxChars`.
 *
 * @example
 * formatConsoleArgs(['%s has %d items', 'cart', 3, { id: 1 }], 100, 200) // "cart has 3 items {id: 1}"
 */
export function formatConsoleArgs(args: readonly unknown[], maxArgChars: number, maxChars: number): string {
  const parts: string[] = [];
  let next = 0;
  const first = args[0];
  if (typeof first === 'string' && args.length > 1 && first.includes('%')) {
    next = 1;
    const formatted = first.replace(/%([sdifoOc%])/g, (match, spec: string) => {
      if (spec === '%') return '%';
      if (next >= args.length) return match;
      const arg = args[next++];
      if (spec === 'c') return '';
      if (spec === 'd' || spec === 'i') return formatInteger(arg);
      if (spec === 'f') return formatFloat(arg);
      return previewValue(arg, maxArgChars);
    });
    parts.push(truncateText(formatted, maxChars));
  }
  for (let i = next; i < args.length; i++) parts.push(previewValue(args[i], maxArgChars));
  return truncateText(parts.join(' '), maxChars);
}

/**
 * What the page threw or rejected with: a message (`TypeError: x is undefined`, or the value's
 * preview when it is not an Error) and the stack when there is one.
 *
 * @example
 * describeThrown(new Error('boom'), 100, 1000) // { message: 'Error: boom', stack: 'Error: boom\n    at …' }
 */
export function describeThrown(value: unknown, maxMessage: number, maxStack: number): { message: string; stack: string | null } {
  try {
    if (value instanceof Error) {
      const stack = typeof value.stack === 'string' && value.stack ? truncateText(value.stack, maxStack) : null;
      return { message: truncateText(errorHeadline(value), maxMessage), stack };
    }
  } catch {
    // A revoked proxy, say: that something was thrown is still worth keeping.
    return { message: UNREADABLE, stack: null };
  }
  return { message: previewValue(value, maxMessage), stack: null };
}
