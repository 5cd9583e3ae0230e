/**
 * Builds `dist/page-capture.js` (see page-capture-entry.ts): one small classic script, minified
 * and ASCII-only, that can sit inline in a page's `<head>`. Runs in Node, at build time and in
 * the tests. The toolbar loads the same file from the agent server on a page without it inline.
 */
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ENTRY = fileURLToPath(new URL('./page-capture-entry.ts', import.meta.url));

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
  const code = result.outputFiles[0]!.text.trim();
  if (/<\/script|<!--/i.test(code)) throw new Error('page-capture.js would end its inline <script> early');
  return code;
}
