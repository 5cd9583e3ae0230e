/**
 * An ACP agent's error as the user reads it. Agents built on ACP's TypeScript SDK answer any plain
 * `throw new Error(…)` with JSON-RPC's bare "Internal error" and put the real reason in
 * `data.details` (Codex puts it in `data.message`): the reason is the part worth reading, so it
 * leads. A provider's JSON error in any of it reads as its message and status.
 */
import { truncateLine } from '../../shared/truncate.ts';
import { describeError } from '../sync/describe-error.ts';
import { describeErrorValue, describeJsonErrors } from './read-json-error.ts';

/** Longest detail kept: enough for an error line, not a stack trace or a dump of the request. */
const MAX_DETAIL = 300;

/** JSON-RPC's message for any error an agent did not name: it says nothing its data does not. */
const BARE_INTERNAL_ERROR = /^internal error\.?$/i;
/** "Internal error: <reason>", as Claude Code's adapter words a failure: the reason is the message. */
const INTERNAL_ERROR_PREFIX = /^internal error:\s+(?=\S)/i;

/**
 * The error's message, with the detail its JSON-RPC `data` carries (a string, `data.details`,
 * `data.message`, a JSON error, or else the data itself as compact JSON), on one line; the
 * detail alone under a bare "Internal error".
 *
 * @example
 * describeAcpError(new RequestError(-32603, 'Internal error', { details: 'Query closed before response received' }))
 * // 'Query closed before response received'
 */
export function describeAcpError(error: unknown): string {
  const message = describeJsonErrors(describeError(error)).replace(INTERNAL_ERROR_PREFIX, '');
  const detail = readDetail(typeof error === 'object' && error !== null && 'data' in error ? error.data : undefined);
  if (!detail) return message;
  if (BARE_INTERNAL_ERROR.test(message.trim())) return detail;
  if (message.includes(detail)) return message;
  return `${message}: ${detail}`;
}

function readDetail(data: unknown): string | undefined {
  if (data === undefined || data === null) return undefined;
  let text: string | undefined;
  if (typeof data === 'string') text = describeJsonErrors(data);
  else if (typeof data === 'object') {
    if ('details' in data && typeof data.details === 'string') text = describeJsonErrors(data.details);
    else text = describeErrorValue(data) ?? (Object.keys(data).length > 0 ? stringify(data) : undefined);
  }
  const line = text === undefined ? '' : truncateLine(text, MAX_DETAIL);
  return line || undefined;
}

function stringify(data: object): string | undefined {
  try {
    return JSON.stringify(data);
  } catch {
    return undefined;
  }
}
