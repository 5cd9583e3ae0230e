/**
 * Text from an agent on its way to a terminal. A terminal obeys control characters: an escape
 * sequence in a model's output (prompt injection is enough to put one there) could move the
 * cursor, clear the screen or retitle the window. Only newline and tab are kept; the rest of a
 * sequence stays as plain, visible text (`[2J`), so nothing is lost silently.
 */

import type { Notice } from '../../../shared/schemas.ts';

// C0 controls but tab (\t) and newline (\n), DEL, and the C1 controls.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * @example stripTerminalControls('a\u001b[2Jb\n') // 'a[2Jb\n'
 */
export function stripTerminalControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/**
 * What to write to `stream`: stripped of control characters where it is a terminal, as it is
 * elsewhere (a pipe or a file gets the agent's bytes).
 *
 * @example const show = shownOn(process.stdout); process.stdout.write(show(reply));
 */
export function shownOn(stream: { isTTY?: boolean }): (text: string) => string {
  return stream.isTTY === true ? stripTerminalControls : (text) => text;
}

/**
 * An agent's notice on one line, as the terminal prints it; a severity it does not know is a note.
 *
 * @example describeNotice({ severity: 'warning', title: 'MCP server unavailable', description: 'Continuing without it.' })
 * // '[warning] MCP server unavailable (Continuing without it.)'
 */
export function describeNotice(notice: Notice): string {
  const label = notice.severity === 'warning' || notice.severity === 'error' ? notice.severity : 'note';
  return `[${label}] ${notice.title}${notice.description ? ` (${notice.description.replace(/\s+/g, ' ').trim()})` : ''}`;
}
