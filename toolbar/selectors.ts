/**
 * Derived views of the store, pure and cheap: components select with these so a streaming patch
 * only re-renders what depends on the part that changed.
 */
import type { AgentCommand, AgentInfo, AgentMode, AgentSetting, ChatInfo, ContextUsage, Message, State, ToolApprovalResponsePart, ToolResultPart } from '../shared/schemas.ts';
import { findCurrentMode } from '../shared/agent-mode.ts';
import { findSettingValue } from '../shared/agent-setting.ts';
import { defaultAgent } from '../shared/default-agent.ts';
import { isLoopbackHttpOrigin } from '../shared/origins.ts';
import { describeVersions, findShownPath, hasBranches, readTree, type VersionInfo } from '../shared/versions.ts';
import type { SyncStatus } from '../shared/sync-client.ts';
import type { PickedElement, ToolbarState } from './store.ts';

const NO_MESSAGES: readonly Message[] = Object.freeze([]);
const NO_AGENTS: readonly AgentInfo[] = Object.freeze([]);

export type ConnectionKind = 'connected' | 'reconnecting' | 'offline';

/**
 * The picks the page tools read: those in the box, else those of the last message that went with
 * any, so an agent answering that message still finds what it was sent.
 *
 * @example selectToolPicks(store.getState()).map((p) => p.info.tagName) // ['button', 'td']
 */
export function selectToolPicks(s: ToolbarState): readonly PickedElement[] {
  return s.picked.length ? s.picked : s.sentPicks;
}

/** The three looks of the header's dot; `connecting` looks like reconnecting, `closed` like offline. */
export function connectionKind(status: SyncStatus): ConnectionKind {
  if (status === 'connected') return 'connected';
  if (status === 'connecting' || status === 'reconnecting') return 'reconnecting';
  return 'offline';
}

/**
 * The status the toolbar shows: "connected" only once the chats are there. The server welcomes a
 * client before its snapshot, and a large one takes a moment in which the panel is still empty.
 */
export function selectShownStatus(s: ToolbarState): SyncStatus {
  return s.sync.status === 'connected' && s.sync.state === null ? 'connecting' : s.sync.status;
}

/** The accessible text of the connection indicator: a page that never connected is not reconnecting. */
export const CONNECTION_LABELS: Record<SyncStatus, string> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
  closed: 'Offline',
};

export function selectState(s: ToolbarState): State | null {
  return s.sync.state;
}

export function selectActiveChatId(s: ToolbarState): string | null {
  return s.sync.state?.activeChatId ?? null;
}

/** The active chat's messages; the same array as long as no message changed. */
export function selectMessages(s: ToolbarState): readonly Message[] {
  const state = s.sync.state;
  if (!state?.active || state.active.chatId !== state.activeChatId) return NO_MESSAGES;
  return state.active.messages;
}

/**
 * A selector of the active chat's message ids that returns the same array while only message
 * contents change (every streamed delta), so the list re-renders when messages come, go or move,
 * and a streaming message re-renders alone. One per component (it remembers the last ids).
 *
 * @example
 * const selectIds = createMessageIdsSelector();
 * selectIds(state) === selectIds(stateAfterADelta); // true
 */
export function createMessageIdsSelector(): (s: ToolbarState) => readonly string[] {
  let lastMessages: readonly Message[] = NO_MESSAGES;
  let lastIds: readonly string[] = Object.freeze([]);
  return (s) => {
    const messages = selectMessages(s);
    if (messages === lastMessages) return lastIds;
    const previous = lastMessages;
    lastMessages = messages;
    // Structural sharing keeps unchanged messages identical: only a replaced one needs its id read.
    let same = messages.length === lastIds.length;
    for (let i = messages.length - 1; same && i >= 0; i--) {
      const m = messages[i]!;
      if (m !== previous[i]) same = m.id === lastIds[i];
    }
    if (!same) lastIds = messages.map((m) => m.id);
    return lastIds;
  };
}

/** What the chat holds about its tool calls, by toolCallId: the calls, their results and the developer's answers. */
interface ToolCallIndex {
  calls: ReadonlySet<string>;
  results: ReadonlyMap<string, ToolResultPart>;
  answers: ReadonlyMap<string, ToolApprovalResponsePart>;
}

