/**
 * The real apps, made as a user makes them and kept between runs: each template's app is scaffolded
 * with `npm create vite@CREATE_VITE_VERSION` and installed once, under
 * `~/.cache/agentbar-real-apps/<template>-<version>/app`; after that only agentbar's tarball is
 * installed again, when its hash changed. The npm registry (or a warm npm cache) is the only network
 * these need.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcesses } from './child-processes.ts';
import { CREATE_VITE_VERSION, type RealAppTemplate } from './create-vite-templates.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * Not under the repository's node_modules/.cache: Vite takes any file whose path holds
 * `node_modules` for a dependency's (it adds `?v=` to its id and does not watch it), so an app kept
 * there is not an app as users have it. `AGENTBAR_REAL_APPS_CACHE` puts it elsewhere.
 */
export const APPS_CACHE =
  process.env.AGENTBAR_REAL_APPS_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'agentbar-real-apps');
/** Written last: an app folder without it was left half made, and is made again. */
const READY = 'ready.json';

export interface PackedAgentbar {
  tarball: string;
  /** The first 16 hex digits of the tarball's sha256 (`npm pack` output is the same for the same files). */
  hash: string;
}

export interface CachedApp {
  /** The app's folder, with its node_modules. */
  dir: string;
  /** The template's files as scaffolded, before any test changed them. */
  pristine: string;
}

/**
 * Packs the built package (`npm run build` first) into a new temp folder.
 *
 * @example const packed = await packAgentbar(processes); // { tarball: '/tmp/…/agentbar-0.1.0.tgz', hash }
 */
export async function packAgentbar(processes: ChildProcesses): Promise<PackedAgentbar> {
  for (const file of ['dist/toolbar.js', 'dist/page-capture.js', 'lib/server/index.js']) {
    if (!existsSync(path.join(ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-real-apps-'));
  // Built already: --ignore-scripts skips prepack, which would rebuild under running tests.
  await processes.run('npm', ['pack', '--ignore-scripts', '--loglevel=error', '--pack-destination', dir], ROOT);
  const [name] = (await readdir(dir)).filter((f) => f.endsWith('.tgz'));
  if (!name) throw new Error(`npm pack wrote no tarball into ${dir}`);
  const tarball = path.join(dir, name);
  const hash = createHash('sha256').update(await readFile(tarball)).digest('hex').slice(0, 16);
  return { tarball, hash };
}

/**
 * The template's app with this agentbar tarball installed: reused from the cache when it is there,
 * else scaffolded and installed. A failed npm command fails with its output and what it needs.
 *
 * @example const app = await prepareApp(TEMPLATES[0]!, packed, processes);
 */
export async function prepareApp(template: RealAppTemplate, packed: PackedAgentbar, processes: ChildProcesses): Promise<CachedApp> {
  const name = `${template.template}-${CREATE_VITE_VERSION}`;
  const home = path.join(APPS_CACHE, name);
  const app: CachedApp = { dir: path.join(home, 'app'), pristine: path.join(home, 'pristine') };
  await removeOtherVersions(template.template, name);
  const ready = await readReady(home);
  if (!ready) await scaffold(template, home, app, processes);
  if (ready?.agentbar === packed.hash) return app;

  // Kept under the hash's name: the lockfile records the tarball's integrity, so a tarball that
  // changed under the same name would not install.
  const tarball = `agentbar-${packed.hash}.tgz`;
  await copyFile(packed.tarball, path.join(home, tarball));
  await runNpm(template, processes, ['install', '--save-dev', '--no-audit', '--no-fund', '--loglevel=error', `../${tarball}`], app.dir);
  for (const file of await readdir(home)) {
    if (/^agentbar-.*\.tgz$/.test(file) && file !== tarball) await rm(path.join(home, file));
  }
  await writeFile(path.join(home, READY), JSON.stringify({ createVite: CREATE_VITE_VERSION, template: template.template, agentbar: packed.hash }));
  return app;
}

/** Scaffolds the template into a new `app` folder, and keeps the files the tests change as they came. */
async function scaffold(template: RealAppTemplate, home: string, app: CachedApp, processes: ChildProcesses): Promise<void> {
  await rm(home, { recursive: true, force: true });
  await mkdir(home, { recursive: true });
  await runNpm(template, processes, ['create', '--yes', `vite@${CREATE_VITE_VERSION}`, 'app', '--', '--template', template.template, '--no-interactive'], home);
  for (const file of ['vite.config.ts', template.app.file]) {
    await mkdir(path.dirname(path.join(app.pristine, file)), { recursive: true });
    await copyFile(path.join(app.dir, file), path.join(app.pristine, file));
  }
}

/** Runs npm; when it fails, says that these tests need the registry, with npm's own words. */
async function runNpm(template: RealAppTemplate, processes: ChildProcesses, args: string[], cwd: string): Promise<void> {
  try {
    await processes.run('npm', args, cwd);
  } catch (error) {
    const registry = (await processes.run('npm', ['config', 'get', 'registry'], cwd).catch(() => '')).trim();
    throw new Error(
      `Could not make the ${template.template} app: \`npm ${args[0]}\` failed. The real-apps tests install ` +
        `create-vite ${CREATE_VITE_VERSION} and the template's packages from the npm registry${registry && ` (${registry})`} ` +
        `or the npm cache; check that it is reachable.\n${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function readReady(home: string): Promise<{ agentbar?: string } | null> {
  try {
    const ready: unknown = JSON.parse(await readFile(path.join(home, READY), 'utf8'));
    if (typeof ready !== 'object' || ready === null) return null;
    return 'agentbar' in ready && typeof ready.agentbar === 'string' ? { agentbar: ready.agentbar } : {};
  } catch {
    return null;
  }
}

/** Removes the apps of other create-vite versions of this template, which no test uses any more. */
async function removeOtherVersions(template: string, keep: string): Promise<void> {
  const names = await readdir(APPS_CACHE).catch(() => []);
  for (const name of names) {
    if (name !== keep && name.startsWith(`${template}-`) && /^\d/.test(name.slice(template.length + 1))) {
      await rm(path.join(APPS_CACHE, name), { recursive: true, force: true });
    }
  }
}
