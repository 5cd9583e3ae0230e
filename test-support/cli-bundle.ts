/**
 * The `agentbar` command compiled once per test run, so the tests that spawn it do not compile
 * TypeScript in every process (tsx costs about 1.3 s of CPU per start; this bundle, 0.5 s).
 *
 * `bin/agentbar.mjs` runs the module `AGENTBAR_TEST_CLI` names when it is set, and every process
 * the tests start inherits it: `agentbar serve`, `agentbar chat`, and the `agentbar mcp` that a
 * server hands its ACP agents. The bundle is made from the sources at the start of each run, so
 * it is never stale; a test that must run the sources through tsx unsets the variable
 * (`runCli(args, { fromSource: true })`).
 *
 * `bundleScript` does the same for a script of the tests' own.
 *
 * Used as the `globalSetup` of the vitest projects and of Playwright: it sets the variable for
 * the workers, which inherit the environment, and removes the bundle when the run ends.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Inside the repository, so the bundle's imports of ws, hono, … resolve to its node_modules. */
const CACHE = path.join(REPO_ROOT, 'node_modules', '.cache', 'agentbar-cli');
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * Bundles `server/cli/main.ts` (dependencies left as imports) into a folder of its own and
 * returns the path of its entry module.
 *
 * @example process.env.AGENTBAR_TEST_CLI = await buildCliBundle();
 */
export async function buildCliBundle(): Promise<string> {
  await mkdir(CACHE, { recursive: true });
  await removeStaleBundles();
  const outdir = path.join(CACHE, `run-${process.pid}-${Date.now()}`);
  await build({
    entryPoints: { main: path.join(REPO_ROOT, 'server', 'cli', 'main.ts') },
    outdir,
    bundle: true,
    // Each command's module stays a chunk of its own, loaded on use, as from the sources.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    conditions: ['source'],
    logLevel: 'warning',
  });
  return path.join(outdir, 'main.js');
}

const scripts = new Map<string, Promise<string>>();

/**
 * A TypeScript script of the tests' own (a child that a test kills, say) bundled into the run's
 * folder, once per worker: `node` runs it without tsx. The run's teardown removes it.
 *
 * @example spawn(process.execPath, [await bundleScript('test-support/crash-child.ts'), dir]);
 */
export function bundleScript(entry: string): Promise<string> {
  const source = path.resolve(REPO_ROOT, entry);
  let made = scripts.get(source);
  if (!made) {
    const runDir = process.env.AGENTBAR_TEST_CLI ? path.dirname(process.env.AGENTBAR_TEST_CLI) : path.join(CACHE, `run-${process.pid}-${Date.now()}`);
    const outfile = path.join(runDir, 'scripts', `${process.pid}-${path.basename(source).replace(/\.ts$/, '')}.mjs`);
    made = build({ entryPoints: [source], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', conditions: ['source'], logLevel: 'warning' }).then(() => outfile);
    scripts.set(source, made);
  }
  return made;
}

/** A run that was killed leaves its bundle behind: one older than a day is removed. */
async function removeStaleBundles(): Promise<void> {
  for (const name of await readdir(CACHE)) {
    const dir = path.join(CACHE, name);
    const age = await stat(dir).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > STALE_MS) await rm(dir, { recursive: true, force: true });
  }
}

/** vitest and Playwright `globalSetup`: builds the bundle and returns the teardown. */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.AGENTBAR_TEST_CLI) return async () => {};
  const entry = await buildCliBundle();
  process.env.AGENTBAR_TEST_CLI = entry;
  return async () => {
    delete process.env.AGENTBAR_TEST_CLI;
    await rm(path.dirname(entry), { recursive: true, force: true });
  };
}
