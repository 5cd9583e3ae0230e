/** Sizes and durations as the toolbar and the terminal show them, so both say the same. */

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
