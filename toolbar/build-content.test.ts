import { describe, expect, it } from 'vitest';
import { LIMITS } from '../shared/limits.ts';
import { buildContent } from './build-content.ts';
import type { Attachment } from './store.ts';

describe('buildContent', () => {
  const attachment = (i: number, size = 10): Attachment => ({
    id: `a${i}`,
    kind: 'file',
    name: `f${i}`,
    mimeType: 'text/plain',
    dataUrl: 'data:text/plain;base64,' + 'A'.repeat(size),
  });

  it('refuses more parts than a message holds', () => {
    const result = buildContent('text', Array.from({ length: LIMITS.maxParts }, (_, i) => attachment(i)));
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/at most 20 parts; remove 1/) });
  });

  it('refuses attachments that together exceed a frame', () => {
    const big = Array.from({ length: 2 }, (_, i) => attachment(i, 5_000_000));
    // 5,000,000 base64 characters each: 3.75 MB of file each, as the user counts it.
    expect(buildContent('', big)).toEqual({ ok: false, error: 'The attachments total 7.2 MB; one message carries at most 5.6 MB. Send some with your next message.' });
  });

  it('refuses text over the limit', () => {
    expect(buildContent('x'.repeat(LIMITS.maxTextLength + 1), [])).toEqual({ ok: false, error: expect.stringMatching(/limit is 200000/) });
  });
});
