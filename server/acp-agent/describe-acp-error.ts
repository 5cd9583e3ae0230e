/**
 * An ACP agent's error as the user reads it. Agents built on ACP's TypeScript SDK answer any plain
 * `throw new Error(…)` with JSON-RPC's bare "Internal error" and put the real reason in
 * `data.details` (Claude Code's adapter says "Internal error" alone when Claude Code cannot
 * start): the reason is the part worth reading, so it comes with the message.
 */
import { truncateLine } from '../../shared/truncate.ts';
import { describeError } from '../sync/describe-error.ts';

/** Longest detail kept: enough for an error line, not a stack trace or a dump of the request. */
const MAX_DETAIL = 300;

/**
 * The error's message, with the detail its JSON-RPC `data` carries (a string, `data.details`,
 * `data.message`, or else the data itself as compact JSON), on one line.
 *
 * @example
 * describeAcpError(new RequestError(-32603, 'Internal error', { details: 'Query closed before response received' }))
 * // 'Internal error: Query closed before response received'
 */
export function describeAcpError(error: unknown): string {
  const message = describeError(error);
  const detail = readDetail(typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined);
  if (!detail || message.includes(detail)) return message;
  return `${message}: ${detail}`;
}

function readDetail(data: unknown): string | undefined {
  if (data === undefined || data === null) return undefined;
  let text: string | undefined;
  if (typeof data === 'string') text = data;
  else if (typeof data === 'object') {
    const { details, message } = data as { details?: unknown; message?: unknown };
    if (typeof details === 'string') text = details;
    else if (typeof message === 'string') text = message;
    else if (Object.keys(data).length > 0) text = stringify(data);
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
