import { describe, expect, it } from 'vitest';
import { MAX_ATTACHMENTS_LENGTH } from '../../shared/data-url.ts';
import { LIMITS, SCREENSHOT_LIMITS } from '../../shared/limits.ts';
import type { UserContentPart } from '../../shared/schemas.ts';
import { addPickPictures, describeMissedPictures, pickPictureName, takePickPictures } from './pick-pictures.ts';
import type { DrawnPicture } from './picture-api.ts';

const node = (connected = true) => ({ isConnected: connected }) as Element;
const picture = (dataUrl = 'data:image/png;base64,AAAA'): DrawnPicture => ({ dataUrl, mimeType: dataUrl.slice(5, dataUrl.indexOf(';')), width: 2, height: 2, area: { x: 0, y: 0, width: 1, height: 1 } });

describe('pickPictureName', () => {
  it('names the pick by its number and tag, with the picture type', () => {
    expect(pickPictureName(0, 'BUTTON', 'image/png')).toBe('pick-1-button.png');
    expect(pickPictureName(3, 'my-widget', 'image/jpeg')).toBe('pick-4-my-widget.jpg');
  });

  it('keeps only safe characters of an odd tag name', () => {
    expect(pickPictureName(1, 'svg:Path', 'image/png')).toBe('pick-2-svg-path.png');
    expect(pickPictureName(1, '::', 'image/png')).toBe('pick-2-element.png');
    expect(pickPictureName(0, 'x'.repeat(100), 'image/png')).toBe(`pick-1-${'x'.repeat(32)}.png`);
  });
});

describe('takePickPictures', () => {
  it('pictures the first picks, named in pick order', async () => {
    const picks = Array.from({ length: SCREENSHOT_LIMITS.maxPicks + 2 }, (_, i) => ({ node: node(), tagName: i % 2 ? 'td' : 'BUTTON' }));
    const { parts, missed } = await takePickPictures(picks, async () => picture(), 3_000);
    expect(parts.map((p) => p.part.filename)).toEqual(['pick-1-button.png', 'pick-2-td.png', 'pick-3-button.png', 'pick-4-td.png'].slice(0, SCREENSHOT_LIMITS.maxPicks));
    expect(parts[0]).toEqual({ pick: 1, part: { type: 'image', image: 'data:image/png;base64,AAAA', mimeType: 'image/png', filename: 'pick-1-button.png' } });
    expect(missed).toEqual([]);
  });

  it('names the picks that got none, and why', async () => {
    const picks = [
      { node: node(false), tagName: 'div' },
      { node: null, tagName: 'div' },
      { node: node(), tagName: 'canvas' },
      { node: node(), tagName: 'p' },
    ];
    const { parts, missed } = await takePickPictures(picks, async (el) => {
      if (el === picks[2]!.node) throw new Error('the picture stays too large to send');
      return picture('data:image/jpeg;base64,AAAA');
    }, 3_000);
    expect(parts.map((p) => p.part.filename)).toEqual(['pick-4-p.jpg']);
    expect(missed).toEqual(['pick 1 (no longer on the page)', 'pick 2 (no longer on the page)', 'pick 3 (the picture stays too large to send)']);
  });

  it('starts no picture once the time is up, and gives each the time left', async () => {
    let clock = 0;
    const given: number[] = [];
    const picks = [{ node: node(), tagName: 'a' }, { node: node(), tagName: 'b' }, { node: node(), tagName: 'i' }];
    const { parts, missed } = await takePickPictures(picks, async (_el, ms) => {
      given.push(ms);
      clock += 2_000;
      return picture();
    }, 3_000, () => clock);
    expect(given).toEqual([3_000, 1_000]);
    expect(parts).toHaveLength(2);
    expect(missed).toEqual(['pick 3 (it took longer than 3 s)']);
  });
});

describe('addPickPictures', () => {
  const text: UserContentPart = { type: 'text', text: 'why is this red?' };
  const pictures = (count: number, length = 100) => ({
    parts: Array.from({ length: count }, (_, i) => ({ pick: i + 1, part: { type: 'image' as const, image: 'data:image/png;base64,' + 'A'.repeat(length), mimeType: 'image/png', filename: `pick-${i + 1}-a.png` } })),
    missed: ['pick 9 (no longer on the page)'],
  });

  it('adds the pictures after what the user wrote and attached', () => {
    const { content, missed } = addPickPictures([text], pictures(2));
    expect(content.map((p) => p.type)).toEqual(['text', 'image', 'image']);
    expect(missed).toEqual(['pick 9 (no longer on the page)']);
  });

  it('leaves out the pictures the message has no room for: parts, then length', () => {
    const full = Array.from({ length: LIMITS.maxParts - 1 }, () => text);
    expect(addPickPictures(full, pictures(2)).missed).toEqual(['pick 9 (no longer on the page)', 'pick 2 (the message has no room left)']);
    const heavy: UserContentPart = { type: 'file', data: 'data:application/zip;base64,' + 'A'.repeat(MAX_ATTACHMENTS_LENGTH - 150), mimeType: 'application/zip' };
    const { content, missed } = addPickPictures([text, heavy], pictures(2, 50));
    expect(content).toHaveLength(3);
    expect(missed).toContain('pick 2 (the message has no room left)');
  });

  it('says what went without a picture', () => {
    expect(describeMissedPictures(['pick 2 (no longer on the page)', 'pick 3 (it took longer than 3 s)'])).toBe(
      'Sent without a picture of pick 2 (no longer on the page), pick 3 (it took longer than 3 s)',
    );
  });
});