const toolCallIndexes = new WeakMap<readonly Message[], ToolCallIndex>();

/**
 * The index of a message list's tool calls, made once per list (a streamed delta makes a new list,
 * typing in the box does not). A result lives in a `tool` message or in its call's own message, an
 * answer in a user message: the index lets a call's card show both without the list moving them.
 */
function indexToolCalls(messages: readonly Message[]): ToolCallIndex {
  let index = toolCallIndexes.get(messages);
  if (index) return index;
  const calls = new Set<string>();
  const results = new Map<string, ToolResultPart>();
  const answers = new Map<string, ToolApprovalResponsePart>();
  for (const m of messages) {
    for (const p of m.content) {
      if (p.type === 'tool-call') calls.add(p.toolCallId);
      else if (p.type === 'tool-result') results.set(p.toolCallId, p);
      else if (p.type === 'tool-approval-response') answers.set(p.toolCallId, p);
    }
  }
  index = { calls, results, answers };
  toolCallIndexes.set(messages, index);
  return index;
}

/**
 * A tool call's result in the active chat, wherever its message is; undefined until it has one.
 *
 * @example selectToolResult(state, 'tc1')?.output // { hits: […] }
 */
export function selectToolResult(s: ToolbarState, toolCallId: string): ToolResultPart | undefined {
  return indexToolCalls(selectMessages(s)).results.get(toolCallId);
}

/**
 * The developer's answer to a tool call's approval in the active chat; undefined before one.
 *
 * @example selectToolAnswer(state, 'tc1') // { type: 'tool-approval-response', toolCallId: 'tc1', approved: true }
 */
export function selectToolAnswer(s: ToolbarState, toolCallId: string): ToolApprovalResponsePart | undefined {
  return indexToolCalls(selectMessages(s)).answers.get(toolCallId);
}

/**
 * The results or answers whose call is not in the active chat, so no card shows them (an imported
 * history, a chat cut short): they are drawn on their own. Compare with `shallowEqual`.
 *
 * @example selectCardless(state, toolMessage.content) // [] when every call is in the chat
 */
export function selectCardless<P extends { toolCallId: string }>(s: ToolbarState, parts: readonly P[]): P[] {
  const { calls } = indexToolCalls(selectMessages(s));
  return parts.filter((p) => !calls.has(p.toolCallId));
}

export function selectAgents(s: ToolbarState): readonly AgentInfo[] {
  return s.sync.state?.agents ?? NO_AGENTS;
}

/** True while a run works in the active chat: the Stop button shows. */
export function selectRunInActiveChat(s: ToolbarState): boolean {
  const state = s.sync.state;
  return !!state?.run && state.run.chatId === state.activeChatId;
}

let sortedFor: State['chats'] | null = null;
let sortedChats: ChatInfo[] = [];

/** Chats, most recently updated first; recomputed only when the chats object changes. */
export function selectChatsSorted(s: ToolbarState): readonly ChatInfo[] {
  const chats = s.sync.state?.chats;
  if (!chats) return [];
  if (chats !== sortedFor) {
    sortedFor = chats;
    sortedChats = Object.values(chats).sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
  }
  return sortedChats;
}

/** The agent selected in the composer: the developer's choice for this chat if still usable, else the default. */
export function selectComposerAgent(s: ToolbarState): string | null {
  const state = s.sync.state;
  const chatId = state?.activeChatId ?? null;
  const choice = s.agentChoice;
  if (choice && choice.chatId === chatId && state?.agents.some((a) => a.id === choice.agent && a.implemented)) {
    return choice.agent;
  }
  return defaultAgent(state, chatId);
}

/** What the server says about the composer's agent; undefined before the state or without an agent. */
function findComposerAgentInfo(s: ToolbarState): AgentInfo | undefined {
  const agent = selectComposerAgent(s);
  return agent ? s.sync.state?.agents.find((a) => a.id === agent) : undefined;
}

