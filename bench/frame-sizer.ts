/**
 * The wire size of each WebSocket message a client receives, read off the TCP stream: frame
 * header plus payload as sent (compressed, when permessage-deflate is on), the fragments of one
 * message summed, control frames (ping, pong, close) left out.
 *
 * `socket.bytesRead` alone cannot say which message a byte belongs to: a busy client reads the
 * frames after a stream's last delta in the same TCP read, and those bytes then counted as the
 * stream's (about 100 B per client at 200 clients).
 *
 * Fed from a socket's first byte, it also sizes the HTTP 101 answer in front of the frames:
 * `bytesRead` when the socket opens is not that size, because the frames the server sends right
 * after the upgrade often come in the same read as the answer.
 */

/** The end of an HTTP head: CR LF CR LF. */
const HEAD_END = [13, 10, 13, 10];

/** Header bytes of the frame that starts `head`, or null while its first two bytes are not in. */
function headerLength(head: readonly number[]): number | null {
  if (head.length < 2) return null;
  const len7 = head[1]! & 0x7f;
  const masked = (head[1]! & 0x80) !== 0;
  return 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (masked ? 4 : 0);
}

function payloadLength(head: readonly number[]): number {
  const len7 = head[1]! & 0x7f;
  if (len7 < 126) return len7;
  const bytes = len7 === 126 ? 2 : 8;
  let length = 0;
  for (let i = 0; i < bytes; i++) length = length * 256 + head[2 + i]!;
  return length;
}

/**
 * Feed it every chunk the socket reads, in order; it calls `onMessage` with each data message's
 * wire bytes once its last byte is in. With `onHttpHead`, the stream starts with an HTTP response
 * head (the 101 answer of a WebSocket client's socket): its bytes, up to and including the blank
 * line, go to `onHttpHead` and the frames start after it.
 *
 * @example
 * const sizer = createFrameSizer((bytes) => sizes.push(bytes));
 * socket.on('data', sizer);
 * @example
 * const sizer = createFrameSizer((bytes) => sizes.push(bytes), { onHttpHead: (bytes) => (upgrade = bytes) });
 */
export function createFrameSizer(
  onMessage: (wireBytes: number) => void,
  options: { onHttpHead?: (bytes: number) => void } = {},
): (chunk: Uint8Array) => void {
  const { onHttpHead } = options;
  /** Bytes of the HTTP head so far, and how many of "\r\n\r\n" its end has matched; -1 once done. */
  let httpBytes = onHttpHead ? 0 : -1;
  let httpMatched = 0;
  let head: number[] = [];
  /** Payload bytes of the current frame still to come. */
  let skip = 0;
  /** Wire bytes of the data message being received so far. */
  let message = 0;
  let control = false;
  let fin = false;
  const endFrame = () => {
    if (control || !fin) return;
    onMessage(message);
    message = 0;
  };
  return (chunk) => {
    let i = 0;
    while (httpBytes >= 0 && i < chunk.length) {
      const byte = chunk[i++]!;
      httpBytes++;
      httpMatched = byte === HEAD_END[httpMatched] ? httpMatched + 1 : byte === HEAD_END[0] ? 1 : 0;
      if (httpMatched === HEAD_END.length) {
        onHttpHead!(httpBytes);
        httpBytes = -1;
      }
    }
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        if (!control) message += n;
        if (skip === 0) endFrame();
        continue;
      }
      head.push(chunk[i++]!);
      const need = headerLength(head);
      if (need === null || head.length < need) continue;
      fin = (head[0]! & 0x80) !== 0;
      control = (head[0]! & 0x08) !== 0;
      skip = payloadLength(head);
      if (!control) message += head.length;
      head = [];
      if (skip === 0) endFrame();
    }
  };
}
