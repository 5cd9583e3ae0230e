import { afterEach, describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from './base64.ts';

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let seed = 1;
  for (let i = 0; i < length; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  return bytes;
}

type Patched = { toBase64?: unknown; fromBase64?: unknown };

describe('base64', () => {
  // Node 25 and later have the codec too: put back whatever was there.
  const own = { toBase64: (Uint8Array.prototype as Patched).toBase64, fromBase64: (Uint8Array as Patched).fromBase64 };
  afterEach(() => {
    (Uint8Array.prototype as Patched).toBase64 = own.toBase64;
    (Uint8Array as Patched).fromBase64 = own.fromBase64;
    if (own.toBase64 === undefined) delete (Uint8Array.prototype as Patched).toBase64;
    if (own.fromBase64 === undefined) delete (Uint8Array as Patched).fromBase64;
  });

  it('encodes and decodes every length, across the chunks it encodes in, as Node does, without the codec', () => {
    delete (Uint8Array.prototype as Patched).toBase64;
    delete (Uint8Array as Patched).fromBase64;
    for (const length of [0, 1, 2, 3, 4, 5, 0x8000 - 1, 0x8000, 0x8000 + 1, 100_003]) {
      const bytes = randomBytes(length);
      const base64 = toBase64(bytes);
      expect(base64).toBe(Buffer.from(bytes).toString('base64'));
      expect(fromBase64(base64)).toEqual(bytes);
    }
  });

  it("uses the browser's own codec where it has one", () => {
    (Uint8Array.prototype as Patched).toBase64 = function (this: Uint8Array) {
      return `native:${this.length}`;
    };
    (Uint8Array as Patched).fromBase64 = (text: string) => new Uint8Array([text.length]);
    expect(toBase64(new Uint8Array(3))).toBe('native:3');
    expect(fromBase64('aGk=')).toEqual(new Uint8Array([4]));
  });
});
