/**
 * Builds the browser toolbar (`toolbar/main.tsx`) into ONE classic script, `dist/toolbar.js`, that
 * the server serves and any page can load with a plain <script> tag. Its CSS is a string injected
 * into the toolbar's shadow root, so there is no CSS file to serve. The highlighter's grammars go
 * beside it, one small script each in `dist/lang/`, loaded when first needed, and so do the
 * page-drawing code of pictures and `take_screenshot`, `dist/screenshot.js`, and the page tools'
 * code, `dist/page-tools.js`. The page capture that pages inline before their own scripts is
 * `dist/page-capture.js`; the toolbar loads it at boot on a page that did not.
 *
 * The tests' config is vitest.config.ts.
 */
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import { Features, transform as transformCss } from 'lightningcss';
import { GRAMMAR_NAMES } from './toolbar/markdown/grammar-names.ts';
import { grammarScript } from './toolbar/markdown/grammar-sources.ts';
import { buildPageCaptureScript } from './toolbar/page/page-capture-script.ts';
import { TOOLBAR_CSS } from './toolbar/styles.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Escapes every non-ASCII character of the bundle as `\uXXXX`. A page without a charset
 * declaration would otherwise decode the script as windows-1252 and show `…` as `â€¦`. The escape
 * is valid in strings, templates, regular expressions (a surrogate pair stays a pair) and comments.
 */
function asciiOnly(): Plugin {
  return {
    name: 'agentbar:ascii-only',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        chunk.code = chunk.code.replace(/[^\x00-\x7f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
      }
    },
  };
}

/**
 * Writes each highlighter grammar to `dist/lang/NAME.js`, outside the bundle: the toolbar loads
 * one the first time a code block in its language shows (toolbar/markdown/grammar-loader.ts).
 */
function grammarScripts(): Plugin {
  return {
    name: 'agentbar:grammar-scripts',
    apply: 'build',
    generateBundle() {
      for (const name of GRAMMAR_NAMES) this.emitFile({ type: 'asset', fileName: `lang/${name}.js`, source: grammarScript(name) });
    },
  };
}

/**
 * The scripts the toolbar loads from beside its own the first time it needs them, so its bundle
 * stays small: the code that draws the page (modern-screenshot), for pictures and
 * `take_screenshot`, and the page tools' code (page-tools.ts), for the tools it only declares.
 */
const LAZY_SCRIPTS = [
  { entry: 'toolbar/screenshot/screenshot-entry.ts', name: 'agentbarScreenshot', fileName: 'screenshot.js' },
  { entry: 'toolbar/tools/page-tools-entry.ts', name: 'agentbarPageTools', fileName: 'page-tools.js' },
];

/** Builds each of LAZY_SCRIPTS once the bundle is written, as a classic script of its own. */
function lazyScripts(): Plugin {
  return {
    name: 'agentbar:lazy-scripts',
    apply: 'build',
    async closeBundle() {
      for (const { entry, name, fileName } of LAZY_SCRIPTS) {
        await build({
          root,
          configFile: false,
          logLevel: 'warn',
          publicDir: false,
          plugins: [asciiOnly()],
          build: {
            outDir: 'dist',
            emptyOutDir: false,
            target: 'es2022',
            sourcemap: false,
            lib: { entry, name, formats: ['iife'], fileName: () => fileName },
          },
        });
      }
    },
  };
}

/**
 * Writes `dist/page-capture.js`, the small script the Vite plugin and the demo page inline first
 * in a page so the page tools see console messages, errors and requests from its very start (and
 * the toolbar loads at boot on a page without it).
 */
function pageCaptureScript(): Plugin {
  return {
    name: 'agentbar:page-capture-script',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'page-capture.js', source: buildPageCaptureScript() });
    },
  };
}

/**
 * Ships the toolbar's CSS minified: `toolbar/styles.ts` keeps its comments and layout for people
 * reading it, which were about a tenth of the gzipped bundle. lightningcss (Vite's own CSS
 * minifier) keeps the cascade as written; a CSS error fails the build rather than shipping.
 */
function minifiedStyles(): Plugin {
  return {
    name: 'agentbar:minified-styles',
    apply: 'build',
    transform(source, id) {
      if (!id.endsWith('/toolbar/styles.ts')) return null;
      // The CSS minified is the one this config imported when it loaded: a file changed since (a
      // watching build) would ship stale styles, so it stops the build instead.
      if (!source.includes(TOOLBAR_CSS)) this.error('toolbar/styles.ts changed after the build began: run it again');
      // light-dark() as custom properties any browser reads (Safari reads light-dark() from 17.5 on).
      const { code } = transformCss({ filename: 'toolbar.css', code: Buffer.from(TOOLBAR_CSS), minify: true, errorRecovery: false, include: Features.LightDark });
      return { code: `export const TOOLBAR_CSS = ${JSON.stringify(code.toString())};\n`, map: null };
    },
  };
}

export default defineConfig({
  root,
  // Preact's automatic JSX runtime, without @preact/preset-vite.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // The bundle runs in other people's pages: no `process.env` lookups left in it.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  publicDir: false,
  plugins: [asciiOnly(), grammarScripts(), minifiedStyles(), lazyScripts(), pageCaptureScript()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    lib: {
      entry: 'toolbar/main.tsx',
      name: 'agentbarToolbar',
      formats: ['iife'],
      fileName: () => 'toolbar.js',
    },
  },
});
