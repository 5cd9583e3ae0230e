/** Shared builders for the toolbar's unit tests. */
import type { AgentInfo, Message, State } from '../shared/schemas.ts';
import type { SyncView } from '../shared/sync-client.ts';

export const AGENTS: AgentInfo[] = [
  { id: 'wisp/concierge', description: 'Helps', implemented: true, tools: [], workflows: [] },
  { id: 'wisp/coder', description: 'Writes code', implemented: true, tools: [], workflows: [] },
  { id: 'wisp/future', description: 'Not yet', implemented: false, tools: [], workflows: [] },
];

export function makeState(overrides: Partial<State> = {}): State {
  const messages: Message[] = [
    {
      id: 'm1',
      role: 'user',
      content: [{ type: 'text', text: 'Hi' }],
      metadata: { source: 'toolbar', selectedElements: [] },
      createdAt: 1,
    },
    { id: 'm2', role: 'assistant', agent: 'wisp/concierge', content: [{ type: 'text', text: 'Hello' }], status: 'done', createdAt: 2 },
  ];
  return {
    agents: AGENTS,
    chats: {
      c1: { id: 'c1', title: 'First', createdAt: 1, updatedAt: 10, messageCount: 2, agent: 'wisp/coder' },
      c2: { id: 'c2', title: 'Second', createdAt: 2, updatedAt: 20, messageCount: 0 },
    },
    activeChatId: 'c1',
    active: { chatId: 'c1', messages },
    run: null,
    ...overrides,
  };
}

/** The view of a client that has not connected yet. */
export const CONNECTING_VIEW: SyncView = { status: 'connecting', state: null, rev: 0, session: null, error: null, attempt: 0 };

/**
 * A stand-in for the sync client's read side: `publish` changes the view and notifies, as a
 * server patch would.
 */
export function fakeClient(initial: SyncView) {
  let view = initial;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => view,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(next: Partial<SyncView>) {
      view = { ...view, ...next };
      for (const l of listeners) l();
    },
    listenerCount: () => listeners.size,
  };
}
