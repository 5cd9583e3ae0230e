/**
 * The app's own Vite dev server, as `npm run dev` starts it, on a free port of 127.0.0.1.
 */
import path from 'node:path';
import type { ChildProcesses } from './child-processes.ts';

const READY_TIMEOUT_MS = 60_000;

/**
 * Starts `vite` in the app's folder with `--port 0 --strictPort --host 127.0.0.1` and resolves once
 * it listens, with the URL it prints and its output so far; rejects, with its output, when it exits
 * first or takes too long. `processes.stopAll()` stops it.
 *
 * @example const vite = await startViteDevServer(app.dir, processes); // { url: 'http://127.0.0.1:41234/', output }
 */
export async function startViteDevServer(appDir: string, processes: ChildProcesses): Promise<{ url: string; output: () => string }> {
  const vite = processes.startNode(path.join(appDir, 'node_modules', 'vite', 'bin', 'vite.js'), ['--port', '0', '--strictPort', '--host', '127.0.0.1'], appDir);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited = false;
  void vite.exited.then(() => (exited = true));
  for (;;) {
    const url = /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(vite.stdout)?.[1];
    if (url) return { url, output: vite.output };
    if (exited || Date.now() > deadline) {
      throw new Error(`The Vite dev server in ${appDir} ${exited ? 'exited' : 'did not start in time'}\n${vite.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
