import { describe, expect, it } from 'vitest';
import { encodeServerFrame } from '../test-support/ws-frames.ts';
import { createFrameSizer } from './frame-sizer.ts';

/** One unmasked server frame whose payload is `length` bytes. */
function frame(opcode: number, length: number, fin = true): Buffer {
  return encodeServerFrame(opcode, Buffer.alloc(length, 0x61), fin);
}

const STREAM = Buffer.concat([
  frame(0x1, 5), // small text: 2 + 5
  frame(0x9, 0), // ping: not a message
  frame(0x1, 200), // 16-bit length: 4 + 200
  frame(0x1, 30, false), // a message in two fragments: 2 + 30 + 2 + 40
  frame(0xa, 3), // a pong between them
  frame(0x0, 40),
  frame(0x2, 70_000), // 64-bit length: 10 + 70,000
  frame(0x1, 0), // empty text: 2
]);
const SIZES = [7, 204, 74, 70_010, 2];

function sizesOf(chunks: Buffer[]): number[] {
  const sizes: number[] = [];
  const sizer = createFrameSizer((bytes) => sizes.push(bytes));
  for (const chunk of chunks) sizer(chunk);
  return sizes;
}

describe('createFrameSizer', () => {
  it('gives each data message its header and payload bytes, fragments summed, control frames left out', () => {
    expect(sizesOf([STREAM])).toEqual(SIZES);
  });

  it('gives the same sizes however the TCP stream is cut', () => {
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.subarray(i, i + size));
      expect(sizesOf(chunks), `chunks of ${size}`).toEqual(SIZES);
    }
  });

  it('reports a message only once its last byte is in', () => {
    const sizes: number[] = [];
    const sizer = createFrameSizer((bytes) => sizes.push(bytes));
    const one = frame(0x1, 10);
    sizer(one.subarray(0, 11));
    expect(sizes).toEqual([]);
    sizer(one.subarray(11));
    expect(sizes).toEqual([12]);
  });

  describe('with an HTTP head in front (a client socket from its first byte)', () => {
    const HEAD = Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: abc=\r\n\r\n');
    const WIRE = Buffer.concat([HEAD, STREAM]);

    function read(chunks: Buffer[]): { head: number[]; sizes: number[] } {
      const head: number[] = [];
      const sizes: number[] = [];
      const sizer = createFrameSizer((bytes) => sizes.push(bytes), { onHttpHead: (bytes) => head.push(bytes) });
      for (const chunk of chunks) sizer(chunk);
      return { head, sizes };
    }

    it('sizes the head, then the frames that came in the same read', () => {
      expect(read([WIRE])).toEqual({ head: [HEAD.length], sizes: SIZES });
    });

    it('gives the same sizes however the stream is cut, inside the head, at its end or mid-frame', () => {
      for (const size of [1, 2, 3, 5, 64, HEAD.length - 1, HEAD.length + 3]) {
        const chunks: Buffer[] = [];
        for (let i = 0; i < WIRE.length; i += size) chunks.push(WIRE.subarray(i, i + size));
        expect(read(chunks), `chunks of ${size}`).toEqual({ head: [HEAD.length], sizes: SIZES });
      }
    });

    it('finds the end of a head whose lines hold a lone CR or LF before it', () => {
      const odd = Buffer.from('HTTP/1.1 101 OK\r\nX-A: a\rb\nc\r\r\n\r\n');
      expect(read([odd, frame(0x1, 1)])).toEqual({ head: [odd.length], sizes: [3] });
    });

    it('reports no head and no message while the head is incomplete', () => {
      expect(read([HEAD.subarray(0, HEAD.length - 1)])).toEqual({ head: [], sizes: [] });
    });
  });
});
