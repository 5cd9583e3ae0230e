import { spawn } from 'node:child_process';
import { link, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirBusyError, lockDataDir } from './data-dir-lock.ts';

const dirs: string[] = [];
afterEach(async () => {
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

describe('lockDataDir', () => {
  it('gives the folder to one holder, refuses a second, and frees it on release', async () => {
    const dir = await tmp();
    const lock = await lockDataDir(dir);
    expect(await readFile(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    // Our own pid counts as ours; a live other pid is refused (the parent of this process is alive).
    await writeFile(lock.file, `${process.ppid}\n`);
    await expect(lockDataDir(dir)).rejects.toThrow(DataDirBusyError);
    await expect(lockDataDir(dir)).rejects.toThrow(`Another agentbar server (pid ${process.ppid}) is using ${dir}`);
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

  it('takes over a stale lock once the claim of a starter that died while taking it over is old', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'server.lock');
    const pid = await deadPid();
    await writeFile(file, `${pid}\n`);
    // What a starter leaves when it dies between claiming the takeover and finishing it.
    await link(file, `${file}.takeover-${pid}`);
    await new Promise((r) => setTimeout(r, 5_200));
    const lock = await lockDataDir(dir);
    expect(await readFile(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  }, 20_000);
});

describe('lockDataDir across processes started at the same moment', () => {
  const SCRIPT = `
    const { lockDataDir } = await import(${JSON.stringify(path.resolve('server/host/data-dir-lock.ts'))});
    try {
      const lock = await lockDataDir(process.argv[1]);
      console.log('got');
      await new Promise((r) => setTimeout(r, 6000));
      await lock.release();
    } catch (error) {
      console.log(error.name === 'DataDirBusyError' ? 'busy' : 'error ' + error.message);
    }`;

  async function race(dir: string, count: number): Promise<string[]> {
    const runs = Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      return new Promise<string>((resolve) => child.on('exit', () => resolve(out.trim())));
    });
    return Promise.all(runs);
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
