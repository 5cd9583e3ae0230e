import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { constants, openSync, closeSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_AGENT_FILE_BYTES, readTextInside, writeTextInside } from './fs-access.ts';

let dir = '';
let fifos: string[] = [];
let swapper: ChildProcess | null = null;
let socketServer: Server | null = null;

afterEach(async () => {
  // A writer stuck on a FIFO (the fault these tests guard against) is let go by a reader.
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
    } catch {
      // Gone already.
    }
  }
  fifos = [];
  if (swapper && swapper.exitCode === null && swapper.signalCode === null) {
    const exited = new Promise((resolve) => swapper!.once('exit', resolve));
    swapper.kill('SIGKILL');
    await exited;
  }
  swapper = null;
  await new Promise<void>((resolve) => (socketServer ? socketServer.close(() => resolve()) : resolve()));
  socketServer = null;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

/** A working folder and a folder outside it holding `secret.txt`, on the same file system. */
async function makeFolders(): Promise<{ root: string; outside: string; secret: string }> {
  dir = await mkdtemp(path.join(tmpdir(), 'agentbar-fs-'));
  const root = path.join(dir, 'work');
  const outside = path.join(dir, 'outside');
  await mkdir(root);
  await mkdir(outside);
  const secret = path.join(outside, 'secret.txt');
  await writeFile(secret, 'secret');
  return { root, outside, secret };
}

function makeFifo(file: string): void {
  execFileSync('mkfifo', [file]);
  fifos.push(file);
}

/**
 * Starts a process that swaps things in the folder as fast as it can until killed; resolves once it
 * has swapped once. A separate process, so the swaps really happen between agentbar's system calls.
 */
async function startSwapper(script: string, args: string[]): Promise<void> {
  const child = spawn(process.execPath, ['-e', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  swapper = child;
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    lines.once('line', () => resolve());
    child.once('exit', (code) => reject(new Error(`the swapper exited (${code})`)));
  });
}

/** Swaps argv[1] between a regular file inside and a symlink to argv[2], each put in place by an atomic rename. */
const SWAP_FILE = `
const fs = require('fs');
const [target, outsideFile] = process.argv.slice(1);
let first = true;
for (;;) {
  fs.writeFileSync(target + '.file', 'inside');
  fs.renameSync(target + '.file', target);
  try { fs.unlinkSync(target + '.link'); } catch {}
  fs.symlinkSync(outsideFile, target + '.link');
  fs.renameSync(target + '.link', target);
  if (first) { first = false; console.log('swapping'); }
}`;

/** Swaps the folder argv[1] between a real folder (its file says "inside") and a symlink to the folder argv[2]. */
const SWAP_FOLDER = `
const fs = require('fs');
const [folder, outsideFolder] = process.argv.slice(1);
const parked = folder + '.parked';
let first = true;
const attempt = (f) => { try { f(); } catch {} };
for (;;) {
  attempt(() => fs.renameSync(folder, parked));
  attempt(() => fs.symlinkSync(outsideFolder, folder));
  attempt(() => fs.unlinkSync(folder));
  attempt(() => fs.rmSync(folder, { recursive: true, force: true }));
  attempt(() => fs.renameSync(parked, folder));
  if (first) { first = false; console.log('swapping'); }
}`;

/** Runs `step` 4,000 times, four at a time (while a swapper runs); what each returned. */
async function race(step: (i: number) => Promise<string>): Promise<string[]> {
  const results: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < 4000) results.push(await step(next++));
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return results;
}

/**
 * Starts swapping, in a new working folder, the file `target.txt` (between a file inside and a
 * symlink to the secret) or the folder `sub` (between a folder inside and a symlink to the outside
 * folder); `target` is the path to use. Inside, the file says "inside".
 */
async function startSwapping(kind: 'file' | 'folder'): Promise<{ root: string; outside: string; target: string }> {
  const { root, outside, secret } = await makeFolders();
  if (kind === 'file') {
    const target = path.join(root, 'target.txt');
    await startSwapper(SWAP_FILE, [target, secret]);
    return { root, outside, target };
  }
  const folder = path.join(root, 'sub');
  await mkdir(folder);
  await writeFile(path.join(folder, 'secret.txt'), 'inside');
  await startSwapper(SWAP_FOLDER, [folder, outside]);
  return { root, outside, target: path.join(folder, 'secret.txt') };
}