/** The commands the composer's agent takes as `/name` messages (offered as the user types `/`). */
export function selectComposerCommands(s: ToolbarState): readonly AgentCommand[] | undefined {
  return findComposerAgentInfo(s)?.commands;
}

/** The modes the composer's agent offers (shown as a choice beside it when there are any). */
export function selectComposerModes(s: ToolbarState): readonly AgentMode[] | undefined {
  return findComposerAgentInfo(s)?.modes;
}

/** The composer agent's mode in the active chat: the chat's choice, else the agent's first. */
export function selectComposerMode(s: ToolbarState): string | undefined {
  const agent = selectComposerAgent(s);
  const state = s.sync.state;
  return agent && state ? findCurrentMode(state, state.activeChatId, agent) : undefined;
}

/** The settings the composer's agent offers (its model, reasoning level…), each shown as a menu beside it. */
export function selectComposerSettings(s: ToolbarState): readonly AgentSetting[] | undefined {
  return findComposerAgentInfo(s)?.settings;
}

/**
 * The composer agent's value of one setting in the active chat: the chat's choice, else the
 * setting's default. A string, so a streamed delta re-renders no menu.
 */
export function selectComposerSettingValue(s: ToolbarState, setting: AgentSetting): string {
  const agent = selectComposerAgent(s);
  const state = s.sync.state;
  return agent && state ? findSettingValue(state, state.activeChatId, agent, setting) : setting.defaultValue;
}

/**
 * How full the composer agent's context is in the active chat, as the agent last said; undefined
 * until it says. The record the state holds, so a streamed delta re-renders nothing.
 */
export function selectComposerUsage(s: ToolbarState): ContextUsage | undefined {
  const agent = selectComposerAgent(s);
  const state = s.sync.state;
  const chatId = state?.activeChatId;
  return agent && chatId ? state.chats[chatId]?.usage?.[agent] : undefined;
}

/** The composer agent's active skill, shown in the header; null when it has none. */
export function selectActiveSkill(s: ToolbarState): { agent: string; skill: string } | null {
  const info = findComposerAgentInfo(s);
  return info?.activeSkill ? { agent: info.id, skill: info.activeSkill } : null;
}

const REFUSED = 'The agent server is running but refused this page';

/** Offline, and the server answers: it refused this toolbar. */
export const REFUSED_MESSAGE = `${REFUSED}: its token is wrong or from an earlier start (each start makes a new one), or this page's origin is not allowed. Reload the page to get the current token; the server's log says which.`;

/**
 * Why the server refused this page, as far as the page can tell: a page the server does not accept
 * by default names the option that admits it, since its token is then rarely the reason.
 *
 * @example describeRefusedPage('https://localhost:5173') // "… start the server with --allow-origin https://localhost:5173 …"
 */
export function describeRefusedPage(pageOrigin: string | null): string {
  if (pageOrigin === 'null') return `${REFUSED}: a page opened from a file (or in a sandboxed frame) has no origin it can accept. Serve the page over http from localhost.`;
  if (!pageOrigin || isLoopbackHttpOrigin(pageOrigin)) return REFUSED_MESSAGE;
  return `${REFUSED}: it accepts pages from ${pageOrigin} only when started with --allow-origin ${pageOrigin}. If it was, this page's token is from an earlier start: reload the page.`;
}

/**
 * What to tell a user whose page forbids the connection: nothing on the server's side can help,
 * and the browser only says it in the page's console.
 *
 * @example describePolicyBlock('ws://127.0.0.1:4477') // "This page's Content-Security-Policy blocks …"
 */
export function describePolicyBlock(origin: string): string {
  return `This page's Content-Security-Policy blocks the connection to the agent server: add ${origin} to its connect-src directive, then reload the page.`;
}

/** Why the toolbar cannot connect when the user can do something about it (an error, not a wait), else null. */
export function selectConnectionProblem(s: ToolbarState): string | null {
  if (connectionKind(s.sync.status) === 'connected') return null;
  if (s.blockedByPagePolicy) return describePolicyBlock(s.blockedByPagePolicy);
  return s.serverRefused && s.sync.status === 'offline' ? describeRefusedPage(s.pageOrigin) : null;
}

