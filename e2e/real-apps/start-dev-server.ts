/**
 * A dev-server app's own dev server (`vite`, `webpack serve`, `next dev`), as its user starts it,
 * on a free port of 127.0.0.1.
 */
import { connect } from 'node:net';
import path from 'node:path';
import type { ChildProcesses } from './child-processes.ts';
import { findFreePort } from './dev-app-cache.ts';
import type { DevServerApp } from './dev-server-apps.ts';

const READY_TIMEOUT_MS = 60_000;

/** True once something accepts a connection on 127.0.0.1:`port`. */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts the app's dev server in `dir` and resolves once it accepts connections, with its URL and
 * its output; rejects, with that output, when it exits first or takes too long.
 * `processes.stopAll()` stops it.
 *
 * @example const dev = await startDevServer(app, dir, processes); // { url: 'http://127.0.0.1:41234', output }
 */
export async function startDevServer(app: DevServerApp, dir: string, processes: ChildProcesses): Promise<{ url: string; output: () => string }> {
  const port = await findFreePort();
  const { script, args } = app.command(port);
  const started = processes.startNodeTree(path.join(dir, script), args, dir, app.env);
  let exited = false;
  void started.exited.then(() => (exited = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await isListening(port))) {
    if (exited || Date.now() > deadline) {
      throw new Error(`The ${app.name} dev server in ${dir} ${exited ? 'exited' : 'did not listen in time'}\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, output: started.output };
}
