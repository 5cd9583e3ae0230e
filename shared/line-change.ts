/**
 * A file change as the lines it removes and adds: the lines both sides share at the start and the
 * end are context, the middle is the change. Enough to see what an edit does, without a diff
 * library; the toolbar draws it and the chat's Markdown writes it.
 */

export interface LineChange {
  /** Lines both sides share at the start (the change begins on line `head + 1`). */
  head: number;
  removed: string[];
  added: string[];
}

/**
 * @example findLineChange('a\nb\nc', 'a\nB\nc') // { head: 1, removed: ['b'], added: ['B'] }
 * @example findLineChange(null, 'new') // { head: 0, removed: [], added: ['new'] } (a new file)
 */
export function findLineChange(oldText: string | null | undefined, newText: string): LineChange {
  const oldLines = oldText ? oldText.split('\n') : [];
  const newLines = newText.split('\n');
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (tail < oldLines.length - head && tail < newLines.length - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) tail++;
  return { head, removed: oldLines.slice(head, oldLines.length - tail), added: newLines.slice(head, newLines.length - tail) };
}
