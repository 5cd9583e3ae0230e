/**
 * Builds the browser toolbar as classic scripts the server serves. The first, `dist/toolbar.js`
 * (`toolbar/main.tsx`), is the one a page loads with a plain <script> tag on every page view: the
 * launcher button, small on purpose. The panel (the Preact app, store, sync client, tools) is
 * `dist/panel.js`, which the launcher loads from beside itself on idle or on first open. Their
 * CSS is a string each injects into the toolbar's shadow root, so there is no CSS file to serve.
 * The highlighter's grammars go beside them, one small script each in `dist/lang/`, loaded when
 * first needed, and so do the page-drawing code of pictures and `take_screenshot`,
 * `dist/screenshot.js`, and the page tools' code, `dist/page-tools.js`. The page capture that
 * pages inline before their own scripts is `dist/page-capture.js`; the launcher loads it at boot
 * on a page that did not.
 *
 * The tests' config is vitest.config.ts.
 */
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import { Features, transform as transformCss } from 'lightningcss';
import { GRAMMAR_NAMES } from './toolbar/markdown/grammar-names.ts';
import { grammarScript } from './toolbar/markdown/grammar-sources.ts';
import { buildPageCaptureScript } from './toolbar/page/page-capture-script.ts';
import { LAUNCHER_CSS, PANEL_CSS } from './toolbar/styles.ts';

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
 * The scripts the toolbar loads from beside its own, so the launcher stays small: the panel, on
 * idle or first open; the code that draws the page (modern-screenshot), for pictures and
 * `take_screenshot`, and the page tools' code (page-tools.ts), for the tools it only declares,
 * each the first time it is needed.
 */
const LAZY_SCRIPTS = [
  { entry: 'toolbar/panel-entry.ts', name: 'agentbarPanel', fileName: 'panel.js' },
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
          ...SHARED_OPTIONS,
          plugins: [asciiOnly(), minifiedStyles()],
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
      if (!source.includes(LAUNCHER_CSS) || !source.includes(PANEL_CSS)) this.error('toolbar/styles.ts changed after the build began: run it again');
      // light-dark() as custom properties any browser reads (Safari reads light-dark() from 17.5 on).
      const minify = (css: string) =>
        JSON.stringify(transformCss({ filename: 'toolbar.css', code: Buffer.from(css), minify: true, errorRecovery: false, include: Features.LightDark }).code.toString());
      const code = `export const LAUNCHER_CSS = ${minify(LAUNCHER_CSS)};\nexport const PANEL_CSS = ${minify(PANEL_CSS)};\nexport const TOOLBAR_CSS = LAUNCHER_CSS + PANEL_CSS;\n`;
      return { code, map: null };
    },
  };
}

/** What every bundle is built with. */
const SHARED_OPTIONS = {
  // Preact's automatic JSX runtime, without @preact/preset-vite.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // The bundles run in other people's pages: no `process.env` lookups left in them.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
} as const;

export default defineConfig({
  root,
  ...SHARED_OPTIONS,
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
