/**
 * Amends a proxied document's Content-Security-Policy just enough for the injected toolbar: its
 * scripts (by the page's nonce when the page uses nonces, else by their path on the proxy), its
 * WebSocket, `data:` images for its pictures of the page, and its Trusted Types policy. Nothing else
 * of the policy changes.
 */

/** What the toolbar needs, as CSP sources, for one proxied document. */
export interface ToolbarSources {
  /** The folder its scripts come from, e.g. `http://localhost:4478/__agentbar/`. */
  scripts: string;
  /** Its WebSocket, e.g. `ws://localhost:4478/__agentbar/ws`. */
  socket: string;
}

/** The Trusted Types policy the toolbar makes for its script URLs. */
const TRUSTED_TYPES_POLICY = 'agentbar';

interface Directive {
  name: string;
  sources: string[];
}

function parsePolicy(policy: string): Directive[] {
  return policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .filter((words) => words[0])
    .map(([name, ...sources]) => ({ name: name!.toLowerCase(), sources }));
}

function formatPolicy(directives: readonly Directive[]): string {
  return directives.map((d) => [d.name, ...d.sources].join(' ')).join('; ');
}

const NONCE_SOURCE = /^'nonce-([A-Za-z0-9+/_=-]+)'$/;

/** The nonce of a source list, if it has one. */
function nonceOf(sources: readonly string[]): string | null {
  for (const source of sources) {
    const m = NONCE_SOURCE.exec(source);
    if (m) return m[1]!;
  }
  return null;
}

/**
 * The nonce the page's scripts carry, read from its policies (`script-src-elem`, `script-src`,
 * then `default-src`): the proxy gives its script tags the same one.
 *
 * @example readScriptNonce(["script-src 'nonce-abc' 'strict-dynamic'"]) // 'abc'
 */
export function readScriptNonce(policies: readonly string[]): string | null {
  for (const policy of policies) {
    const directives = parsePolicy(policy);
    for (const name of ['script-src-elem', 'script-src', 'default-src']) {
      const found = directives.find((d) => d.name === name);
      if (found) {
        const nonce = nonceOf(found.sources);
        if (nonce) return nonce;
        break;
      }
    }
  }
  return null;
}

/** Adds `source` to `sources` unless `covered` says the list already admits it; `'none'` goes. */
function admit(sources: string[], source: string, covered: (s: string) => boolean): string[] {
  if (sources.some(covered)) return sources;
  return [...sources.filter((s) => s.toLowerCase() !== "'none'"), source];
}

/**
 * Applies `change` to the directive `name`; without one, to a copy of `default-src` (which governs
 * that kind until then), added only when `change` changed something. `change` returns its input
 * when nothing needs adding.
 */
function amendDirective(directives: Directive[], name: string, change: (sources: string[]) => string[]): void {
  const own = directives.find((d) => d.name === name);
  if (own) {
    own.sources = change(own.sources);
    return;
  }
  const fallback = directives.find((d) => d.name === 'default-src');
  if (!fallback) return;
  const changed = change(fallback.sources);
  if (changed !== fallback.sources) directives.push({ name, sources: changed });
}

/** A script source list with the toolbar's folder added, unless its nonce or `'strict-dynamic'` decides. */
function admitScripts(sources: string[], folder: string): string[] {
  const lower = sources.map((s) => s.toLowerCase());
  if (nonceOf(sources) || lower.includes("'strict-dynamic'")) return sources;
  return admit(sources, folder, (s) => s === "'self'" || s === '*' || s === folder);
}

/**
 * The policy with the toolbar's needs added. A script list with a nonce is left alone (the
 * toolbar's tags carry it); one with `'strict-dynamic'` and no nonce ignores host sources, so it is
 * left alone too and the toolbar stays out.
 *
 * @example
 * amendPolicy("default-src 'self'", { scripts: 'http://localhost:4478/__agentbar/', socket: 'ws://localhost:4478/__agentbar/ws' })
 * // "default-src 'self'; img-src 'self' data:" ('self' admits the scripts and, in CSP 3, the socket)
 */
export function amendPolicy(policy: string, sources: ToolbarSources): string {
  const directives = parsePolicy(policy);
  const scriptLists = directives.filter((d) => d.name === 'script-src' || d.name === 'script-src-elem');
  for (const list of scriptLists) list.sources = admitScripts(list.sources, sources.scripts);
  if (scriptLists.length === 0) amendDirective(directives, 'script-src', (list) => admitScripts(list, sources.scripts));
  amendDirective(directives, 'connect-src', (list) => admit(list, sources.socket, (s) => s === "'self'" || s === sources.socket));
  amendDirective(directives, 'img-src', (list) => admit(list, 'data:', (s) => s.toLowerCase() === 'data:'));
  const trusted = directives.find((d) => d.name === 'trusted-types');
  if (trusted) trusted.sources = admit(trusted.sources, TRUSTED_TYPES_POLICY, (s) => s === '*' || s === TRUSTED_TYPES_POLICY);
  return formatPolicy(directives);
}
