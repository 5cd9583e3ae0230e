/** Shared builders for the toolbar's unit tests. */
import type { AgentInfo, Message, State } from '../shared/schemas.ts';

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
