/**
 * Loads the highlighter's grammars on demand: `lang/NAME.js` beside the toolbar's own script
 * (page/load-script.ts says how, under a Content-Security-Policy and Trusted Types too). Each
 * grammar is asked for once per page; one that fails, is blocked or does not arrive in time
 * leaves its code plain and is not asked for again.
 */
import { loadScript } from '../page/load-script.ts';
import type { GrammarName } from './grammar-names.ts';
import type { GrammarSource } from './grammar-sources.ts';

/** Where a grammar script hands its data (see `grammarScript`). */
const REGISTER = Symbol.for('agentbar.grammar');

/** A grammar that has not arrived by then counts as failed. */
export const GRAMMAR_LOAD_TIMEOUT_MS = 10_000;

/** Longest pattern or word list a grammar may bring: they are compiled into regular expressions. */
const MAX_FIELD_CHARS = 4_000;

const sources = new Map<string, GrammarSource>();
const loads = new Map<string, Promise<boolean>>();
let where: { base: string; nonce: string | undefined } | null = null;

function isGrammarSource(value: unknown): value is GrammarSource {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const fields = [v.comment, v.string, v.keywords, v.literals];
  return fields.every((f) => typeof f === 'string' && f.length <= MAX_FIELD_CHARS) && (v.caseless === undefined || typeof v.caseless === 'boolean');
}

/**
 * Keeps a grammar's data (what a grammar script calls). Anything malformed is ignored.
 *
 * @example registerGrammar('json', { comment: '', string: '"[^"]*"', keywords: '', literals: 'true false null' })
 */
export function registerGrammar(name: unknown, source: unknown): boolean {
  if (typeof name !== 'string' || !isGrammarSource(source) || sources.has(name)) return false;
  sources.set(name, { comment: source.comment, string: source.string, keywords: source.keywords, literals: source.literals, caseless: source.caseless === true });
  return true;
}

/** The grammar's data, once it has arrived. */
export function grammarSource(name: string): GrammarSource | undefined {
  return sources.get(name);
}

/**
 * Says where grammars are loaded from and lets their scripts reach this toolbar. Without a base
 * (a toolbar script with no `src`), code stays plain.
 *
 * @example configureGrammars(window, { base: 'http://127.0.0.1:4477/lang/', nonce: undefined })
 */
export function configureGrammars(win: Window, options: { base: string | null; nonce?: string }): void {
  where = options.base ? { base: options.base, nonce: options.nonce || undefined } : null;
  (win as unknown as Record<symbol, unknown>)[REGISTER] = registerGrammar;
}

/**
 * Loads a grammar, once: resolves true when it is there, false when it cannot be (no base, a
 * network error, a blocking CSP, a timeout).
 *
 * @example if (await loadGrammar('python')) rerender();
 */
export function loadGrammar(name: GrammarName): Promise<boolean> {
  if (sources.has(name)) return Promise.resolve(true);
  const known = loads.get(name);
  if (known) return known;
  const from = where;
  if (!from || typeof document === 'undefined') return Promise.resolve(false);
  const load = loadScript(new URL(`${name}.js`, from.base).href, { timeoutMs: GRAMMAR_LOAD_TIMEOUT_MS, nonce: from.nonce }).then(() => sources.has(name));
  loads.set(name, load);
  return load;
}
