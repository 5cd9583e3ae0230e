import { describe, expect, it } from 'vitest';
import { dataUrlBytes, MAX_ATTACHMENTS_BYTES } from '../../shared/data-url.ts';
import type { Attachment } from '../store.ts';
import { fitAttachments, type ImageShrinker } from './fit-attachments.ts';

const MB = 1024 * 1024;

/** An attachment of about `bytes` bytes (its base64 is all 'A's). */
function attachment(id: string, kind: 'image' | 'file', bytes: number, mimeType = kind === 'image' ? 'image/png' : 'text/plain'): Attachment {
  return { id, kind, name: `${id}.${mimeType.split('/')[1]}`, mimeType, dataUrl: `data:${mimeType};base64,${'A'.repeat(Math.ceil(bytes / 3) * 4)}` };
}

/** Shrinks to 90% of what it is allowed, as a JPEG, and records what it was asked. */
function recordingShrinker(asked: { id: string; maxBytes: number }[]): ImageShrinker {
  return async (a, maxBytes) => {
    asked.push({ id: a.id, maxBytes });
    return { ...attachment(a.id, 'image', Math.floor(maxBytes * 0.9), 'image/jpeg'), name: a.name.replace(/\.\w+$/, '.jpg') };
  };
}

const total = (list: readonly Attachment[]) => list.reduce((sum, a) => sum + dataUrlBytes(a.dataUrl), 0);

describe('fitAttachments', () => {
  it('changes nothing when the attachments fit one message', async () => {
    const asked: { id: string; maxBytes: number }[] = [];
    expect(await fitAttachments([attachment('a', 'image', 2 * MB), attachment('b', 'image', 3 * MB)], recordingShrinker(asked))).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('shrinks the images that go over their share until the message carries them all, and leaves files alone', async () => {
    const asked: { id: string; maxBytes: number }[] = [];
    const list = [attachment('notes', 'file', 0.5 * MB), attachment('small', 'image', 0.2 * MB), attachment('big1', 'image', 3 * MB), attachment('big2', 'image', 4 * MB)];
    const replaced = await fitAttachments(list, recordingShrinker(asked));
    expect(asked.map((a) => a.id)).toEqual(['big1', 'big2']);
    // The small image leaves the rest of its share to the two large ones, which split the room;
    // what the first leaves unused goes to the second.
    expect(asked[0]!.maxBytes).toBeGreaterThan(2.2 * MB);
    expect(asked[1]!.maxBytes).toBeGreaterThanOrEqual(asked[0]!.maxBytes);
    expect(replaced.map((a) => [a.id, a.name, a.mimeType])).toEqual([
      ['big1', 'big1.jpg', 'image/jpeg'],
      ['big2', 'big2.jpg', 'image/jpeg'],
    ]);
    const after = list.map((a) => replaced.find((r) => r.id === a.id) ?? a);
    expect(total(after)).toBeLessThanOrEqual(MAX_ATTACHMENTS_BYTES);
  });

  it('gives up, changing nothing, when an image cannot be shrunk or only files are over', async () => {
    const failing: ImageShrinker = async () => null;
    expect(await fitAttachments([attachment('a', 'image', 3 * MB), attachment('b', 'image', 3 * MB)], failing)).toEqual([]);
    const asked: { id: string; maxBytes: number }[] = [];
    expect(await fitAttachments([attachment('log', 'file', 4 * MB), attachment('csv', 'file', 3 * MB), attachment('shot', 'image', 0.1 * MB)], recordingShrinker(asked))).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('leaves an SVG as it is: its source is what agents read', async () => {
    const asked: { id: string; maxBytes: number }[] = [];
    await fitAttachments([attachment('icon', 'image', 3 * MB, 'image/svg+xml'), attachment('shot', 'image', 4 * MB)], recordingShrinker(asked));
    expect(asked.map((a) => a.id)).toEqual(['shot']);
  });
});
