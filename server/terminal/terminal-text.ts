/**
 * Text from an agent on its way to a terminal. A terminal obeys control characters: an escape
 * sequence in a model's output (prompt injection is enough to put one there) could move the
 * cursor, clear the screen or retitle the window. Only newline and tab are kept; the rest of a
 * sequence stays as plain, visible text (`[2J`), so nothing is lost silently.
 */

// C0 controls but tab (\t) and newline (\n), DEL, and the C1 controls.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * @example stripTerminalControls('a\u001b[2Jb\n') // 'a[2Jb\n'
 */
export function stripTerminalControls(text: string): string {
  return text.replace(CONTROLS, '');
}
