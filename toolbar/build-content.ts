/** The parts of a user message, built from what the composer holds (its text and attachments). */
import { dataUrlBytes, MAX_ATTACHMENTS_BYTES, MAX_ATTACHMENTS_LENGTH } from '../shared/data-url.ts';
import { formatBytes } from '../shared/format.ts';
import { LIMITS } from '../shared/limits.ts';
import type { UserContentPart } from '../shared/schemas.ts';
import type { Attachment } from './store.ts';

/**
 * Builds the parts of a user message from the composer, or says why it cannot be sent.
 *
 * @example
 * buildContent('hi', []) // { ok: true, content: [{ type: 'text', text: 'hi' }] }
 */
export function buildContent(
  draft: string,
  attachments: readonly Attachment[],
): { ok: true; content: UserContentPart[] } | { ok: false; error: string | null } {
  const content: UserContentPart[] = [];
  if (draft.trim()) {
    if (draft.length > LIMITS.maxTextLength) {
      return { ok: false, error: `The message is ${draft.length} characters long; the limit is ${LIMITS.maxTextLength}` };
    }
    content.push({ type: 'text', text: draft });
  }
  let bytes = 0;
  for (const a of attachments) {
    bytes += a.dataUrl.length;
    content.push(
      a.kind === 'image'
        ? { type: 'image', image: a.dataUrl, mimeType: a.mimeType }
        : { type: 'file', data: a.dataUrl, filename: a.name, mimeType: a.mimeType },
    );
  }
  if (content.length === 0) return { ok: false, error: null };
  if (content.length > LIMITS.maxParts) {
    return { ok: false, error: `A message holds at most ${LIMITS.maxParts} parts; remove ${content.length - LIMITS.maxParts} attachment(s)` };
  }
  if (bytes > MAX_ATTACHMENTS_LENGTH) {
    // In the sizes the user sees on their files, not the longer base64 that carries them.
    const files = attachments.reduce((sum, a) => sum + dataUrlBytes(a.dataUrl), 0);
    return { ok: false, error: `The attachments total ${formatBytes(files)}; one message carries at most ${formatBytes(MAX_ATTACHMENTS_BYTES)}. Send some with your next message.` };
  }
  return { ok: true, content };
}
