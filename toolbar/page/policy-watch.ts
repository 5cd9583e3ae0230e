/**
 * Tells "the page forbids the connection" from "the server is down". A page whose
 * Content-Security-Policy leaves the agent server out of `connect-src` makes every WebSocket fail
 * the way a dead server does; the only trace is a `securitypolicyviolation` event (and a line in the
 * page's console). The policy holds until the page reloads, so retrying would only repeat that
 * console line, token included, every few seconds.
 */
import type { ToolbarStore } from '../store.ts';

/** The fields of a `SecurityPolicyViolationEvent` this watch reads. */
export type PolicyViolation = Pick<SecurityPolicyViolationEvent, 'blockedURI' | 'effectiveDirective' | 'disposition'>;

/**
 * The origin to name in the message when `violation` refused the connection to `socketUrl`, else
 * null. Only the socket counts: a blocked `/health` probe or grammar script does not stop the toolbar.
 *
 * @example findBlockedSocketOrigin({ blockedURI: 'ws://127.0.0.1:4477/ws?token=…', effectiveDirective: 'connect-src', disposition: 'enforce' }, 'ws://127.0.0.1:4477/ws') // 'ws://127.0.0.1:4477'
 */
export function findBlockedSocketOrigin(violation: PolicyViolation, socketUrl: string): string | null {
  if (violation.disposition !== 'enforce' || violation.effectiveDirective !== 'connect-src') return null;
  let blocked: URL;
  let socket: URL;
  try {
    blocked = new URL(violation.blockedURI);
    socket = new URL(socketUrl);
  } catch {
    return null; // "inline", "eval" and the like name no address
  }
  if (blocked.protocol !== socket.protocol || blocked.host !== socket.host) return null;
  return `${socket.protocol}//${socket.host}`;
}

/**
 * Sets `blockedByPagePolicy` in the store and calls `stop` (the sync client's close) the first time
 * the page's policy refuses the toolbar's socket. Bind it before the client starts.
 *
 * @example const unbind = bindPolicyWatch(document, store, 'ws://127.0.0.1:4477/ws', () => client.close());
 */
export function bindPolicyWatch(doc: Pick<Document, 'addEventListener' | 'removeEventListener'>, store: ToolbarStore, socketUrl: string, stop: () => void): () => void {
  const onViolation = (event: Event) => {
    const origin = findBlockedSocketOrigin(event as SecurityPolicyViolationEvent, socketUrl);
    if (!origin || store.getState().blockedByPagePolicy) return;
    store.setState({ blockedByPagePolicy: origin });
    stop();
  };
  doc.addEventListener('securitypolicyviolation', onViolation);
  return () => doc.removeEventListener('securitypolicyviolation', onViolation);
}
