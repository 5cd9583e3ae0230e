/**
 * When a chat file is rewritten ("compacted") from memory instead of appending to its journal.
 * Rewrites cost the whole chat, appends cost what changed: the policy keeps disk bytes per streamed
 * byte low while bounding how much journal a load has to replay.
 */

/** A chat file and its journal this small is rewritten whenever a message ends. */
export const SMALL_CHAT_BYTES = 64 * 1024;
/** Past this a journal is folded into its chat file even mid-stream, if also 4× the file. */
export const JOURNAL_COMPACT_BYTES = 1024 * 1024;
/** Close folds journals into chat files up to this size, so the next start reads headers only. */
export const CLOSE_COMPACT_BYTES = 8 * 1024 * 1024;

export interface ChatFileSizes {
  /** The chat file exists. */
  onDisk: boolean;
  /** The last write failed: only a rewrite is known to leave a consistent file. */
  forceCompact: boolean;
  fileBytes: number;
  /** The journal on disk plus what is about to be appended to it. */
  journalBytes: number;
}

/**
 * Whether the next write rewrites the chat file (`urgent`: a message just ended).
 *
 * @example shouldCompact({ onDisk: true, forceCompact: false, fileBytes: 10_000, journalBytes: 500 }, true) // true: small
 */
export function shouldCompact(sizes: ChatFileSizes, urgent: boolean): boolean {
  if (!sizes.onDisk || sizes.forceCompact) return true;
  const { fileBytes: file, journalBytes: journal } = sizes;
  // A message ended: rewrite when cheap in absolute terms, or when the journal since the last
  // rewrite is at least four times the old file, so a rewrite costs at most ~1.25 bytes per
  // journal byte. A 50,000-char reply thus costs under 3 disk bytes per char in every case.
  if (urgent && (file + journal <= SMALL_CHAT_BYTES || 4 * file <= journal)) return true;
  // Mid-stream, only to bound the journal (and the replay on load).
  return journal >= Math.max(JOURNAL_COMPACT_BYTES, 4 * file);
}

/**
 * Whether closing the repository folds this chat's journal into its file: always when small, and
 * for big chats only when the journal is a real share of the file.
 *
 * @example shouldCompactOnClose({ fileBytes: 20 << 20, journalBytes: 1024 }) // false
 */
export function shouldCompactOnClose(sizes: { fileBytes: number; journalBytes: number }): boolean {
  if (sizes.journalBytes === 0) return false;
  return sizes.fileBytes + sizes.journalBytes <= CLOSE_COMPACT_BYTES || sizes.journalBytes * 4 >= sizes.fileBytes;
}
