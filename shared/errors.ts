import * as v from 'valibot';
import type { ErrorCode, ErrorInfo } from './schemas.ts';

/** valibot issue types that mean "over a size limit": the protocol reports those as `too_large`. */
const SIZE_ISSUES = new Set(['max_length', 'max_size', 'max_entries', 'max_bytes', 'max_graphemes', 'max_words']);

/**
 * Turns valibot issues into the protocol's error: `too_large` when a limit was exceeded,
 * else `invalid_message`, with the dot path valibot reports (e.g. `content.0.text`).
 *
 * @example
 * const r = v.safeParse(MessageSendSchema, frame);
 * if (!r.success) reply(describeIssues(r.issues));
 */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): ErrorInfo {
  const sized = issues.find((i) => SIZE_ISSUES.has(i.type) || /^At most /.test(i.message));
  const issue = sized ?? issues[0];
  const code: ErrorCode = sized ? 'too_large' : 'invalid_message';
  if (!issue) return { code, message: 'Invalid message' };
  const path = v.getDotPath(issue) ?? undefined;
  const message = path ? `${path}: ${issue.message}` : issue.message;
  return path ? { code, message, path } : { code, message };
}

/** An error with a protocol code, thrown inside request handlers and turned into a `result`. */
export class ProtocolError extends Error {
  readonly code: ErrorCode;
  readonly path: string | undefined;
  constructor(code: ErrorCode, message: string, path?: string) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    this.path = path;
  }
  toInfo(): ErrorInfo {
    return this.path ? { code: this.code, message: this.message, path: this.path } : { code: this.code, message: this.message };
  }
}