/** What got out: reads that returned the secret, and the outside folder's files with their content. */
async function escapes(reads: string[], outside: string): Promise<{ readsOfTheSecret: number; outsideFolder: Record<string, string> }> {
  const outsideFolder: Record<string, string> = {};
  for (const name of await readdir(outside)) outsideFolder[name] = await readFile(path.join(outside, name), 'utf8');
  return { readsOfTheSecret: reads.filter((r) => r === 'secret').length, outsideFolder };
}

describe('the agent reading and writing files', () => {
  it('reads and writes text files inside the folder, making folders and following links that stay inside', async () => {
    const { root } = await makeFolders();
    await writeTextInside(root, { path: path.join(root, 'src', 'deep', 'notes.txt'), content: 'one\ntwo\nthree\n' });
    expect(await readFile(path.join(root, 'src', 'deep', 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(await readTextInside(root, { path: path.join(root, 'src', 'deep', 'notes.txt'), line: 2, limit: 1 })).toEqual({ content: 'two' });
    await symlink(path.join(root, 'src'), path.join(root, 'alias'));
    await writeTextInside(root, { path: path.join(root, 'alias', 'deep', 'notes.txt'), content: 'shorter' });
    expect(await readTextInside(root, { path: path.join(root, 'src', 'deep', 'notes.txt') })).toEqual({ content: 'shorter' });
  });

  it('reads and writes names that start with two dots inside the folder', async () => {
    const { root } = await makeFolders();
    await writeTextInside(root, { path: path.join(root, '..hidden'), content: 'dots' });
    await writeTextInside(root, { path: path.join(root, '..config', 'settings.txt'), content: 'nested dots' });
    expect(await readTextInside(root, { path: path.join(root, '..hidden') })).toEqual({ content: 'dots' });
    expect(await readTextInside(root, { path: path.join(root, '..config', 'settings.txt') })).toEqual({ content: 'nested dots' });
  });

  it('refuses paths outside the folder, through .. or a symlink, and leaves the outside file alone', async () => {
    const { root, outside, secret } = await makeFolders();
    await symlink(secret, path.join(root, 'link.txt'));
    await symlink(outside, path.join(root, 'out'));
    for (const given of [secret, path.join(root, '..', 'outside', 'secret.txt'), path.join(root, 'link.txt'), path.join(root, 'out', 'secret.txt'), path.join(root, 'out', 'new.txt')]) {
      await expect(readTextInside(root, { path: given })).rejects.toThrow(/outside the working folder/);
      await expect(writeTextInside(root, { path: given, content: 'pwned' })).rejects.toThrow(/outside the working folder/);
    }
    expect(await readFile(secret, 'utf8')).toBe('secret');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('refuses a hard link to a file outside, for reading and for writing, and says why', async () => {
    const { root, secret } = await makeFolders();
    const linked = path.join(root, 'linked.txt');
    await link(secret, linked);
    await expect(readTextInside(root, { path: linked })).rejects.toThrow(/has 2 hard links, so the same file may be reachable from outside the working folder/);
    await expect(writeTextInside(root, { path: linked, content: 'pwned' })).rejects.toThrow(/hard links/);
    expect(await readFile(secret, 'utf8')).toBe('secret');
  });

  it('refuses a write to a FIFO at once, and keeps serving writes after many', { timeout: 10_000 }, async () => {
    const { root } = await makeFolders();
    const fifo = path.join(root, 'pipe');
    makeFifo(fifo);
    // More than libuv's 4 threads: each stuck write would take one.
    for (let i = 0; i < 6; i++) await expect(writeTextInside(root, { path: fifo, content: 'x' })).rejects.toThrow(/pipe is a FIFO \(named pipe\); agentbar lets the agent read and write regular files only/);
    await expect(readTextInside(root, { path: fifo })).rejects.toThrow(/FIFO/);
    await writeTextInside(root, { path: path.join(root, 'after.txt'), content: 'still works' });
    expect(await readFile(path.join(root, 'after.txt'), 'utf8')).toBe('still works');
  });

  it('refuses a write to a FIFO that someone reads, without writing to it', { timeout: 10_000 }, async () => {
    const { root } = await makeFolders();
    const fifo = path.join(root, 'pipe');
    makeFifo(fifo);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      await expect(writeTextInside(root, { path: fifo, content: 'x' })).rejects.toThrow(/FIFO/);
    } finally {
      closeSync(reader);
    }
  });

  it('refuses a write to a socket or a folder', async () => {
    const { root } = await makeFolders();
    const socket = path.join(root, 'agent.sock');
    socketServer = createServer();
    await new Promise<void>((resolve) => socketServer!.listen(socket, resolve));
    await expect(writeTextInside(root, { path: socket, content: 'x' })).rejects.toThrow(/agent\.sock is a socket/);
    await mkdir(path.join(root, 'folder'));
    await expect(writeTextInside(root, { path: path.join(root, 'folder'), content: 'x' })).rejects.toThrow(/folder is a folder/);
    await expect(readTextInside(root, { path: root })).rejects.toThrow(/working folder itself/);
    await expect(writeTextInside(root, { path: path.join(root, 'agent.sock', 'x.txt'), content: 'x' })).rejects.toThrow(/a part of its path is not a folder/);
  });

  it('writes up to the size limit in full and refuses one byte more without creating the file', { timeout: 30_000 }, async () => {
    const { root } = await makeFolders();
    // Two-byte characters: the limit is in bytes, not characters.
    const content = 'é'.repeat(MAX_AGENT_FILE_BYTES / 2);
    await writeTextInside(root, { path: path.join(root, 'big.txt'), content });
    expect((await readFile(path.join(root, 'big.txt'), 'utf8')) === content).toBe(true);
    expect((await readTextInside(root, { path: path.join(root, 'big.txt') })).content === content).toBe(true);
    await expect(writeTextInside(root, { path: path.join(root, 'over.txt'), content: content + 'x' })).rejects.toThrow(`The content is over ${MAX_AGENT_FILE_BYTES} bytes`);
    await expect(readFile(path.join(root, 'over.txt'))).rejects.toThrow(/ENOENT/);
    await writeFile(path.join(root, 'huge.txt'), Buffer.alloc(MAX_AGENT_FILE_BYTES + 1, 'a'));
    await expect(readTextInside(root, { path: path.join(root, 'huge.txt') })).rejects.toThrow(`huge.txt is ${MAX_AGENT_FILE_BYTES + 1} bytes; agentbar reads at most ${MAX_AGENT_FILE_BYTES}`);
  });

  it.each(['file', 'folder'] as const)('never reads outside while a %s on the path is swapped for a symlink to outside', { timeout: 60_000 }, async (kind) => {
    const { root, outside, target } = await startSwapping(kind);
    const reads = await race(() => readTextInside(root, { path: target }).then((r) => r.content, (e: Error) => e.message));
    expect(await escapes(reads, outside)).toEqual({ readsOfTheSecret: 0, outsideFolder: { 'secret.txt': 'secret' } });
    // Each read got the file inside or a refusal that says what happened.
    const said = reads.map((r) => (r === 'inside' ? 'the file inside' : r.replace(`${target} `, '').replace(/ \(to .*|;.*/, '')));
    const expected = ['the file inside', `is outside the working folder ${root}`, 'leads outside the working folder', 'changed while agentbar opened it (a file or folder on its path was replaced, by a link perhaps)', 'cannot be opened: a part of its path is not a folder, or was replaced by a link while agentbar opened it', `No such file: ${target}`];
    expect(said.filter((s) => !expected.includes(s))).toEqual([]);
  });

  it.each(['file', 'folder'] as const)('never writes outside while a %s on the path is swapped for a symlink to outside', { timeout: 60_000 }, async (kind) => {
    const { root, outside, target } = await startSwapping(kind);
    await race(async (i) => {
      await writeTextInside(root, { path: target, content: `pwned ${i}` }).catch(() => {});
      // A new file in a swapped folder must not be made outside either.
      if (kind === 'folder') await writeTextInside(root, { path: path.join(path.dirname(target), `new-${i}.txt`), content: 'pwned' }).catch(() => {});
      return '';
    });
    expect(await escapes([], outside)).toEqual({ readsOfTheSecret: 0, outsideFolder: { 'secret.txt': 'secret' } });
  });
});
