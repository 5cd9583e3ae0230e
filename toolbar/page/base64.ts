/**
 * Base64 for the data URLs attachments travel in. Browsers with the native codec (Chromium 140,
 * Firefox 133, Safari 18.2) do a 4 MB screenshot in a few milliseconds; the fallback, in chunks
 * (a spread of 5 MB would overflow the stack), holds the page's main thread for a few hundred.
 */

/** The native codec (ES2026's Uint8Array base64), where the browser has it. */
interface NativeBase64 {
  toBase64?: (this: Uint8Array) => string;
}
interface NativeBase64Constructor {
  fromBase64?: (base64: string) => Uint8Array<ArrayBuffer>;
}

/** @example toBase64(new Uint8Array([104, 105])) // 'aGk=' */
export function toBase64(bytes: Uint8Array): string {
  const native = (bytes as NativeBase64).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** @example fromBase64('aGk=') // Uint8Array [104, 105] */
export function fromBase64(base64: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as NativeBase64Constructor).fromBase64;
  if (typeof native === 'function') return native(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
