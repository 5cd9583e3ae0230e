import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits.ts';
import { ImagePartSchema, FilePartSchema } from '../../shared/schemas.ts';
import * as v from 'valibot';
import { MAX_ATTACHMENT_BYTES } from '../../shared/data-url.ts';
import { normalizeMime, readAttachments, type FileLike } from './read-attachments.ts';

function file(name: string, type: string, bytes: Uint8Array | number): FileLike {
  const size = typeof bytes === 'number' ? bytes : bytes.length;
  return {
    name,
    type,
    size,
    arrayBuffer: async () => {
      if (typeof bytes === 'number') throw new Error('should not be read');
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
    },
  };
}

describe('readAttachments', () => {
  it('reads images as image attachments with a base64 data URL the protocol accepts', async () => {
    const { attachments, errors } = await readAttachments([file('shot.png', 'image/png', new Uint8Array([137, 80, 78, 71]))]);
    expect(errors).toEqual([]);
    expect(attachments).toEqual([
      { id: expect.stringMatching(/^att_/), kind: 'image', name: 'shot.png', mimeType: 'image/png', dataUrl: 'data:image/png;base64,iVBORw==' },
    ]);
    expect(v.safeParse(ImagePartSchema, { type: 'image', image: attachments[0]!.dataUrl, mimeType: 'image/png' }).success).toBe(true);
  });

  it('reads other files as file attachments, fixing a missing or odd mime type', async () => {
    const { attachments } = await readAttachments([
      file('notes', '', new TextEncoder().encode('hi')),
      file('a.txt', 'text/plain;charset=utf-8', new TextEncoder().encode('hello')),
    ]);
    expect(attachments.map((a) => [a.kind, a.mimeType, a.dataUrl])).toEqual([
      ['file', 'application/octet-stream', 'data:application/octet-stream;base64,aGk='],
      ['file', 'text/plain', 'data:text/plain;base64,aGVsbG8='],
    ]);
    for (const a of attachments) {
      expect(v.safeParse(FilePartSchema, { type: 'file', data: a.dataUrl, filename: a.name, mimeType: a.mimeType }).success).toBe(true);
    }
  });

  it('refuses files over the limit with a clear message, without reading them', async () => {
    const { attachments, errors } = await readAttachments([
      file('huge.mov', 'video/quicktime', 5_300_000),
      file('ok.txt', 'text/plain', new Uint8Array([104, 105])),
    ]);
    expect(attachments.map((a) => a.name)).toEqual(['ok.txt']);
    expect(errors).toEqual([expect.stringMatching(/^huge\.mov is 5\.1 MB; attachments can be at most 5\.0 MB$/)]);
  });

  it('refuses a file one byte over the limit for its own mime type', async () => {
    const prefix = 'data:application/octet-stream;base64,'.length;
    const fits = Math.floor((LIMITS.maxDataUrlLength - prefix) / 4) * 3;
    const { attachments, errors } = await readAttachments([file('over.bin', 'application/octet-stream', fits + 1)]);
    expect(attachments).toEqual([]);
    expect(errors).toHaveLength(1);
  });

  it('accepts a file of the advertised maximum size', async () => {
    const { attachments } = await readAttachments([file('edge.bin', 'application/octet-stream', new Uint8Array(MAX_ATTACHMENT_BYTES))]);
    expect(attachments).toHaveLength(1);
    expect(attachments[0]!.dataUrl.length).toBeLessThanOrEqual(LIMITS.maxDataUrlLength);
  });

  it('gives every picture but an SVG to the converter, sends what it gives, and keeps an image it leaves alone', async () => {
    const asked: string[] = [];
    const png = new Uint8Array([137, 80, 78, 71]);
    // As in the browser: a type every agent takes, small enough, is left as it is (null).
    const convert = async (f: FileLike, name: string) => {
      asked.push(`${name} ${f.type}`);
      return f.type === 'image/webp' ? null : { bytes: png, mimeType: 'image/png', name: name.replace(/\.\w+$/, '.png') };
    };
    const { attachments, errors } = await readAttachments(
      [
        // Over the limit as a BMP, under it as a PNG: not refused, and never read as it is.
        file('screen.bmp', 'image/bmp', 5_300_000),
        file('photo.avif', 'image/avif', new Uint8Array([1, 2, 3])),
        file('demo.gif', 'image/gif', new Uint8Array([71, 73, 70])),
        file('icon.svg', 'image/svg+xml', new TextEncoder().encode('<svg/>')),
        file('shot.webp', 'image/webp', new Uint8Array([82, 73, 70, 70])),
      ],
      convert,
    );
    expect(errors).toEqual([]);
    expect(asked).toEqual(['screen.bmp image/bmp', 'photo.avif image/avif', 'demo.gif image/gif', 'shot.webp image/webp']);
    expect(attachments.map((a) => [a.kind, a.name, a.mimeType, a.dataUrl])).toEqual([
      ['image', 'screen.png', 'image/png', 'data:image/png;base64,iVBORw=='],
      ['image', 'photo.png', 'image/png', 'data:image/png;base64,iVBORw=='],
      ['image', 'demo.png', 'image/png', 'data:image/png;base64,iVBORw=='],
      ['image', 'icon.svg', 'image/svg+xml', 'data:image/svg+xml;base64,PHN2Zy8+'],
      ['image', 'shot.webp', 'image/webp', 'data:image/webp;base64,UklGRg=='],
    ]);
  });

  it('hands an image over the limit to the converter to fit, and refuses other files over it', async () => {
    const asked: string[] = [];
    const { attachments, errors } = await readAttachments(
      [file('retina.png', 'image/png', 5_300_000), file('small.png', 'image/png', new Uint8Array([137])), file('big.txt', 'text/plain', 5_300_000)],
      async (f, name) => {
        asked.push(name);
        return f.size > 1000 ? { bytes: new Uint8Array([255, 216]), mimeType: 'image/jpeg', name: 'retina.jpg' } : null;
      },
    );
    expect(asked).toEqual(['retina.png', 'small.png']);
    expect(attachments.map((a) => [a.name, a.mimeType, a.dataUrl])).toEqual([
      ['retina.jpg', 'image/jpeg', 'data:image/jpeg;base64,/9g='],
      ['small.png', 'image/png', 'data:image/png;base64,iQ=='],
    ]);
    expect(errors).toEqual([expect.stringMatching(/^big\.txt is 5\.1 MB/)]);
  });

  it('sends an iPhone photo as the picture the browser decodes, or as a file when it cannot', async () => {
    const jpeg = new Uint8Array([255, 216, 255]);
    const decoded = await readAttachments([file('IMG_0042.HEIC', 'image/heic', new Uint8Array([0, 0, 0, 24]))], async (f, name) => ({ bytes: jpeg, mimeType: 'image/jpeg', name: name.replace(/\.\w+$/, '.jpg') }));
    expect(decoded.attachments.map((a) => [a.kind, a.name, a.mimeType])).toEqual([['image', 'IMG_0042.jpg', 'image/jpeg']]);
    const undecoded = await readAttachments([file('IMG_0042.HEIC', 'image/heic', new Uint8Array([0, 0, 0, 24]))], async () => null);
    expect(undecoded.attachments.map((a) => [a.kind, a.name, a.mimeType])).toEqual([['file', 'IMG_0042.HEIC', 'image/heic']]);
  });

  it('sends an image it could not convert as it is, or refuses it by its own size', async () => {
    const { attachments, errors } = await readAttachments(
      [file('odd.bmp', 'image/bmp', new Uint8Array([66, 77])), file('huge.bmp', 'image/bmp', 5_300_000)],
      async () => null,
    );
    expect(attachments.map((a) => [a.name, a.mimeType, a.dataUrl])).toEqual([['odd.bmp', 'image/bmp', 'data:image/bmp;base64,Qk0=']]);
    expect(errors).toEqual([expect.stringMatching(/^huge\.bmp is 5\.1 MB; attachments can be at most 5\.0 MB$/)]);
  });

  it('normalizes mime types', () => {
    expect(normalizeMime('IMAGE/PNG')).toBe('image/png');
    expect(normalizeMime('text/x"evil')).toBe('application/octet-stream');
  });
});
