/**
 * Loads the highlighter's grammars on demand: `lang/NAME.js` beside the toolbar's own script,
 * added as a classic <script>, so no CORS is involved and a page whose Content-Security-Policy
 * admits `toolbar.js` admits it too (it gets the toolbar script's nonce; under Trusted Types the
 * URL comes from a policy named `agentbar`). Each grammar is asked for once per page; one that
 * fails, is blocked or does not arrive in time leaves its code plain and is not asked for again.
 */
import type { GrammarName } from './grammar-names.ts';
import type { GrammarSource } from './grammar-sources.ts';

/** Where a grammar script hands its data (see `grammarScript`). */
const REGISTER = Symbol.for('agentbar.grammar');

/** A grammar that has not arrived by then counts as failed. */
export const GRAMMAR_LOAD_TIMEOUT_MS = 10_000;

/** Longest pattern or word list a grammar may bring: they are compiled into regular expressions. */
const MAX_FIELD_CHARS = 4_000;

/** The Trusted Types policy name a page that enforces them must allow for grammars to load. */
export const TRUSTED_TYPES_POLICY = 'agentbar';

interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}

const sources = new Map<string, GrammarSource>();
/** Undefined until first needed; null where Trusted Types are missing or refuse the policy. */
let policy: ScriptUrlPolicy | null | undefined;
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
 * The script URL as the page accepts it: a TrustedScriptURL from our own policy (which vouches
 * only for URLs under the grammar base) where Trusted Types exist, else the string.
 */
function toScriptUrl(url: string, base: string): unknown {
  if (policy === undefined) {
    const trustedTypes = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy } }).trustedTypes;
    try {
      policy =
        trustedTypes?.createPolicy(TRUSTED_TYPES_POLICY, {
          createScriptURL: (candidate) => {
            if (!candidate.startsWith(base)) throw new TypeError(`agentbar loads grammars from ${base} only`);
            return candidate;
          },
        }) ?? null;
    } catch {
      // The page allows only other policy names: grammars cannot load there.
      policy = null;
    }
  }
  return policy ? policy.createScriptURL(url) : url;
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
  const load = new Promise<boolean>((resolve) => {
    const script = document.createElement('script');
    const finish = () => {
      clearTimeout(timer);
      script.onload = script.onerror = null;
      // The script has run (or never will): the page keeps no trace of it.
      script.remove();
      resolve(sources.has(name));
    };
    const timer = setTimeout(finish, GRAMMAR_LOAD_TIMEOUT_MS);
    script.onload = finish;
    script.onerror = finish;
    script.async = true;
    if (from.nonce) script.nonce = from.nonce;
    try {
      script.src = toScriptUrl(new URL(`${name}.js`, from.base).href, from.base) as string;
      (document.head ?? document.documentElement).append(script);
    } catch {
      // A page enforcing Trusted Types without allowing our policy refuses the URL: code stays plain.
      finish();
    }
  });
  loads.set(name, load);
  return load;
}
