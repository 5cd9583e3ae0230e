/**
 * The package as users get it: packed with `npm pack`, installed into an empty project, and used
 * there with plain `node` (no TypeScript loader): `npx agentbar serve`, an agent written against
 * the public SDK, a client on `agentbar/shared`, and a type check against the shipped `.d.ts`.
 *
 * Runs after `npm run build` (`npm run test:package`); the install needs the npm registry (or a
 * warm npm cache) for the package's few dependencies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const APP_SOURCES = path.join(ROOT, 'test-support', 'package-app');
/** The installed test project, one at a time, under the repository's own npm cache folder. */
const INSTALLS = path.join(ROOT, 'node_modules', '.cache', 'agentbar-package');
/**
 * Loaded into every child through NODE_OPTIONS (which would eat double quotes, hence %22): it
 * exits when its stdin closes, so nothing outlives the test run.
 */
const WATCHDOG = 'data:text/javascript,process.stdin.on(%22end%22,()=>process.exit(70)).on(%22error%22,()=>process.exit(70)).resume();';

interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
}

const children = new Set<ChildProcess>();
let tmp = '';
let app = '';
let packedFiles: string[] = [];

/** Starts a process; a `longLived` one (a server) gets the watchdog and must be stopped by the test. */
function start(command: string, args: string[], cwd: string, longLived = false): { child: ChildProcess; done: Promise<Done>; output: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false' };
  delete env.AGENTBAR_DATA_DIR;
  if (longLived) env.NODE_OPTIONS = `--import=${WATCHDOG}`;
  const child = spawn(command, args, { cwd, env, stdio: [longLived ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin?.on('error', () => {});
  const done = new Promise<Done>((resolve) =>
    child.once('close', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    }),
  );
  return { child, done, output: () => `stdout: ${stdout}\nstderr: ${stderr}` };
}

async function run(command: string, args: string[], cwd: string): Promise<Done> {
  const result = await start(command, args, cwd).done;
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

async function waitFor<T>(read: () => Promise<T | null>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One message to AGENT through the installed package's own client; returns the reply. */
async function exchange(url: string, token: string, agent: string, text: string): Promise<{ status: string; text: string }> {
  const { stdout } = await run(process.execPath, ['client.mjs', url, token, agent, text], app);
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

beforeAll(async () => {
  for (const file of ['lib/server/index.js', 'lib/server/index.d.ts', 'lib/shared/index.js', 'dist/toolbar.js']) {
    if (!existsSync(path.join(ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  tmp = await mkdtemp(path.join(os.tmpdir(), 'agentbar-package-'));
  // Built already: --ignore-scripts skips prepack, which would rebuild under running tests.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], ROOT);
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  packedFiles = info!.files.map((f) => f.path);

  // The project the tarball is installed into is kept by the tarball's hash: the run on another
  // Node version (npm run test:node24) uses the same install instead of making it again.
  const tarball = path.join(tmp, info!.filename);
  const hash = createHash('sha256').update(await readFile(tarball)).digest('hex').slice(0, 16);
  app = path.join(INSTALLS, hash, 'app');
  if (!existsSync(path.join(app, 'node_modules', 'agentbar', 'package.json'))) {
    await rm(INSTALLS, { recursive: true, force: true });
    await mkdir(app, { recursive: true });
    await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    for (const file of ['client.mjs', 'agent.mjs', 'agent.ts']) await copyFile(path.join(APP_SOURCES, file), path.join(app, file));
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], app);
  }
}, 300_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('ships compiled JavaScript, types, the toolbar and docs, and no tests', () => {
    for (const file of [
      'bin/agentbar.mjs',
      'lib/server/index.js',
      'lib/server/index.d.ts',
      'lib/server/cli/main.js',
      'lib/shared/index.js',
      'lib/shared/index.d.ts',
      'dist/toolbar.js',
      'dist/panel.js',
      'dist/screenshot.js',
      'dist/page-tools.js',
      'dist/page-capture.js',
      'dist/lang/js.js',
      'dist/lang/python.js',
      'vite-plugin/index.mjs',
      'vite-plugin/index.d.mts',
      'vite-plugin/source-attributes.mjs',
      'docs/protocol.md',
      'README.md',
    ]) {
      expect(packedFiles).toContain(file);
    }
    const unwanted = packedFiles.filter(
      (f) => /\.test\.|test-support|fixtures|^bench\/|^e2e\/|^examples\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')),
    );
    expect(unwanted).toEqual([]);
  });

  // The launcher is what every page view pays for; the panel loads on idle after the page's load
  // event, so its budget only keeps it from growing unnoticed.
  it('ships a launcher every page view loads within 15 KB gzipped, and the panel it loads later within 80 KB', async () => {
    const { gzipSync } = await import('node:zlib');
    const gzipped = async (file: string) => gzipSync(await readFile(path.join(ROOT, 'dist', file)), { level: 9 }).length;
    expect(await gzipped('toolbar.js')).toBeLessThanOrEqual(15 * 1024);
    expect(await gzipped('panel.js')).toBeLessThanOrEqual(80 * 1024);
  });

  it("ships the toolbar's CSS minified, keeping every class and !important of toolbar/styles.ts", async () => {
    const { TOOLBAR_CSS } = await import('../toolbar/styles.ts');
    // The launcher's CSS opens with :host, the panel's with .ab-panel: each a string in its bundle.
    const cssIn = async (file: string, opening: string) => {
      const bundle = await readFile(path.join(ROOT, 'dist', file), 'utf8');
      const start = bundle.indexOf(opening);
      expect(start, file).toBeGreaterThan(0);
      const quote = bundle.charAt(start - 1);
      return bundle.slice(start, bundle.indexOf(quote, start));
    };
    const css = (await cssIn('toolbar.js', ':host{all:initial!important;')) + (await cssIn('panel.js', '.ab-panel{'));
    // The source's comments and layout stay out of the bundle…
    expect(css).not.toMatch(/\/\*|\n|\{ /);
    expect(css.length).toBeLessThan(TOOLBAR_CSS.length * 0.8);
    // …and nothing of its meaning is lost on the way.
    const classes = (text: string) => [...new Set(text.match(/\.ab-[\w-]+/g))].sort();
    expect(classes(css)).toEqual(classes(TOOLBAR_CSS));
    const importants = (text: string) => text.match(/!\s*important/g)?.length ?? 0;
    expect(importants(css)).toBe(importants(TOOLBAR_CSS));
  });

  it('runs `npx agentbar serve` with plain node and answers a message', async () => {
    const dataDir = path.join(tmp, 'serve-data');
    const serve = start('npx', ['--no-install', 'agentbar', 'serve', '--port', '0', '--data-dir', dataDir], app, true);
    try {
      const connection = await waitFor(async () => {
        if (serve.child.exitCode !== null) throw new Error(`agentbar serve exited\n${serve.output()}`);
        try {
          return JSON.parse(await readFile(path.join(dataDir, 'server.json'), 'utf8')) as { url: string; token: string; pid: number };
        } catch {
          return null;
        }
      }, 'agentbar serve to write its connection file');
      const reply = await exchange(connection.url, connection.token, 'demo/guide', 'help');
      expect(reply.status).toBe('done');
      expect(reply.text).toContain('markdown');
      // The installed server serves the toolbar and the scripts it loads when first needed: the grammars
      // its code blocks load, the code that draws pictures, the page tools' code and the page capture.
      const http = connection.url.replace(/^ws/, 'http').replace(/\/ws$/, '');
      for (const file of ['/toolbar.js', '/panel.js', '/lang/js.js', '/screenshot.js', '/page-tools.js', '/page-capture.js']) {
        const res = await fetch(http + file);
        expect(res.status, file).toBe(200);
        expect(res.headers.get('content-type'), file).toMatch(/^text\/javascript/);
      }
      process.kill(connection.pid, 'SIGTERM');
    } catch (error) {
      serve.child.stdin!.end();
      throw error;
    }
    const exit = await serve.done;
    expect(exit.stderr).not.toMatch(/Error/);
    expect(existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    // The compiled CLI finds the installed package.json for its version, as the sources find theirs.
    const { version } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(exit.stdout).toContain(`agentbar ${version} is running.`);
    expect((await run('npx', ['--no-install', 'agentbar', '--version'], app)).stdout).toBe(`agentbar ${version}\n`);
  }, 120_000);

  it('serves an agent written against the public SDK, with plain node', async () => {
    const agent = start(process.execPath, ['agent.mjs', path.join(tmp, 'agent-data')], app, true);
    try {
      const connection = await waitFor(async () => {
        if (agent.child.exitCode !== null) throw new Error(`agent.mjs exited\n${agent.output()}`);
        const line = agent.output().match(/stdout: (\{.*\})\n/)?.[1];
        return line ? (JSON.parse(line) as { url: string; token: string }) : null;
      }, 'the agent to listen');
      const reply = await exchange(connection.url, connection.token, 'me/shout', 'hello from the package');
      expect(reply).toEqual({ status: 'done', text: 'HELLO FROM THE PACKAGE' });
      agent.child.kill('SIGTERM');
    } catch (error) {
      agent.child.stdin!.end();
      throw error;
    }
    expect((await agent.done).code).toBe(0);
  }, 120_000);

  it('type-checks an agent against the shipped .d.ts files', async () => {
    // Only @types/node, as in a user's project: the package's types must not need anything else.
    const types = path.join(tmp, 'types');
    await mkdir(types);
    await symlink(path.join(ROOT, 'node_modules', '@types', 'node'), path.join(types, 'node'), 'dir');
    await writeFile(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, typeRoots: [types], types: ['node'] },
        files: ['agent.ts'],
      }),
    );
    const tsc = await start(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], app).done;
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  }, 120_000);
});
