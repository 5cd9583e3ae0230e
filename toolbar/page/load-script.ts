/**
 * Loads the toolbar's optional scripts (the highlighter's grammars, the page-drawing code) from
 * beside its own script, as classic <script>s: no CORS is involved, and a page whose
 * Content-Security-Policy admits `toolbar.js` admits them too (they get the toolbar script's
 * nonce; under Trusted Types their URLs come from a policy named `agentbar`, which vouches only
 * for URLs under the toolbar's own folder).
 */

/** The Trusted Types policy name a page that enforces them must allow for these scripts to load. */
export const TRUSTED_TYPES_POLICY = 'agentbar';

interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}

/** Undefined until first needed; null where Trusted Types are missing or refuse the policy. */
let policy: ScriptUrlPolicy | null | undefined;

/**
 * Where the policy is kept for the other bundle: `toolbar.js` and `panel.js` each hold a copy of
 * this file, and a page may allow the name `agentbar` once only (no 'allow-duplicates').
 */
const SHARED_POLICY = Symbol.for('agentbar.script-url-policy');

function isScriptUrlPolicy(value: unknown): value is ScriptUrlPolicy {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'createScriptURL') === 'function';
}

function readSharedPolicy(): ScriptUrlPolicy | null | undefined {
  const kept: unknown = Reflect.get(globalThis, SHARED_POLICY);
  if (!kept || typeof kept !== 'object') return undefined;
  const found: unknown = Reflect.get(kept, 'policy');
  return found === null || isScriptUrlPolicy(found) ? found : undefined;
}
/** The toolbar's folder, once `configureScripts` knows it. */
let place: { root: string; nonce: string | undefined } | null = null;

/**
 * Says where the toolbar's script is (its folder, as a URL) and its nonce. Without a root (a
 * toolbar script with no `src`), `scriptUrl` is null and nothing optional loads.
 *
 * @example configureScripts({ root: 'http://127.0.0.1:4477/', nonce: undefined })
 */
export function configureScripts(options: { root: string | null; nonce?: string }): void {
  place = options.root ? { root: options.root, nonce: options.nonce || undefined } : null;
}

/**
 * The URL of a file beside the toolbar's script, or null when it is not known.
 *
 * @example scriptUrl('screenshot.js') // 'http://127.0.0.1:4477/screenshot.js'
 */
export function scriptUrl(path: string): string | null {
  return place ? new URL(path, place.root).href : null;
}

/** The URL as the page accepts it: a TrustedScriptURL from our own policy where Trusted Types exist. */
function toScriptUrl(url: string): unknown {
  if (policy === undefined) policy = readSharedPolicy();
  if (policy === undefined) {
    // Vouch for the toolbar's folder; unconfigured, only for the folder of the first URL asked for.
    const root = place?.root ?? new URL('.', url).href;
    const trustedTypes = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy } }).trustedTypes;
    try {
      policy =
        trustedTypes?.createPolicy(TRUSTED_TYPES_POLICY, {
          createScriptURL: (candidate) => {
            if (!candidate.startsWith(root)) throw new TypeError(`agentbar loads scripts from ${root} only`);
            return candidate;
          },
        }) ?? null;
    } catch {
      // The page allows only other policy names: nothing optional can load there.
      policy = null;
    }
    Reflect.set(globalThis, SHARED_POLICY, { policy });
  }
  return policy ? policy.createScriptURL(url) : url;
}

/**
 * Adds a classic script for `url` and resolves once it has run, failed, been blocked, or not
 * arrived within `timeoutMs`: the caller checks what it registered. The page keeps no trace of it.
 *
 * @example await loadScript('http://127.0.0.1:4477/lang/python.js', { timeoutMs: 10_000 });
 */
export function loadScript(url: string, options: { timeoutMs: number; nonce?: string }): Promise<void> {
  return new Promise<void>((resolve) => {
    const script = document.createElement('script');
    const finish = () => {
      clearTimeout(timer);
      script.onload = script.onerror = null;
      script.remove();
      resolve();
    };
    const timer = setTimeout(finish, options.timeoutMs);
    script.onload = finish;
    script.onerror = finish;
    script.async = true;
    const nonce = options.nonce ?? place?.nonce;
    if (nonce) script.nonce = nonce;
    try {
      script.src = toScriptUrl(url) as string;
      (document.head ?? document.documentElement).append(script);
    } catch {
      // A page enforcing Trusted Types without allowing our policy refuses the URL.
      finish();
    }
  });
}
