import { describe, expect, it } from 'vitest';
import { describePolicyBlock, selectSendBlocker } from '../selectors.ts';
import { createToolbarStore } from '../store.ts';
import { CONNECTING_VIEW, fakeClient, makeState } from '../test-fixtures.ts';
import { findBlockedSocketOrigin, bindPolicyWatch, type PolicyViolation } from './policy-watch.ts';

const SOCKET = 'ws://127.0.0.1:4477/ws?token=secret';

function violation(blockedURI: string, rest: Partial<PolicyViolation> = {}): PolicyViolation {
  return { blockedURI, effectiveDirective: 'connect-src', disposition: 'enforce', ...rest };
}

/** A `securitypolicyviolation` event as the browser dispatches it on the document. */
function violationEvent(v: PolicyViolation): Event {
  return Object.assign(new Event('securitypolicyviolation'), v);
}

describe('findBlockedSocketOrigin', () => {
  it("names the server's origin when connect-src refused the toolbar's socket", () => {
    expect(findBlockedSocketOrigin(violation(SOCKET), SOCKET)).toBe('ws://127.0.0.1:4477');
    // Some browsers report only the origin of a cross-origin address.
    expect(findBlockedSocketOrigin(violation('wss://agent.example:9000'), 'wss://agent.example:9000/ws')).toBe('wss://agent.example:9000');
  });

  it('ignores what does not stop the toolbar: report-only policies, other directives, other addresses, the health probe', () => {
    expect(findBlockedSocketOrigin(violation(SOCKET, { disposition: 'report' }), SOCKET)).toBeNull();
    expect(findBlockedSocketOrigin(violation('http://127.0.0.1:4477/lang/rust.js', { effectiveDirective: 'script-src-elem' }), SOCKET)).toBeNull();
    expect(findBlockedSocketOrigin(violation('ws://127.0.0.1:5173/'), SOCKET)).toBeNull();
    expect(findBlockedSocketOrigin(violation('http://127.0.0.1:4477/health'), SOCKET)).toBeNull();
    expect(findBlockedSocketOrigin(violation('inline'), SOCKET)).toBeNull();
  });
});

describe('bindPolicyWatch', () => {
  it("stops the client once and tells the user what to add to the page's policy", () => {
    const client = fakeClient({ ...CONNECTING_VIEW, status: 'connecting' });
    const { store } = createToolbarStore({ client });
    const doc = new EventTarget() as unknown as Document;
    let stops = 0;
    const unbind = bindPolicyWatch(doc, store, SOCKET, () => {
      stops++;
      client.publish({ status: 'closed' });
    });
    doc.dispatchEvent(violationEvent(violation('http://127.0.0.1:4477/health')));
    expect(stops).toBe(0);
    doc.dispatchEvent(violationEvent(violation(SOCKET)));
    doc.dispatchEvent(violationEvent(violation(SOCKET)));
    expect(stops).toBe(1);
    expect(store.getState().blockedByPagePolicy).toBe('ws://127.0.0.1:4477');
    const message = describePolicyBlock('ws://127.0.0.1:4477');
    expect(message).toContain('add ws://127.0.0.1:4477 to its connect-src');
    expect(selectSendBlocker(store.getState())).toBe(message);
    unbind();
  });

  it('says nothing about the policy while connected, and stops listening when unbound', () => {
    const client = fakeClient({ ...CONNECTING_VIEW, status: 'connected', state: makeState() });
    const { store } = createToolbarStore({ client });
    const doc = new EventTarget() as unknown as Document;
    store.setState({ blockedByPagePolicy: 'ws://127.0.0.1:4477' });
    expect(selectSendBlocker(store.getState())).toBeNull();
    store.setState({ blockedByPagePolicy: null });
    let stops = 0;
    bindPolicyWatch(doc, store, SOCKET, () => stops++)();
    doc.dispatchEvent(violationEvent(violation(SOCKET)));
    expect(stops).toBe(0);
    expect(store.getState().blockedByPagePolicy).toBeNull();
  });
});
