/**
 * The processes a real-apps test starts (npm, the app's Vite dev server), each in a process group
 * of its own so that stopping it stops what it started too; `stopAll()` ends whatever still runs,
 * and the tests' fixture calls it after every test, passed or failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const STOP_GRACE_MS = 5_000;
const KEEP_OUTPUT = 64 * 1024;
/**
 * Loaded into a long-lived node child: it exits when its stdin closes, which happens when the test
 * process dies however it dies, so no dev server outlives the run.
 */
const WATCHDOG = 'data:text/javascript,process.stdin.on("end",()=>process.exit(70)).on("error",()=>process.exit(70)).resume();';
/**
 * The same for a tool that starts node processes of its own from its `execArgv` (`next dev`, which
 * rewrites them into NODE_OPTIONS and breaks the watchdog's quoting): this parent runs it
 * unchanged and ends their whole process group when its stdin closes.
 */
const TREE_WATCHDOG = `const [script, ...args] = process.argv.slice(1);
const child = require('node:child_process').spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
child.on('exit', (code) => process.exit(code ?? 1));
process.stdin.on('end', () => process.kill(0, 'SIGKILL')).on('error', () => process.kill(0, 'SIGKILL')).resume();`;

export interface Started {
  child: ChildProcess;
  /** Resolves with the exit code (null when a signal ended it) once the process is gone. */
  exited: Promise<number | null>;
  /** What it printed so far on stdout (its last 64 KiB). */
  readonly stdout: string;
  /** Both streams so far, for failure messages. */
  output(): string;
}

/** The processes of one test; every one is stopped by `stopAll()`. */
export class ChildProcesses {
  private readonly live = new Set<Started>();

  /**
   * Runs `command` to its end and returns its stdout; rejects, with everything it printed, when it
   * exits with another code than 0.
   *
   * @example await processes.run('npm', ['install'], appDir);
   */
  async run(command: string, args: string[], cwd: string): Promise<string> {
    const started = this.start(command, args, cwd, 'ignore');
    const code = await started.exited;
    if (code !== 0) throw new Error(`\`${command} ${args.join(' ')}\` in ${cwd} exited ${code}\n${started.output()}`);
    return started.stdout;
  }

  /**
   * Starts a node script that runs until stopped (a dev server), with the watchdog loaded.
   *
   * @example const vite = processes.startNode(viteBin, ['--port', '0'], appDir);
   */
  startNode(script: string, args: string[], cwd: string): Started {
    return this.start(process.execPath, ['--import', WATCHDOG, script, ...args], cwd, 'pipe');
  }

  /**
   * Starts a node script that runs until stopped and starts node processes of its own (`next dev`),
   * under a parent that is its watchdog; `env` is added to the environment.
   *
   * @example const next = processes.startNodeTree(nextBin, ['dev'], appDir, { NEXT_TELEMETRY_DISABLED: '1' });
   */
  startNodeTree(script: string, args: string[], cwd: string, env: Record<string, string> = {}): Started {
    return this.start(process.execPath, ['-e', TREE_WATCHDOG, script, ...args], cwd, 'pipe', env);
  }

  /** Sends SIGTERM to every process group still running, SIGKILL after a grace period; resolves once all are gone. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.live].map((started) => stopGroup(started)));
  }

  private start(command: string, args: string[], cwd: string, stdin: 'ignore' | 'pipe', extraEnv: Record<string, string> = {}): Started {
    const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false', NO_COLOR: '1', ...extraEnv };
    delete env.AGENTBAR_DATA_DIR;
    const child = spawn(command, args, { cwd, env, detached: true, stdio: [stdin, 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const keep = (text: string) => (text.length > KEEP_OUTPUT ? text.slice(-KEEP_OUTPUT) : text);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout = keep(stdout + d)));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = keep(stderr + d)));
    child.stdin?.on('error', () => {});
    const exited = new Promise<number | null>((resolve) => {
      child.once('error', (error) => {
        stderr += String(error);
        resolve(null);
      });
      child.once('close', (code) => resolve(code));
    });
    const started: Started = {
      child,
      exited,
      get stdout() {
        return stdout;
      },
      output: () => `stdout: ${stdout}\nstderr: ${stderr}`,
    };
    this.live.add(started);
    void exited.then(() => this.live.delete(started));
    return started;
  }
}

/** Ends a process's whole group: SIGTERM, then SIGKILL if it is still there after the grace period. */
async function stopGroup(started: Started): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-started.child.pid!, signal);
    } catch {
      // The group is gone already.
    }
  };
  signalGroup('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([started.exited.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), STOP_GRACE_MS)))]);
  clearTimeout(timer);
  if (!ended) {
    signalGroup('SIGKILL');
    await started.exited;
  }
}