const CONNECTION_BLOCKERS: ReadonlySet<string> = new Set([
  'Disconnected from the agent server',
  'Offline: waiting for the agent server',
  'Connecting to the agent server…',
]);

/** Whether `message` is what the composer says while the connection is down (stale once it is back). */
export function isConnectionBlocker(message: string): boolean {
  return CONNECTION_BLOCKERS.has(message) || message.startsWith(REFUSED);
}

/** Why sending is impossible right now, or null when it is possible. */
export function selectSendBlocker(s: ToolbarState): string | null {
  const problem = selectConnectionProblem(s);
  if (problem) return problem;
  const kind = connectionKind(s.sync.status);
  if (kind === 'offline') return s.sync.status === 'closed' ? 'Disconnected from the agent server' : 'Offline: waiting for the agent server';
  if (kind === 'reconnecting' || !s.sync.state) return 'Connecting to the agent server…';
  if (!selectComposerAgent(s)) return 'No implemented agent is available';
  return null;
}

/** Why the composer's message cannot be sent right now: as above, or its files are still being prepared. */
export function selectComposerBlocker(s: ToolbarState): string | null {
  return selectSendBlocker(s) ?? (s.attachmentsInProgress > 0 ? 'Preparing the attachments…' : null);
}

/**
 * What the composer says under a waiting message whose reply itself waits on the developer: a tool
 * call to approve in this chat. Without it, a message typed instead of answering waits for ever.
 */
export function selectQueueHint(s: ToolbarState): string | null {
  if (!s.queued || !selectRunInActiveChat(s) || countAwaitingApproval(selectMessages(s)) === 0) return null;
  return 'The reply waits for your answer to the tool call; your message goes after it';
}

/** The active chat's shown branch (shared/versions.ts): what the message list renders. */
export interface ShownBranch {
  /** The shown messages' ids, in order. */
  ids: readonly string[];
  /** Each shown message's index in the chat's messages (`ids[i]` is at `at[i]`). */
  at: readonly number[];
  /** The versions of each shown message that has others (its ‹ n/m ›). */
  versions: ReadonlyMap<string, VersionInfo>;
}

const NO_VERSIONS: ReadonlyMap<string, VersionInfo> = new Map();

/**
 * A selector of the active chat's shown branch that returns the same object while only message
 * contents change: a message's place in the tree is fixed when it is added, so only new ids or
 * another head can change the branch. A chat that never branched costs one scan per new message.
 *
 * @example
 * const selectShown = createShownBranchSelector();
 * selectShown(state).ids // ['msg_q', 'msg_a2']
 */
export function createShownBranchSelector(): (s: ToolbarState) => ShownBranch {
  const selectIds = createMessageIdsSelector();
  let last: { ids: readonly string[]; head: string | undefined; shown: ShownBranch } | null = null;
  return (s) => {
    const ids = selectIds(s);
    const chatId = s.sync.state?.activeChatId;
    const head = chatId ? s.sync.state?.chats[chatId]?.head : undefined;
    if (last && last.ids === ids && last.head === head) return last.shown;
    const messages = selectMessages(s);
    let shown: ShownBranch;
    if (!head && !hasBranches(messages)) shown = { ids, at: ids.map((_, i) => i), versions: NO_VERSIONS };
    else {
      const tree = readTree(messages);
      const at = findShownPath(messages, head, tree);
      shown = { ids: at.map((i) => ids[i]!), at, versions: describeVersions(messages, tree, at) };
    }
    last = { ids, head, shown };
    return shown;
  };
}

/** The one shown-branch selector the panel's components share (a page has one store). */
export const selectShownBranch = createShownBranchSelector();

/** Tool calls waiting for the developer in the active chat (shown on the collapsed launcher). */
export function countAwaitingApproval(messages: readonly Message[]): number {
  let n = 0;
  // Only the tail can hold open calls: no call stays awaiting once its run ended.
  for (let i = messages.length - 1, seen = 0; i >= 0 && seen < 20; i--, seen++) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    for (const p of m.content) if (p.type === 'tool-call' && p.state === 'awaiting-approval') n++;
  }
  return n;
}
