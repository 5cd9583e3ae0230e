/**
 * The proxy's dev-server apps, installed once and kept between runs under
 * `~/.cache/agentbar-real-apps/proxy-<name>-<hash of its pinned versions>/app` (outside the clone,
 * see app-cache.ts); a change of version installs a new folder and removes the old one. The app's
 * own files are written again before every test, so an edit a test made never carries over.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { APPS_CACHE } from './app-cache.ts';
import type { ChildProcesses } from './child-processes.ts';
import type { DevServerApp } from './dev-server-apps.ts';

/** Written last: a folder without it was left half installed, and is installed again. */
const READY = 'ready.json';

/**
 * The app's folder with its pinned packages installed (from the npm registry or npm's cache on the
 * first run) and its files as `app.files` gives them.
 *
 * @example const dir = await prepareDevServerApp(DEV_SERVER_APPS[0]!, processes);
 */
export async function prepareDevServerApp(app: DevServerApp, processes: ChildProcesses): Promise<string> {
  const key = createHash('sha256').update(JSON.stringify(app.dependencies)).digest('hex').slice(0, 12);
  const home = path.join(APPS_CACHE, `proxy-${app.name}-${key}`);
  const dir = path.join(home, 'app');
  await removeOtherVersions(`proxy-${app.name}-`, path.basename(home));
  const ready = await readFile(path.join(home, READY), 'utf8').catch(() => null);
  if (ready === null) {
    await rm(home, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: `proxy-${app.name}-app`, private: true, dependencies: app.dependencies }, null, 2));
    try {
      await processes.run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], dir);
    } catch (error) {
      throw new Error(
        `Could not install the ${app.name} app for the proxy's tests: they need the npm registry or a warm npm cache.\n${error instanceof Error ? error.message : String(error)}`,
      );
    }
    await writeFile(path.join(home, READY), JSON.stringify(app.dependencies));
  }
  for (const [file, text] of Object.entries(app.files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

/**
 * A port of 127.0.0.1 that was free a moment ago, for dev servers that cannot be told `--port 0`
 * and say where they listen.
 *
 * @example const port = await findFreePort(); // 41234
 */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('No free port on 127.0.0.1');
  return address.port;
}

async function removeOtherVersions(prefix: string, keep: string): Promise<void> {
  for (const name of await readdir(APPS_CACHE).catch(() => [])) {
    if (name !== keep && name.startsWith(prefix)) await rm(path.join(APPS_CACHE, name), { recursive: true, force: true });
  }
}
