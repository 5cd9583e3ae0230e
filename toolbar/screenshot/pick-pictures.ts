/**
 * The pictures a message carries of its picked elements: one image part for each of the first
 * `SCREENSHOT_LIMITS.maxPicks`, named after the pick (`pick-1-button.png`) so the agent can tell
 * them apart, all within one time budget. A pick that gets no picture is named, with the reason,
 * and the message goes without it.
 */
import { MAX_ATTACHMENTS_LENGTH } from '../../shared/data-url.ts';
import { LIMITS, SCREENSHOT_LIMITS } from '../../shared/limits.ts';
import type { ImagePart, UserContentPart } from '../../shared/schemas.ts';
import type { DrawnPicture } from './picture-api.ts';

export interface PickPictures {
  /** Each picture with the number of its pick (1 for the first). */
  parts: { pick: number; part: ImagePart }[];
  /** The picks without a picture, each with its reason: `pick 2 (no longer on the page)`. */
  missed: string[];
}

/**
 * The file name of pick `index`'s picture (0 is the first pick).
 *
 * @example pickPictureName(0, 'BUTTON', 'image/png') // 'pick-1-button.png'
 */
export function pickPictureName(index: number, tagName: string, mimeType: string): string {
  const tag = tagName.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32) || 'element';
  return `pick-${index + 1}-${tag}.${mimeType === 'image/jpeg' ? 'jpg' : 'png'}`;
}

/**
 * Takes the pictures of the first picks one after another, starting none after `timeoutMs`.
 *
 * @example const { parts, missed } = await takePickPictures(picks, (el, ms) => takePicture(window, host, el, ms), 3_000);
 */
export async function takePickPictures(
  picks: readonly { node: Element | null; tagName: string }[],
  take: (el: Element, timeoutMs: number) => Promise<DrawnPicture>,
  timeoutMs: number,
  now: () => number = Date.now,
): Promise<PickPictures> {
  const deadline = now() + timeoutMs;
  const parts: PickPictures['parts'] = [];
  const missed: string[] = [];
  for (const [index, pick] of picks.slice(0, SCREENSHOT_LIMITS.maxPicks).entries()) {
    const left = deadline - now();
    const why = !pick.node?.isConnected ? 'no longer on the page' : left <= 0 ? `it took longer than ${Math.ceil(timeoutMs / 1000)} s` : null;
    if (why || !pick.node) {
      missed.push(`pick ${index + 1} (${why})`);
      continue;
    }
    try {
      const picture = await take(pick.node, left);
      const part: ImagePart = { type: 'image', image: picture.dataUrl, mimeType: picture.mimeType, filename: pickPictureName(index, pick.tagName, picture.mimeType) };
      parts.push({ pick: index + 1, part });
    } catch (err) {
      missed.push(`pick ${index + 1} (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  return { parts, missed };
}

/**
 * `content` with as many of the pictures as the message has room for (parts and the attachment
 * total); the ones left out join `missed`.
 *
 * @example const { content, missed } = addPickPictures(built.content, pictures);
 */
export function addPickPictures(content: readonly UserContentPart[], pictures: PickPictures): { content: UserContentPart[]; missed: string[] } {
  const out = [...content];
  const missed = [...pictures.missed];
  let length = content.reduce((sum, p) => sum + (p.type === 'image' ? p.image.length : p.type === 'file' ? p.data.length : 0), 0);
  for (const { pick, part } of pictures.parts) {
    if (out.length < LIMITS.maxParts && length + part.image.length <= MAX_ATTACHMENTS_LENGTH) {
      out.push(part);
      length += part.image.length;
    } else {
      missed.push(`pick ${pick} (the message has no room left)`);
    }
  }
  return { content: out, missed };
}

/**
 * What the composer says after a message went without some of its pictures.
 *
 * @example describeMissedPictures(['pick 2 (no longer on the page)']) // 'Sent without a picture of pick 2 (no longer on the page)'
 */
export function describeMissedPictures(missed: readonly string[]): string {
  return `Sent without a picture of ${missed.join(', ')}`;
}
