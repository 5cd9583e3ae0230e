/**
 * Warnings an agent sends as reply text. Codex forwards its core's warnings as message chunks of
 * their own: a model it has no metadata for, and falling back from WebSockets to HTTPS (with the
 * raw bytes of the failed upgrade after it). Before the answer starts, such a chunk is no part of
 * the answer: it reads as a notice on the reply.
 */
import { truncateLine } from '../../shared/truncate.ts';
import type { NoticeInput } from '../sdk/agent.ts';

/** The warnings known by their first words, with or without a `Warning:` before them. */
const KNOWN_WARNINGS: readonly RegExp[] = [/^(?:warning:\s*)?(Model metadata for \S+ not found)\.?\s*/i, /^(?:warning:\s*)?(Falling back from WebSockets to HTTPS transport)\.?\s*/i];

const MAX_TITLE = 160;
const MAX_DESCRIPTION = 300;

/**
 * The notice a message chunk is when it is a known warning, else null. Its first sentence is the
 * title; the rest, up to the first raw byte or escaped line break, is the description.
 *
 * @example readWarningChunk('Model metadata for `gpt-x` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.')
 * // { severity: 'warning', title: 'Model metadata for `gpt-x` not found', description: 'Defaulting to fallback metadata; this can degrade performance and cause issues.' }
 */
export function readWarningChunk(text: string): NoticeInput | null {
  const start = text.trimStart();
  for (const pattern of KNOWN_WARNINGS) {
    const match = pattern.exec(start);
    if (!match) continue;
    // Raw bytes (a chunked HTTP body) or their escaped form end what reads as words.
    const rest = start.slice(match[0].length).split(/[\u0000-\u0008\u000a-\u001f\u007f\ufffd]|\\[rn]/, 1)[0] ?? '';
    const description = truncateLine(rest, MAX_DESCRIPTION);
    return { severity: 'warning', title: truncateLine(match[1]!, MAX_TITLE), ...(description ? { description } : {}) };
  }
  return null;
}
