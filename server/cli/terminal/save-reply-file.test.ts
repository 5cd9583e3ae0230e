import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FilePart } from '../../../shared/schemas.ts';
import { useHarness } from '../../../test-support/test-server.ts';
import { describeReplyFile, resolveTypedPath, safeFileName, saveReplyFile } from './save-reply-file.ts';

const h = useHarness();
const CSV = 'order,total\n1,2.50\n';
const csv = (filename?: string): FilePart => ({ type: 'file', data: `data:text/csv;base64,${Buffer.from(CSV).toString('base64')}`, mimeType: 'text/csv', ...(filename !== undefined ? { filename } : {}) });

describe('describeReplyFile', () => {
  it('names the file, its type and its decoded size', () => {
    expect(describeReplyFile(csv('orders.csv'))).toBe(`file orders.csv · text/csv · ${CSV.length} B`);
    expect(describeReplyFile(csv())).toBe(`file · text/csv · ${CSV.length} B`);
  });
});

describe('safeFileName', () => {
  it('keeps a plain name as it is', () => {
    expect(safeFileName('orders.csv', 'text/csv')).toBe('orders.csv');
    expect(safeFileName('report 2026-11.final.md', 'text/markdown')).toBe('report 2026-11.final.md');
  });

  it('drops folders, so a name cannot leave the folder it is saved in', () => {
    expect(safeFileName('../../etc/passwd', 'text/plain')).toBe('passwd');
    expect(safeFileName('..\\..\\Windows\\win.ini', 'text/plain')).toBe('win.ini');
    expect(safeFileName('/abs/path/x.json', 'application/json')).toBe('x.json');
  });

  it('replaces characters file systems refuse, and trims dots and spaces at the ends', () => {
    expect(safeFileName('a<b>c:d"e|f?g*h\u0001.txt', 'text/plain')).toBe('a_b_c_d_e_f_g_h_.txt');
    expect(safeFileName('..hidden. ', 'text/plain')).toBe('hidden');
  });

  it('names a file by its type when nothing usable is left', () => {
    expect(safeFileName(undefined, 'text/csv')).toBe('file.csv');
    expect(safeFileName('..', 'image/png')).toBe('file.png');
    expect(safeFileName('dir/', 'application/x-unknown')).toBe('file.bin');
  });

  it('shortens a very long name and keeps its extension', () => {
    const name = safeFileName(`${'x'.repeat(300)}.csv`, 'text/csv');
    expect(name).toHaveLength(120);
    expect(name.endsWith('x.csv')).toBe(true);
  });
});

describe('resolveTypedPath', () => {
  it('expands a leading ~ to the home folder, as a shell would, and makes the path absolute', () => {
    expect(resolveTypedPath('~')).toBe(os.homedir());
    expect(resolveTypedPath('~/Downloads')).toBe(path.join(os.homedir(), 'Downloads'));
    expect(resolveTypedPath('out')).toBe(path.resolve('out'));
    // Only a ~ that names the home folder: "~x" is a folder of that name here.
    expect(resolveTypedPath('~x/y')).toBe(path.resolve('~x/y'));
  });

  it('undoes what a terminal writes for a dropped file: quotes, escaped spaces, a file:// URL', () => {
    expect(resolveTypedPath("'/tmp/My Shots/a.png'")).toBe('/tmp/My Shots/a.png');
    expect(resolveTypedPath('"/tmp/My Shots/a.png" ')).toBe('/tmp/My Shots/a.png');
    expect(resolveTypedPath('file:///tmp/My%20Shots/a.png')).toBe('/tmp/My Shots/a.png');
    expect(resolveTypedPath('  ~/a.png')).toBe(path.join(os.homedir(), 'a.png'));
    if (path.sep === '/') expect(resolveTypedPath('/tmp/My\\ Shots/a\\(1\\).png')).toBe('/tmp/My Shots/a(1).png');
  });
});

describe('saveReplyFile', () => {
  it('writes the decoded bytes, creating the folder', async () => {
    const dir = path.join(await h.tmpDir(), 'out', 'nested');
    const file = await saveReplyFile(dir, csv('orders.csv'));
    expect(file).toBe(path.join(dir, 'orders.csv'));
    expect(await readFile(file, 'utf8')).toBe(CSV);
  });

  it('never replaces a file already there: the next free numbered name', async () => {
    const dir = await h.tmpDir();
    await writeFile(path.join(dir, 'orders.csv'), 'mine');
    expect(await saveReplyFile(dir, csv('orders.csv'))).toBe(path.join(dir, 'orders-1.csv'));
    expect(await saveReplyFile(dir, csv('orders.csv'))).toBe(path.join(dir, 'orders-2.csv'));
    expect(await readFile(path.join(dir, 'orders.csv'), 'utf8')).toBe('mine');
    expect((await readdir(dir)).sort()).toEqual(['orders-1.csv', 'orders-2.csv', 'orders.csv']);
  });

  it('saves two files of one name at the same moment under two names', async () => {
    const dir = await h.tmpDir();
    const written = await Promise.all([saveReplyFile(dir, csv('a.csv')), saveReplyFile(dir, csv('a.csv'))]);
    expect(new Set(written).size).toBe(2);
  });

  // A disk that fills up mid-write, for real: a child process whose file size limit (ulimit -f,
  // 50 KB) is below the file's size gets EFBIG from the write.
  it.skipIf(process.platform !== 'linux')('removes a file it could not write whole, and says why', async () => {
    const dir = await h.tmpDir();
    const module = JSON.stringify(new URL('./save-reply-file.ts', import.meta.url).href);
    const script = `process.on('SIGXFSZ', () => {});
      const { saveReplyFile } = await import(${module});
      const data = 'data:text/plain;base64,' + Buffer.alloc(200_000, 97).toString('base64');
      await saveReplyFile(${JSON.stringify(dir)}, { type: 'file', data, mimeType: 'text/plain', filename: 'big.txt' })
        .then(() => console.log('saved'), (error) => console.log(error.code));`;
    const child = spawn('sh', ['-c', `ulimit -f 100; exec "${process.execPath}" --import tsx --input-type=module -e "$0"`, script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    await new Promise((resolve) => child.on('close', resolve));
    expect(out.trim()).toBe('EFBIG');
    expect(await readdir(dir)).toEqual([]);
  });

  it('fails with the file system\'s reason when the folder cannot be made', async () => {
    const base = await h.tmpDir();
    await writeFile(path.join(base, 'taken'), '');
    await expect(saveReplyFile(path.join(base, 'taken', 'out'), csv('a.csv'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await mkdir(path.join(base, 'ok'));
    expect(await readdir(path.join(base, 'ok'))).toEqual([]);
  });
});
