import { existsSync } from 'node:fs';
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES } from '../../../shared/data-url.ts';
import { useHarness } from '../../../test-support/test-server.ts';
import { readAttachment, readAttachments } from './read-attachment.ts';

const h = useHarness();

async function files(entries: Record<string, string | Buffer>): Promise<(name: string) => string> {
  const dir = await h.tmpDir();
  for (const [name, body] of Object.entries(entries)) await writeFile(path.join(dir, name), body);
  return (name) => path.join(dir, name);
}

describe('readAttachments', () => {
  it('sends images as image parts and anything else as file parts, typed by extension', async () => {
    const at = await files({ 'shot.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'spec.pdf': '%PDF-1.7', 'package.json': '{}' });
    expect(await readAttachments([at('shot.png'), at('spec.pdf'), at('package.json')])).toEqual([
      { type: 'image', image: `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64')}`, mimeType: 'image/png' },
      { type: 'file', data: `data:application/pdf;base64,${Buffer.from('%PDF-1.7').toString('base64')}`, mimeType: 'application/pdf', filename: 'spec.pdf' },
      { type: 'file', data: 'data:application/json;base64,e30=', mimeType: 'application/json', filename: 'package.json' },
    ]);
  });

  it('types a file with another extension by its bytes: text/plain for text, else application/octet-stream', async () => {
    const at = await files({ 'app.tsx': 'export const App = () => null;\n', 'Makefile': 'all:\n\tnpm test\n', 'blob.bin': Buffer.from([0x00, 0x01, 0xff]) });
    const parts = await readAttachments([at('app.tsx'), at('Makefile'), at('blob.bin')]);
    expect(parts.map((p) => (p.type === 'file' ? [p.filename, p.mimeType] : p.type))).toEqual([
      ['app.tsx', 'text/plain'],
      ['Makefile', 'text/plain'],
      ['blob.bin', 'application/octet-stream'],
    ]);
  });

  it('names a missing file, a folder and a file over the limit, with exit code 2', async () => {
    const at = await files({});
    await expect(readAttachments([at('nope.txt')])).rejects.toMatchObject({ name: 'AttachmentError', message: `Cannot attach ${at('nope.txt')}: there is no such file` });
    await mkdir(at('src'));
    await expect(readAttachments([at('src')])).rejects.toMatchObject({ name: 'AttachmentError', message: `Cannot attach ${at('src')}: it is a folder` });
    await writeFile(at('big.log'), '');
    await truncate(at('big.log'), MAX_ATTACHMENT_BYTES + 1024 * 1024);
    await expect(readAttachments([at('big.log')])).rejects.toMatchObject({ name: 'AttachmentError', message: `Cannot attach ${at('big.log')}: it is 6.0 MB; a file can be at most 5.0 MB` });
  });

  it.skipIf(!existsSync('/dev/zero'))('reads a pipe or a device only up to the limit: /dev/zero never ends', async () => {
    await expect(readAttachment('/dev/zero')).rejects.toMatchObject({ name: 'AttachmentError', message: 'Cannot attach /dev/zero: it is over 5.0 MB, the most a file can be' });
  });

  it('reads standard input for - or /dev/stdin when given it, once per message', async () => {
    const stdin = () => Readable.from([Buffer.from('-a\n+b\n')]);
    expect(await readAttachment('-', { stdin: stdin() })).toEqual({ type: 'file', data: `data:text/plain;base64,${Buffer.from('-a\n+b\n').toString('base64')}`, mimeType: 'text/plain', filename: 'stdin' });
    expect(await readAttachment('/dev/stdin', { stdin: stdin() })).toMatchObject({ type: 'file', filename: 'stdin' });
    await expect(readAttachments(['-', '/dev/stdin'], { stdin: stdin() })).rejects.toMatchObject({ name: 'AttachmentError', message: 'Standard input can be attached once' });
  });

  it('refuses more files, or more bytes, than one message carries', async () => {
    const at = await files({ 'a.txt': 'a' });
    await expect(readAttachments(Array.from({ length: 20 }, () => at('a.txt')))).rejects.toMatchObject({ name: 'AttachmentError', message: 'A message carries at most 19 files; 20 were given' });
    for (const name of ['one.txt', 'two.txt']) {
      await writeFile(at(name), '');
      await truncate(at(name), 4 * 1024 * 1024);
    }
    await expect(readAttachments([at('one.txt'), at('two.txt')])).rejects.toMatchObject({ name: 'AttachmentError', message: /^The files total more than one message carries \(5\.6 MB\); attach fewer$/ });
  });
});
