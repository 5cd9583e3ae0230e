/**
 * The dev servers the proxy is proven in front of, each the smallest app a user of it would have:
 * a Vite + React app, a webpack-dev-server app and a Next.js app (`next dev`). Every package is
 * pinned to an exact version (a new one is a change of its own here), and each app shows a
 * `#greeting` whose text lives in one source file a test edits to see its hot update.
 */

export interface DevServerApp {
  /** The cache folder's name starts with it. */
  name: string;
  /** Exact versions, installed once into the app's folder (see dev-app-cache.ts). */
  dependencies: Record<string, string>;
  /** The app's files, written before each test (relative path → text); `greetingFile` among them. */
  files: Record<string, string>;
  /** The file that holds the greeting's text, and `renderGreeting(text)` gives its contents. */
  greetingFile: string;
  renderGreeting: (text: string) => string;
  /** The dev server's script (relative to the app) and its arguments, listening on 127.0.0.1:`port`. */
  command: (port: number) => { script: string; args: string[] };
  /** Added to its environment. */
  env?: Record<string, string>;
}

/** What the greeting says before a test edits it. */
export const FIRST_GREETING = 'Hello from the dev server';

/** A React component module (ES modules, JSX) that shows `text` in `#greeting`. */
function reactGreeting(text: string): string {
  return `export default function Greeting() {\n  return <p id="greeting">${text}</p>\n}\n`;
}

const REACT = { react: '19.3.1', 'react-dom': '19.3.1' };

const VITE: DevServerApp = {
  name: 'vite',
  dependencies: { vite: '8.4.1', '@vitejs/plugin-react': '6.3.1', ...REACT },
  files: {
    'vite.config.mjs': `import { defineConfig } from 'vite'\nimport react from '@vitejs/plugin-react'\n\nexport default defineConfig({ plugins: [react()] })\n`,
    'index.html': `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Vite app</title>\n  </head>\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/src/main.jsx"></script>\n  </body>\n</html>\n`,
    'src/main.jsx': `import { createRoot } from 'react-dom/client'\nimport Greeting from './Greeting.jsx'\n\ncreateRoot(document.getElementById('root')).render(<Greeting />)\n`,
    'src/Greeting.jsx': reactGreeting(FIRST_GREETING),
  },
  greetingFile: 'src/Greeting.jsx',
  renderGreeting: reactGreeting,
  command: (port) => ({ script: 'node_modules/vite/bin/vite.js', args: ['--port', String(port), '--strictPort', '--host', '127.0.0.1'] }),
};

/** A plain module: webpack's hot update replaces it and index.js draws the text again. */
function webpackGreeting(text: string): string {
  return `export const greeting = ${JSON.stringify(text)};\n`;
}

/**
 * Its client's socket URL is webpack-dev-server's setting for a proxy in front (the page's own host
 * and port): without it the client dials the dev server's port directly, which works too but would
 * not prove the proxy's passage.
 */
const WEBPACK: DevServerApp = {
  name: 'webpack',
  dependencies: { webpack: '5.113.0', 'webpack-cli': '6.0.1', 'webpack-dev-server': '5.2.7' },
  files: {
    'webpack.config.js': `module.exports = {\n  mode: 'development',\n  entry: './src/index.js',\n  devServer: { static: './public', hot: true, client: { webSocketURL: 'auto://0.0.0.0:0/ws' } },\n};\n`,
    'public/index.html': `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>webpack app</title>\n  </head>\n  <body>\n    <p id="greeting"></p>\n    <script src="/main.js"></script>\n  </body>\n</html>\n`,
    'src/index.js': `import { greeting } from './greeting.js';\n\nfunction draw() {\n  document.getElementById('greeting').textContent = greeting;\n}\ndraw();\nif (module.hot) module.hot.accept('./greeting.js', draw);\n`,
    'src/greeting.js': webpackGreeting(FIRST_GREETING),
  },
  greetingFile: 'src/greeting.js',
  renderGreeting: webpackGreeting,
  command: (port) => ({ script: 'node_modules/webpack-cli/bin/cli.js', args: ['serve', '--port', String(port), '--host', '127.0.0.1', '--no-open'] }),
};

const NEXT: DevServerApp = {
  name: 'next',
  dependencies: { next: '16.5.0', ...REACT },
  files: {
    'next.config.mjs': `export default {}\n`,
    'app/layout.jsx': `export const metadata = { title: 'Next app' }\n\nexport default function RootLayout({ children }) {\n  return (\n    <html lang="en">\n      <body>{children}</body>\n    </html>\n  )\n}\n`,
    'app/page.jsx': `import Greeting from './greeting.jsx'\n\nexport default function Page() {\n  return <main><Greeting /></main>\n}\n`,
    'app/greeting.jsx': reactGreeting(FIRST_GREETING),
  },
  greetingFile: 'app/greeting.jsx',
  renderGreeting: reactGreeting,
  command: (port) => ({ script: 'node_modules/next/dist/bin/next', args: ['dev', '--port', String(port), '--hostname', '127.0.0.1'] }),
  // Its telemetry flushes from a detached process that would outlive the test (and call the network).
  env: { NEXT_TELEMETRY_DISABLED: '1' },
};

export const DEV_SERVER_APPS: DevServerApp[] = [VITE, WEBPACK, NEXT];
