/**
 * The guard on an ACP agent's stdout: every line must be a JSON object no bigger than the limit.
 * Updates the SDK would refuse for a null field are left out (drop-malformed-update.ts).
 * An agent that prints anything else on stdout is broken, and the SDK alone would skip the line and
 * leave the turn waiting.
 */

import { isMalformedUpdate } from './drop-malformed-update.ts';

/** One ACP message; the SDK's own limit. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * Passes stdout through line by line, and calls `onGarbage` (then ends) at the first non-empty line
 * that is not a JSON object or is over `maxLineBytes`. Each chunk is scanned once and a line is
 * joined once, so a message of many megabytes that arrives in small chunks costs time in
 * proportion to its size (a file the agent writes comes as one such line).
 *
 * @example const stdout = checkLines(Readable.toWeb(child.stdout), (line) => kill(child));
 */
export function checkLines(input: ReadableStream<Uint8Array>, onGarbage: (line: string) => void, maxLineBytes = MAX_LINE_BYTES): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let broken = false;
  const fail = (controller: TransformStreamDefaultController<Uint8Array>, shown: string) => {
    broken = true;
    pending = [];
    onGarbage(shown);
    controller.terminate();
  };
  const check = (line: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) => {
    const text = decoder.decode(line).trim();
    if (!text) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(controller, text);
    if (isMalformedUpdate(value as Record<string, unknown>)) return;
    controller.enqueue(line);
    controller.enqueue(new Uint8Array([0x0a]));
  };
  /** The pending bytes and `tail` as one line; the pending parts are copies, so joining is safe. */
  const join = (tail: Uint8Array): Uint8Array => {
    if (pending.length === 0) return tail;
    const line = new Uint8Array(pendingBytes + tail.byteLength);
    let at = 0;
    for (const part of [...pending, tail]) {
      line.set(part, at);
      at += part.byteLength;
    }
    pending = [];
    pendingBytes = 0;
    return line;
  };
  const tooLong = (tail: Uint8Array) => `${decoder.decode(join(tail).subarray(0, 120))}… (a line over ${maxLineBytes} bytes)`;
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        let start = 0;
        for (let newline = chunk.indexOf(0x0a); !broken && newline >= 0; newline = chunk.indexOf(0x0a, start)) {
          const tail = chunk.subarray(start, newline);
          start = newline + 1;
          if (pendingBytes + tail.byteLength > maxLineBytes) return fail(controller, tooLong(tail));
          check(join(tail), controller);
        }
        if (broken || start >= chunk.byteLength) return;
        const rest = chunk.subarray(start);
        if (pendingBytes + rest.byteLength > maxLineBytes) return fail(controller, tooLong(rest));
        pending.push(new Uint8Array(rest));
        pendingBytes += rest.byteLength;
      },
      flush(controller) {
        if (!broken && pendingBytes > 0) check(join(new Uint8Array(0)), controller);
      },
    }),
  );
}
