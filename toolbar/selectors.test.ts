import { describe, expect, it } from 'vitest';
import { defaultAgent } from '../shared/default-agent.ts';
import type { Message } from '../shared/schemas.ts';
import type { SyncStatus, SyncView } from '../shared/sync-client.ts';
import {
  CONNECTION_LABELS,
  countAwaitingApproval,
  createMessageIdsSelector,
  selectChatsSorted,
  selectComposerAgent,
  selectMessages,
  selectQueueHint,
  selectRunInActiveChat,
  isConnectionBlocker,
  REFUSED_MESSAGE,
  selectComposerBlocker,
  selectSendBlocker,
  selectShownStatus,
  selectCardless,
  selectToolAnswer,
  selectToolResult,
} from './selectors.ts';
import { INITIAL_UI_STATE, type ToolbarState } from './store.ts';
import { makeState } from './test-fixtures.ts';

function ui(sync: Partial<SyncView>, rest: Partial<ToolbarState> = {}): ToolbarState {
  return {
    sync: { status: 'connected', state: makeState(), rev: 1, session: 's', error: null, attempt: 0, ...sync },
    open: true,
    width: 380,
    height: 560,
    theme: 'system',
    ...INITIAL_UI_STATE,
    ...rest,
  };
}

describe('connection labels', () => {
  it('says connecting before the first connection and shows closed as offline', () => {
    expect(['connecting', 'connected', 'reconnecting', 'offline', 'closed'].map((s) => CONNECTION_LABELS[s as SyncStatus])).toEqual([
      'Connecting…',
      'Connected',
      'Reconnecting…',
      'Offline',
      'Offline',
    ]);
  });
});

describe('agents', () => {
  it("defaults to the chat's agent, else the first implemented one", () => {
    const state = makeState();
    expect(defaultAgent(state, 'c1')).toBe('wisp/coder');
    expect(defaultAgent(state, 'c2')).toBe('wisp/concierge');
    expect(defaultAgent(state, null)).toBe('wisp/concierge');
  });

  it("ignores a chat agent that is no longer implemented", () => {
    const state = makeState();
    state.chats.c1!.agent = 'wisp/future';
    expect(defaultAgent(state, 'c1')).toBe('wisp/concierge');
  });

  it('uses the choice made for this chat only', () => {
    expect(selectComposerAgent(ui({}, { agentChoice: { chatId: 'c1', agent: 'wisp/concierge' } }))).toBe('wisp/concierge');
    expect(selectComposerAgent(ui({}, { agentChoice: { chatId: 'c2', agent: 'wisp/concierge' } }))).toBe('wisp/coder');
    expect(selectComposerAgent(ui({}, { agentChoice: { chatId: 'c1', agent: 'wisp/future' } }))).toBe('wisp/coder');
  });
});

describe('selectShownStatus', () => {
  it('shows connected only once the state is there', () => {
    expect(selectShownStatus(ui({ status: 'connected', state: null }))).toBe('connecting');
    expect(selectShownStatus(ui({ status: 'connected' }))).toBe('connected');
    expect(selectShownStatus(ui({ status: 'offline' }))).toBe('offline');
  });
});

describe('selectSendBlocker', () => {
  it('says why a message cannot be sent', () => {
    expect(selectSendBlocker(ui({}))).toBeNull();
    expect(selectSendBlocker(ui({ status: 'reconnecting' }))).toMatch(/Connecting/);
    expect(selectSendBlocker(ui({ status: 'offline' }))).toMatch(/Offline/);
    expect(selectSendBlocker(ui({ status: 'closed' }))).toMatch(/Disconnected/);
    const state = makeState({ agents: [{ id: 'x', description: '', implemented: false, tools: [], workflows: [] }] });
    expect(selectSendBlocker(ui({ state }))).toMatch(/No implemented agent/);
  });

  it("holds the composer's message while its files are prepared, not a retry of another", () => {
    expect(selectComposerBlocker(ui({}, { attachmentsInProgress: 1 }))).toBe('Preparing the attachments…');
    expect(selectSendBlocker(ui({}, { attachmentsInProgress: 1 }))).toBeNull();
    expect(selectComposerBlocker(ui({ status: 'offline' }, { attachmentsInProgress: 1 }))).toMatch(/Offline/);
  });
});

describe('refusal messages', () => {
  const refused = (pageOrigin: string | null) => selectSendBlocker(ui({ status: 'offline' }, { serverRefused: true, pageOrigin }));

  it('names --allow-origin with the page origin the server does not accept by default', () => {
    expect(refused('https://localhost:5173')).toBe(
      'The agent server is running but refused this page: it accepts pages from https://localhost:5173 only when started with --allow-origin https://localhost:5173. If it was, this page\'s token is from an earlier start: reload the page.',
    );
    expect(refused('http://app.test:3000')).toMatch(/--allow-origin http:\/\/app\.test:3000\./);
  });

  it('points at the token for a page served from localhost over http, and at http for a file', () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000', null]) expect(refused(origin)).toBe(REFUSED_MESSAGE);
    expect(refused('null')).toMatch(/a page opened from a file .* Serve the page over http from localhost\.$/);
  });

  it('counts every refusal as a connection blocker, so it clears once connected', () => {
    expect(isConnectionBlocker(refused('https://localhost:5173')!)).toBe(true);
    expect(isConnectionBlocker(REFUSED_MESSAGE)).toBe(true);
    expect(isConnectionBlocker('Offline: waiting for the agent server')).toBe(true);
    expect(isConnectionBlocker('The agent is already working; wait or press Stop')).toBe(false);
  });
});

