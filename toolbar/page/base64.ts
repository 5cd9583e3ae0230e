/** Base64 for the data URLs attachments travel in, in chunks: a spread of 5 MB would overflow the stack. */

/** @example toBase64(new Uint8Array([104, 105])) // 'aGk=' */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** @example fromBase64('aGk=') // Uint8Array [104, 105] */
export function fromBase64(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}
