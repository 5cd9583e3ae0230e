/** Sizes, durations and lists as the toolbar, the terminal and replies show them, so all say the same. */

/**
 * `1.5 MB`-style sizes for messages.
 *
 * @example formatBytes(2048) // '2.0 KB'
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * How long an agent thought: whole seconds (at least 1), minutes past 60.
 *
 * @example formatThinkingTime(83_000) // '1 min 23 s'
 */
export function formatThinkingTime(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
}

/**
 * Items as a sentence lists them.
 *
 * @example formatList(['a.zip', 'b.bin', 'c.woff2']) // 'a.zip, b.bin and c.woff2'
 */
export function formatList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}