describe('chat views', () => {
  it('lists chats most recently updated first, recomputing only when chats change', () => {
    const s = ui({});
    const first = selectChatsSorted(s);
    expect(first.map((c) => c.title)).toEqual(['Second', 'First']);
    expect(selectChatsSorted(ui({ state: { ...s.sync.state!, run: null } }))).toBe(first);
  });

  it('shows messages only of the active chat', () => {
    expect(selectMessages(ui({})).map((m) => m.id)).toEqual(['m1', 'm2']);
    const state = makeState({ activeChatId: null, active: null });
    expect(selectMessages(ui({ state }))).toEqual([]);
  });

  it('shows Stop only for a run in the active chat', () => {
    const run = { chatId: 'c1', agent: 'wisp/coder', messageId: null, startedAt: 1 };
    expect(selectRunInActiveChat(ui({ state: makeState({ run }) }))).toBe(true);
    expect(selectRunInActiveChat(ui({ state: makeState({ run: { ...run, chatId: 'c2' } }) }))).toBe(false);
    expect(selectRunInActiveChat(ui({}))).toBe(false);
  });

  it('counts tool calls awaiting approval', () => {
    const state = makeState();
    state.active!.messages.push({
      id: 'm3',
      role: 'assistant',
      agent: 'wisp/coder',
      status: 'streaming',
      createdAt: 3,
      content: [
        { type: 'tool-call', toolCallId: 't1', toolName: 'x', input: {}, runtime: 'cli', requiresApproval: true, state: 'awaiting-approval' },
        { type: 'tool-call', toolCallId: 't2', toolName: 'y', input: {}, runtime: 'cli', requiresApproval: false, state: 'done' },
      ],
    });
    expect(countAwaitingApproval(state.active!.messages)).toBe(1);
  });

  it('says a waiting message goes only after the tool call the reply waits on is answered', () => {
    const run = { chatId: 'c1', agent: 'wisp/coder', messageId: 'm3', startedAt: 1 };
    const asking = (state: 'awaiting-approval' | 'running') =>
      makeState({
        run,
        active: {
          chatId: 'c1',
          messages: [{ id: 'm3', role: 'assistant', agent: 'wisp/coder', status: 'streaming', createdAt: 3, content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'x', input: {}, runtime: 'cli', requiresApproval: true, state }] }],
        },
      });
    const queued = { chatId: 'c1', draft: 'use the other file', attachments: [], agent: null, clientMessageId: 'cm_1' };
    expect(selectQueueHint(ui({ state: asking('awaiting-approval') }, { queued }))).toBe('The reply waits for your answer to the tool call; your message goes after it');
    expect(selectQueueHint(ui({ state: asking('running') }, { queued }))).toBeNull();
    expect(selectQueueHint(ui({ state: asking('awaiting-approval') }))).toBeNull();
  });
});

describe('tool calls', () => {
  const call = (toolCallId: string) => ({ type: 'tool-call' as const, toolCallId, toolName: 'read', input: {}, runtime: 'toolbar' as const, requiresApproval: true, state: 'done' as const });
  const result = (toolCallId: string) => ({ type: 'tool-result' as const, toolCallId, toolName: 'read', output: { ok: toolCallId } });
  const answer = { type: 'tool-approval-response' as const, toolCallId: 't1', approved: false, reason: 'not now' };
  const results = [result('t2'), result('t9')];
  const messages: Message[] = [
    { id: 'a1', role: 'assistant', agent: 'wisp/coder', status: 'done', createdAt: 1, content: [call('t1'), call('t2'), call('t3'), result('t3')] },
    { id: 'u1', role: 'user', content: [answer], metadata: { source: 'toolbar', selectedElements: [] }, createdAt: 2 },
    { id: 't', role: 'tool', content: results, createdAt: 3 },
  ];
  const state = ui({ state: makeState({ active: { chatId: 'c1', messages } }) });

  it("finds a call's result and answer wherever they are stored, by the call's id", () => {
    expect(selectToolResult(state, 't2')).toBe(results[0]);
    expect(selectToolResult(state, 't3')?.output).toEqual({ ok: 't3' });
    expect(selectToolResult(state, 't1')).toBeUndefined();
    expect(selectToolAnswer(state, 't1')).toBe(answer);
    expect(selectToolAnswer(state, 't2')).toBeUndefined();
  });

  it('leaves to be drawn on their own only the parts whose call is not in the chat', () => {
    expect(selectCardless(state, results).map((p) => p.toolCallId)).toEqual(['t9']);
    expect(selectCardless(state, [answer])).toEqual([]);
  });
});

describe('message ids', () => {
  const withMessages = (messages: Message[]) => ui({ state: makeState({ active: { chatId: 'c1', messages } }) });
  const base = makeState().active!.messages;
  const streamed = (text: string): Message => ({ id: 'm3', role: 'assistant', agent: 'wisp/coder', status: 'streaming', createdAt: 3, content: [{ type: 'text', text }] });

  it('stays the same array while only message contents change (a streamed delta)', () => {
    const selectIds = createMessageIdsSelector();
    const first = selectIds(withMessages([...base, streamed('Hel')]));
    expect(first).toEqual(['m1', 'm2', 'm3']);
    expect(selectIds(withMessages([...base, streamed('Hello')]))).toBe(first);
  });

  it('changes when a message comes, goes or is replaced by another', () => {
    const selectIds = createMessageIdsSelector();
    const two = selectIds(withMessages(base));
    const three = selectIds(withMessages([...base, streamed('a')]));
    expect(three).not.toBe(two);
    expect(three).toEqual(['m1', 'm2', 'm3']);
    expect(selectIds(withMessages(base))).toEqual(['m1', 'm2']);
    expect(selectIds(withMessages([base[0]!, { ...base[1]!, id: 'm9' }]))).toEqual(['m1', 'm9']);
    expect(selectIds(ui({ state: makeState({ activeChatId: null, active: null }) }))).toEqual([]);
  });
});
