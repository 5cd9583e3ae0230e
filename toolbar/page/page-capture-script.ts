/**
 * Builds `dist/page-capture.js` (see page-capture-entry.ts): one small classic script, minified
 * and ASCII-only, that can sit inline in a page's `<head>`. Runs in Node, at build time and in
 * the tests. The toolbar loads the same file from the agent server on a page without it inline.
 * It is on DevTools' ignore list, as the page's console wrapper should be.
 */
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ENTRY = fileURLToPath(new URL('./page-capture-entry.ts', import.meta.url));
/** The name DevTools shows for the script, inline or loaded. */
export const PAGE_CAPTURE_SOURCE_URL = 'agentbar-page-capture.js';

/**
 * The comments that name the script and put it on DevTools' ignore list: a source map (inline, so
 * nothing is fetched) whose one source is listed in `ignoreList`. DevTools then shows, for a
 * console message, the line of the page's code that logged it rather than the capture's wrapper.
 */
function renderIgnoreListComments(code: string): string {
  const lines = code.split('\n').length;
  const map = {
    version: 3,
    sources: [PAGE_CAPTURE_SOURCE_URL],
    names: [],
    // Every generated line maps to the one source, so every frame of the script is ignore-listed.
    mappings: Array.from({ length: lines }, () => 'AAAA').join(';'),
    ignoreList: [0],
    x_google_ignoreList: [0],
  };
  const data = Buffer.from(JSON.stringify(map), 'utf8').toString('base64');
  return `//# sourceURL=${PAGE_CAPTURE_SOURCE_URL}\n//# sourceMappingURL=data:application/json;base64,${data}`;
}

/**
 * The capture script's source. Throws when it holds text that would end an inline `<script>`
 * early (`</script`, `<!--`), which no escaping after the fact could repair.
 *
 * @example this.emitFile({ type: 'asset', fileName: 'page-capture.js', source: buildPageCaptureScript() });
 */
export function buildPageCaptureScript(): string {
  const result = buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2022',
    charset: 'ascii',
    legalComments: 'none',
    write: false,
  });
  const built = result.outputFiles[0]!.text.trim();
  const code = `${built}\n${renderIgnoreListComments(built)}`;
  if (/<\/script|<!--/i.test(code)) throw new Error('page-capture.js would end its inline <script> early');
  return code;
}
