/**
 * Requests waiting for their `result` frame (PROTOCOL §5): ids, encoding and size checks, one
 * timeout each, and rejection of everything still waiting when the connection that carried it ends.
 */
import { LIMITS } from './limits.ts';
import type { RequestPayload, RequestType, ResultFrame, ResultValues } from './schemas.ts';

/** Codes of failures the client detects itself (the server's codes are in `ErrorCode`). */
export type LocalErrorCode = 'timeout' | 'disconnected' | 'closed' | 'offline' | 'too_large' | 'invalid_message';

/** Rejection of `request()`: the server's `error` of an ok:false result, or a local failure. */
export class RequestError extends Error {
  readonly code: string;
  readonly path: string | undefined;
  constructor(code: string, message: string, path?: string) {
    super(message);
    this.name = 'RequestError';
    this.code = code;
    this.path = path;
  }
}

export interface RequestTable {
  /**
   * Encodes a request, hands it to `send` and resolves with its result's value. Rejects with
   * `invalid_message` (not JSON), `too_large`, `disconnected` (send returned false) or `timeout`.
   */
  send<T extends RequestType>(type: T, payload: RequestPayload<T>, send: (data: string) => boolean): Promise<ResultValues[T]>;
  /** Settles the request a result frame answers; results nobody waits for are dropped. */
  settle(frame: ResultFrame): void;
  /** Rejects every waiting request, e.g. when its connection ended. */
  rejectAll(code: LocalErrorCode, message: string): void;
}

type Timer = ReturnType<typeof globalThis.setTimeout>;

interface Pending {
  resolve(value: unknown): void;
  reject(error: RequestError): void;
  timer: Timer;
}

/**
 * Creates an empty table whose requests time out after `timeoutMs`.
 *
 * @example
 * const requests = createRequestTable({ timeoutMs: 15_000 });
 * const { chatId } = await requests.send('chat.create', {}, (data) => socketSend(data));
 * // on every result frame: requests.settle(frame); on a drop: requests.rejectAll('disconnected', '…')
 */
export function createRequestTable(options: { timeoutMs: number }): RequestTable {
  const pending = new Map<string, Pending>();
  let seq = 0;
  return {
    send(type, payload, send) {
      const id = `r${++seq}`;
      let data: string;
      try {
        // `type` and `id` win over same-named payload keys.
        data = JSON.stringify({ ...payload, type, id });
      } catch (err) {
        return Promise.reject(new RequestError('invalid_message', `The request cannot be sent as JSON: ${err instanceof Error ? err.message : String(err)}`));
      }
      if (exceedsBytes(data, LIMITS.maxFrameBytes)) {
        return Promise.reject(new RequestError('too_large', `The request is larger than ${LIMITS.maxFrameBytes} bytes`));
      }
      return new Promise((resolve, reject) => {
        const timer = globalThis.setTimeout(() => {
          if (pending.delete(id)) reject(new RequestError('timeout', `No result for ${type} after ${options.timeoutMs} ms`));
        }, options.timeoutMs);
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
        if (!send(data)) {
          pending.delete(id);
          globalThis.clearTimeout(timer);
          reject(new RequestError('disconnected', 'The request could not be sent'));
        }
      });
    },
    settle(frame) {
      const p = pending.get(frame.id);
      if (!p) return; // timed out already, or from before a reconnect
      pending.delete(frame.id);
      globalThis.clearTimeout(p.timer);
      if (frame.ok) p.resolve(frame.value);
      else p.reject(new RequestError(frame.error.code, frame.error.message, frame.error.path));
    },
    rejectAll(code, message) {
      for (const [id, p] of pending) {
        pending.delete(id);
        globalThis.clearTimeout(p.timer);
        p.reject(new RequestError(code, message));
      }
    },
  };
}

const NON_ASCII = /[^\x00-\x7f]/;

/** UTF-8 size check without encoding the whole string when the answer is obvious. */
function exceedsBytes(s: string, max: number): boolean {
  if (s.length * 3 <= max) return false;
  if (s.length > max) return true;
  // A frame with an attachment is megabytes of base64: a native scan finds it all ASCII in a few
  // milliseconds, where the loop below held the page for tens of them.
  if (!NON_ASCII.test(s)) return false;
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > max) return true;
  }
  return false;
}
