import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { link, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleScript } from '../../test-support/cli-bundle.ts';
import { isProcessAlive, killSpawnedServers, spawnServer } from '../../test-support/spawn-server.ts';
import { writeConnectionFile } from './connection-file.ts';
import { DataDirBusyError, lockDataDir } from './data-dir-lock.ts';
import { describeProcess } from './process-state.ts';

const dirs: string[] = [];
const children = new Set<ChildProcess>();
afterEach(async () => {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
  for (const pid of await killSpawnedServers()) expect(isProcessAlive(pid)).toBe(false);
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'agentbar-lock-'));
  dirs.push(d);
  return d;
}

/** A pid that is surely not running: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

/** A live process that is no agentbar server, ended after the test. */
function unrelatedProcess(): number {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.add(child);
  return child.pid!;
}

/**
 * A zombie for as long as the test runs: `sh` starts a child, then becomes `sleep`, which never
 * reaps it. The child outlives the `exec` by half a second: one that ended first could be reaped
 * by the shell.
 */
async function zombiePid(): Promise<number> {
  const sh = spawn('sh', ['-c', 'sleep 0.5 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.add(sh);
  const pid = Number(await new Promise<string>((resolve) => sh.stdout!.once('data', (d) => resolve(String(d)))));
  await expect.poll(() => describeProcess(pid).kind, { timeout: 10_000 }).toBe('zombie');
  return pid;
}

describe('lockDataDir', () => {
  it('gives the folder to one holder, refuses a second, and frees it on release', async () => {
    const dir = await tmp();
    const lock = await lockDataDir(dir);
    expect(await readFile(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    // Our own pid counts as ours; a live other pid that started before the lock is refused.
    await writeFile(lock.file, `${process.ppid}\n`);
    await expect(lockDataDir(dir, { waitForHolderMs: 0 })).rejects.toThrow(DataDirBusyError);
    await expect(lockDataDir(dir, { waitForHolderMs: 0 })).rejects.toThrow(`Another agentbar server (pid ${process.ppid}) is using ${dir}`);
    await writeFile(lock.file, `${process.pid}\n`);
    await lock.release();
    const again = await lockDataDir(dir);
    await again.release();
  });

  it('takes over a lock left by a process that is gone, or an unreadable one', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, 'server.lock'), `${await deadPid()}\n`);
    const lock = await lockDataDir(dir);
    expect(await readFile(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
    await writeFile(path.join(dir, 'server.lock'), 'garbage');
    await (await lockDataDir(dir)).release();
  });

  it('takes over a lock whose holder is a zombie (killed, never reaped)', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, 'server.lock'), `${await zombiePid()}\n`);
    const lock = await lockDataDir(dir, { waitForHolderMs: 0 });
    expect(await readFile(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose pid now belongs to a process started after the lock was written', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'server.lock');
    await writeFile(file, `${unrelatedProcess()}\n`);
    // Written an hour ago, before a restart; the pid has been given to another program since.
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(file, anHourAgo, anHourAgo);
    const lock = await lockDataDir(dir, { waitForHolderMs: 0 });
    expect(await readFile(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
  });

  it('waits for a holder that runs but does not serve (starting, or saving on its way out), and takes the folder once it is gone', async () => {
    const dir = await tmp();
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.add(holder);
    await writeFile(path.join(dir, 'server.lock'), `${holder.pid}\n`);
    const taking = lockDataDir(dir, { waitForHolderMs: 30_000 });
    // The holder ends while the starter waits: the starter gets the folder, no refusal.
    setTimeout(() => holder.kill('SIGKILL'), 200);
    const lock = await taking;
    expect(await readFile(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
  });

  it('refuses at once a holder that serves: its server.json names it and its /health answers', async () => {
    const dir = await tmp();
    const holder = unrelatedProcess();
    await writeFile(path.join(dir, 'server.lock'), `${holder}\n`);
    const health = createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((resolve) => health.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = health.address() as { port: number };
      await writeConnectionFile(dir, { url: `ws://127.0.0.1:${port}/ws`, http: `http://127.0.0.1:${port}`, token: 'a-token-of-sixteen-chars', pid: holder });
      // Were it waited for, the test would time out long before the minute.
      await expect(lockDataDir(dir, { waitForHolderMs: 60_000 })).rejects.toThrow(DataDirBusyError);
    } finally {
      health.close();
    }
  });

  it('takes over a stale lock once the claim of a starter that died while taking it over is old', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'server.lock');
    const pid = await deadPid();
    await writeFile(file, `${pid}\n`);
    // What a starter leaves when it dies between claiming the takeover and finishing it.
    await link(file, `${file}.takeover-${pid}`);
    const lock = await lockDataDir(dir, { leftClaimMs: 100 });
    expect(await readFile(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('lockDataDir across processes started at the same moment', () => {
  // Each holds what it got until its standard input closes, so the losers all try while the
  // winner holds it.
  async function race(dir: string, count: number): Promise<string[]> {
    const script = await bundleScript('test-support/lock-holder.ts');
    const procs = Array.from({ length: count }, () => {
      const child = spawn(process.execPath, [script, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
      children.add(child);
      let out = '';
      const said = new Promise<string>((resolve) => child.stdout!.on('data', (d) => ((out += d), resolve(out.trim()))));
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      return { child, said, exited };
    });
    const outcomes = await Promise.all(procs.map((p) => p.said));
    for (const p of procs) p.child.stdin!.end();
    await Promise.all(procs.map((p) => p.exited));
    return outcomes;
  }

  it.each([
    ['a free folder', false],
    ['a folder with a stale lock', true],
  ])('gives %s to exactly one of six', async (_name, stale) => {
    const dir = await tmp();
    if (stale) await writeFile(path.join(dir, 'server.lock'), `${await deadPid()}\n`);
    const outcomes = await race(dir, 6);
    expect(outcomes.filter((o) => o === 'got')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'busy')).toHaveLength(5);
  }, 60_000);
});

describe('agentbar serve and the lock', () => {
  it('starts at once after the server before it was killed with SIGKILL, twenty times in a row', async () => {
    const dir = await tmp();
    let server = await spawnServer(dir);
    for (let i = 0; i < 20; i++) {
      // Not waited for: the next one starts while the killed one may still be a zombie.
      server.child.kill('SIGKILL');
      const next = await spawnServer(dir);
      expect(next.pid).not.toBe(server.pid);
      server = next;
    }
    const health = await fetch(`${server.httpUrl}/health`);
    expect(health.ok).toBe(true);
  }, 120_000);

  it('refuses a folder a running server holds, saying how to check it and what to delete if it is not running', async () => {
    const dir = await tmp();
    const running = await spawnServer(dir);
    const { runCli } = await import('../../test-support/spawn-server.ts');
    const second = runCli(['serve', '--port', '0', '--data-dir', dir]);
    expect((await second.exited).code).toBe(1);
    const lockFile = path.join(dir, 'server.lock');
    expect(second.stderr).toBe(
      `agentbar: cannot start: Another agentbar server (pid ${running.pid}, ${running.httpUrl}) is using ${dir}. ` +
        `Stop it, or pass another --data-dir. If no agentbar server runs there (\`ps -p ${running.pid}\` shows another program, or nothing), delete ${lockFile} and start again.\n`,
    );
  }, 30_000);
});
