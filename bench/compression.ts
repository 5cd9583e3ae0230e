/**
 * Byte counts of a message sequence as it would cross the wire, computed with zlib (not guessed):
 * WebSocket frames with permessage-deflate context takeover, and SSE events over HTTP/1.1 chunked
 * transfer with and without gzip flushed per event.
 */
import zlib from 'node:zlib';

export interface WireCount {
  /** Messages counted. */
  messages: number;
  /** Sum of the messages' UTF-8 bytes (the JSON or the SSE event text). */
  payloadBytes: number;
  /** Payload plus framing (WS frame header, or HTTP chunk size line and CRLF). */
  rawWireBytes: number;
  /** Compressed payload plus framing. */
  compressedWireBytes: number;
}

/**
 * Compresses each message in turn on one zlib stream (context kept), flushing with Z_SYNC_FLUSH
 * after each, and reports each flush's output length. Exactly what `ws` does per message.
 */
async function flushedSizes(stream: zlib.DeflateRaw | zlib.Gzip, messages: Iterable<Buffer>, onSize: (input: Buffer, output: number) => void): Promise<void> {
  let produced = 0;
  stream.on('data', (chunk: Buffer) => {
    produced += chunk.length;
  });
  for (const input of messages) {
    produced = 0;
    stream.write(input);
    await new Promise<void>((resolve) => stream.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
    onSize(input, produced);
  }
  stream.close();
}

function* toBuffers(messages: Iterable<string>): Generator<Buffer> {
  for (const m of messages) yield Buffer.from(m);
}

/** Header bytes of an unmasked (server → client) WebSocket frame with a payload of `length` bytes. */
export function wsHeaderBytes(length: number): number {
  return length < 126 ? 2 : length < 65_536 ? 4 : 10;
}

/** HTTP/1.1 chunked framing of one chunk: `<hex size>\r\n` before, `\r\n` after. */
export function chunkFramingBytes(length: number): number {
  return length.toString(16).length + 4;
}

/**
 * WebSocket text frames, one per message. Compressed as `ws` does permessage-deflate (RFC 7692)
 * with context takeover: one raw-deflate stream (window 15 bits, default level and memLevel, as
 * `ws` configures zlib), each message written then flushed with Z_SYNC_FLUSH, the trailing
 * 00 00 FF FF dropped, plus the frame header for the compressed length.
 *
 * @example (await countWebSocket(['{"a":1}', '{"a":2}'])).compressedWireBytes
 */
export async function countWebSocket(messages: Iterable<string>): Promise<WireCount> {
  const count: WireCount = { messages: 0, payloadBytes: 0, rawWireBytes: 0, compressedWireBytes: 0 };
  await flushedSizes(zlib.createDeflateRaw({ windowBits: 15 }), toBuffers(messages), (input, output) => {
    const compressed = output - 4;
    count.messages++;
    count.payloadBytes += input.length;
    count.rawWireBytes += input.length + wsHeaderBytes(input.length);
    count.compressedWireBytes += compressed + wsHeaderBytes(compressed);
  });
  return count;
}

/**
 * SSE events, each written and flushed as its own HTTP/1.1 chunk. Compressed as a
 * `Content-Encoding: gzip` response whose compressor is flushed (Z_SYNC_FLUSH) after every event
 * so the event leaves at once: one gzip stream (its 10-byte header counted once), each flush's
 * output sent as one chunk.
 */
export async function countSse(events: Iterable<string>): Promise<WireCount> {
  const count: WireCount = { messages: 0, payloadBytes: 0, rawWireBytes: 0, compressedWireBytes: 0 };
  await flushedSizes(zlib.createGzip(), toBuffers(events), (input, output) => {
    count.messages++;
    count.payloadBytes += input.length;
    count.rawWireBytes += input.length + chunkFramingBytes(input.length);
    count.compressedWireBytes += output + chunkFramingBytes(output);
  });
  return count;
}
