/**
 * Undoes the compression of a document the proxy injects into. Everything else passes through
 * compressed, as the upstream sent it.
 */
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

/**
 * Whether this Node decodes zstd (`zlib.createZstdDecompress`, Node 22.15+ and 23.8+). Without it
 * the proxy asks the upstream not to use zstd at all (see `acceptEncodingFor`).
 */
export const CAN_DECODE_ZSTD = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function';

/**
 * A stream that decodes `contentEncoding`, `null` for a body that is not encoded, or `undefined`
 * for an encoding this Node cannot undo (a list of several, an unknown one, zstd before Node 22.15).
 *
 * @example const decoder = createDecoder(res.headers['content-encoding']); // gunzip for 'gzip'
 */
export function createDecoder(contentEncoding: string | undefined): Transform | null | undefined {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return null;
  // Flushing each piece as it comes keeps a streamed document streaming.
  const options = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip(options);
  if (encoding === 'deflate') return zlib.createInflate(options);
  if (encoding === 'br') return zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  if (encoding === 'zstd' && CAN_DECODE_ZSTD) {
    const make = (zlib as unknown as { createZstdDecompress: () => Transform }).createZstdDecompress;
    return make();
  }
  return undefined;
}

/**
 * The `Accept-Encoding` to send upstream: the browser's, less `zstd` when this Node cannot decode
 * it, so an upstream that would pick zstd for a document picks gzip or br, which the proxy can
 * inject into. Only loopback bytes grow.
 *
 * @example acceptEncodingFor('gzip, deflate, br, zstd', false) // 'gzip, deflate, br'
 */
export function acceptEncodingFor(given: string | undefined, canDecodeZstd = CAN_DECODE_ZSTD): string | undefined {
  if (given === undefined || canDecodeZstd) return given;
  return given
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !/^zstd(\s*;|$)/i.test(part))
    .join(', ');
}
