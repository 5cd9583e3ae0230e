/**
 * What a line typed in the interactive chat does while a reply streams: `/stop` stops that reply,
 * a command that only reads answers at once, and anything else (a message, a command that changes
 * something) waits for the reply to end, in the order typed.
 */

/** Commands that only read what the chat already has, whatever follows them. */
const READ_ONLY = ['/help', '/chats', '/agents', '/usage'];
/** Commands that only read when typed alone (`/set` lists the settings; `/set model opus` changes one). */
const READ_ONLY_ALONE = ['/mode', '/set', '/attach'];

export type LineDuringReply = 'stop' | 'answer-now' | 'queue';

/**
 * @example readLineDuringReply('/stop') // 'stop'
 * readLineDuringReply('/help') // 'answer-now'
 * readLineDuringReply('/set model opus') // 'queue'
 * readLineDuringReply('fix the header') // 'queue'
 */
export function readLineDuringReply(line: string): LineDuringReply {
  const [command = '', ...rest] = line.trim().split(/\s+/);
  if (command === '/stop') return 'stop';
  if (READ_ONLY.includes(command)) return 'answer-now';
  return READ_ONLY_ALONE.includes(command) && rest.length === 0 ? 'answer-now' : 'queue';
}
