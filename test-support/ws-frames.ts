/** WebSocket frames as a server writes them, for tests that feed or serve raw bytes. */

/**
 * One unmasked server frame: FIN bit, opcode, and the length in its 7-, 16- or 64-bit form.
 *
 * @example
 * encodeServerFrame(0x1, Buffer.from('{"type":"welcome"}')); // a text frame
 * encodeServerFrame(0x9, Buffer.alloc(0)); // a ping
 */
export function encodeServerFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  const first = (fin ? 0x80 : 0) | opcode;
  const length = payload.length;
  let header: Buffer;
  if (length < 126) header = Buffer.from([first, length]);
  else if (length < 65536) header = Buffer.from([first, 126, length >> 8, length & 0xff]);
  else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}
