/**
 * One task from the command line: find or create the named session, send the message, stream the
 * reply's text as it arrives, answer approvals through `approve`, and report how it ended.
 */
import { RequestError, type SyncClient } from '../../shared/sync-client.ts';
import type { AssistantMessage, ChatInfo, FilePart, ImagePart, Message, State, ToolCallPart } from '../../shared/schemas.ts';
import { formatThinkingTime } from '../../shared/format.ts';
import { describeReplyFile, saveReplyFile } from './terminal/save-reply-file.ts';
import { describeNotice } from './terminal/terminal-text.ts';
import { describeToolCall } from './terminal/describe-tool-call.ts';

/** A mistake or refusal the user must read; `exitCode` is what the command exits with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The message went out, but how its reply ended could not be followed here (the connection was lost, the chat deleted). */
export class ReplyLostError extends CliError {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyLostError';
  }
}

export interface TurnOutput {
  /** The reply's text, as it streams (stdout). */
  text(chunk: string): void;
  /** Everything else: tool calls, notes (stderr, so a script's stdout is the reply alone). */
  note(line: string): void;
  /** Tool calls, plans and thinking time (default: `note`); `--no-progress` drops them. */
  progress?(line: string): void;
}

/** The user's answer to an approval; `always` only where the call says `alwaysOffered`. */
export interface ApprovalReply {
  approved: boolean;
  reason?: string;
  always?: boolean;
  /** The agent's option chosen, where the call lists them (`approvalOptions`). */
  optionId?: string;
}

export type Approver = (call: ToolCallPart) => Promise<ApprovalReply>;

export interface TurnResult {
  status: AssistantMessage['status'] | 'done';
  /** The last reply message, null when the agent wrote nothing. */
  messageId: string | null;
  error: string | undefined;
  ms: number;
  /** Files of the reply that `saveFiles` could not write (each was noted with the reason). */
  unsaved: number;
}

function state(client: SyncClient): State {
  const s = client.getSnapshot().state;
  if (!s) throw new CliError('Not connected to the agent server');
  return s;
}

/** The server's own words for a refused request. */
export function reasonOf(error: unknown): string {
  return error instanceof RequestError || error instanceof Error ? error.message : String(error);
}

/** Chats whose title or id is `name`. */
export function findSessions(s: State, name: string): ChatInfo[] {
  return Object.values(s.chats).filter((c) => c.id === name || c.title === name);
}

/** One chat for `name`, or a CliError listing the candidates. */
export function findSession(s: State, name: string): ChatInfo | null {
  const found = findSessions(s, name);
  if (found.length > 1) {
    throw new CliError(`Session "${name}" is ambiguous; use one of these ids:\n${found.map((c) => `  ${c.id}  ${c.title}  (${c.messageCount} messages)`).join('\n')}`);
  }
  return found[0] ?? null;
}

/**
 * The chat called `name`, active: found, or created (with `fresh`, deleted first through the
 * normal request, which its agent may refuse).
 *
 * @example const chatId = await openSession(client, 'default', { fresh: false, agent: 'demo/guide' });
 */
export async function openSession(client: SyncClient, name: string, options: { fresh: boolean; agent: string }): Promise<string> {
  let chat = findSession(state(client), name);
  try {
    if (chat && options.fresh) {
      await client.request('chat.delete', { chatId: chat.id });
      chat = null;
    }
    if (!chat) return (await client.request('chat.create', { title: name, agent: options.agent })).chatId;
    if (state(client).activeChatId !== chat.id) await client.request('chat.switch', { chatId: chat.id });
    return chat.id;
  } catch (error) {
    const what = options.fresh && chat ? `Could not start session "${name}" afresh` : `Could not open session "${name}"`;
    throw new CliError(`${what}: ${reasonOf(error)}`);
  }
}

const PLAN_MARKS = { pending: '○', in_progress: '◐', completed: '✓' } as const;

/** An agent's plan on one line: `[plan 1/2: ✓ Read the page · ◐ Edit the file]`. */
function describePlan(plan: NonNullable<AssistantMessage['plan']>): string {
  const done = plan.filter((e) => e.status === 'completed').length;
  return `[plan ${done}/${plan.length}: ${plan.map((e) => `${PLAN_MARKS[e.status]} ${e.content}`).join(' · ')}]`;
}

export interface TurnOptions {
  chatId: string;
  agent: string;
  text: string;
  /** Images and files sent with the text. */
  attachments?: readonly (ImagePart | FilePart)[];
  approve: Approver;
  out: TurnOutput;
  /** A folder to write the reply's files to (images come as files); without one they are only noted. */
  saveFiles?: string;
  /** How to get a file when `saveFiles` is not set, appended to its note. */
  saveHint?: string;
  /**
   * Stops the reply (Ctrl+C): once the message is in, the server is asked to stop the run, and the
   * turn ends as the reply did (`stopped`). Aborted before anything was sent, nothing is sent.
   */
  signal?: AbortSignal;
  /** `--verbose`: tool calls are noted with their whole input as the agent sent it. */
  verbose?: boolean;
}

/**
 * Sends `text` to `agent` in `chatId` and follows the reply until the run ends: its text to
 * `out.text`; tool calls, plans, files (saved to `saveFiles` when given) and thinking to `out.note`.
 *
 * @example const result = await runTurn(client, { chatId, agent, text: 'help', approve, out });
 */
export async function runTurn(client: SyncClient, options: TurnOptions): Promise<TurnResult> {
  const { chatId, out, signal } = options;
  const started = Date.now();
  if (signal?.aborted) throw new CliError('Stopped before the message was sent');
  let userMessageId: string;
  try {
    ({ messageId: userMessageId } = await client.request('message.send', {
      chatId,
      agent: options.agent,
      content: [{ type: 'text', text: options.text }, ...(options.attachments ?? [])],
      metadata: { source: 'cli', selectedElements: [] },
    }));
  } catch (error) {
    throw new CliError(reasonOf(error));
  }
  const printed = new Map<string, number>();
  const toolStates = new Map<string, string>();
  /** File saves under way: the turn ends after them, so their notes come before the completion line. */
  const saves: Promise<void>[] = [];
  let unsaved = 0;
  let lastPlan = '';
  let lastMessage: string | null = null;
  /** Notes a file of the reply, and saves it when `saveFiles` says where. */
  const takeFile = (p: FilePart) => {
    const what = describeReplyFile(p);
    if (!options.saveFiles) {
      out.note(`[${what}${options.saveHint ? `: ${options.saveHint}` : ''}]`);
      return;
    }
    saves.push(
      saveReplyFile(options.saveFiles, p).then(
        (file) => out.note(`[${what}: saved to ${file}]`),
        (error: unknown) => {
          unsaved++;
          out.note(`[${what}: not saved: ${reasonOf(error)}]`);
        },
      ),
    );
  };
  /** Answers to approvals under way: the turn ends after them, or closing the client would cut them off. */
  const answers: Promise<void>[] = [];
  /**
   * Prints what is new in the chat's messages after the user's; returns the last reply message
   * (null when none yet), or undefined while the user's message is not there.
   */
  const follow = (messages: readonly Message[]): AssistantMessage | null | undefined => {
    const at = messages.findIndex((m) => m.id === userMessageId);
    if (at < 0) return undefined;
    let last: AssistantMessage | null = null;
    for (const m of messages.slice(at + 1)) {
      // An approval answer is recorded as a user message; the reply goes on after it.
      if (m.role === 'user' && !m.content.every((p) => p.type === 'tool-approval-response')) break;
      if (m.role !== 'assistant') continue;
      if (lastMessage !== null && lastMessage !== m.id && !printed.has(`${m.id}`)) out.text('\n');
      printed.set(m.id, 1);
      lastMessage = m.id;
      last = m;
      // Notices go to stderr with the other notes, each once.
      for (const [k, n] of (m.notices ?? []).entries()) {
        if (printed.has(`${m.id}/notice/${k}`)) continue;
        printed.set(`${m.id}/notice/${k}`, 1);
        out.note(describeNotice(n));
      }
      if (m.plan) {
        const plan = describePlan(m.plan);
        if (plan !== lastPlan) (out.progress ?? out.note)(plan);
        lastPlan = plan;
      }
      m.content.forEach((p, k) => {
        const key = `${m.id}/${k}`;
        if (p.type === 'text') {
          const done = printed.get(key) ?? 0;
          if (p.text.length > done) {
            out.text(p.text.slice(done));
            printed.set(key, p.text.length);
          }
        } else if (p.type === 'reasoning') {
          // The thinking stays out of stdout (the answer alone); its time is noted once it is known.
          if (p.durationMs !== undefined && !printed.has(key)) {
            printed.set(key, 1);
            (out.progress ?? out.note)(`[thought for ${formatThinkingTime(p.durationMs)}]`);
          }
        } else if (p.type === 'file') {
          if (printed.has(key)) return;
          printed.set(key, 1);
          takeFile(p);
        } else if (p.type === 'tool-call' && toolStates.get(p.toolCallId) !== p.state) {
          toolStates.set(p.toolCallId, p.state);
          (out.progress ?? out.note)(`[tool ${describeToolCall(p, { verbose: options.verbose })}: ${p.state}]`);
          if (p.state === 'awaiting-approval') {
            const noteFailure = (error: unknown) => out.note(`[could not answer the approval: ${reasonOf(error)}]`);
            options.approve(p).then(({ approved, reason, always, optionId }) => {
              const answer = { chatId, toolCallId: p.toolCallId, approved, ...(reason ? { reason } : {}), ...(always ? { always: true } : {}), ...(optionId ? { optionId } : {}) };
              // Its ok comes once it is on disk, which may be after the run it let go on has ended.
              answers.push(client.request('tool.approve', answer).then(() => undefined, noteFailure));
            }, noteFailure);
          }
        }
      });
    }
    return last;
  };
  // The message is in, so its run exists (or has already ended): a stop reaches it, whenever it comes.
  const stopRun = () => void client.request('run.stop', { chatId }).catch(() => undefined);
  if (signal?.aborted) stopRun();
  else signal?.addEventListener('abort', stopRun, { once: true });
  return new Promise<TurnResult>((resolve, reject) => {
    let watching = true;
    /** Set once another client made another chat active while this reply went on. */
    let elsewhere = false;
    const stopWatching = () => {
      watching = false;
      unsubscribe();
      signal?.removeEventListener('abort', stopRun);
    };
    const end = (last: AssistantMessage | null) => {
      const ms = Date.now() - started;
      void Promise.all([...saves, ...answers]).then(() => resolve({ status: last?.status ?? 'done', messageId: last?.id ?? null, error: last?.error, ms, unsaved }));
    };
    const check = () => {
      if (!watching) return;
      const view = client.getSnapshot();
      // Reconnecting keeps the state and resumes; three failed attempts, or a refusal, end the wait.
      if (view.status === 'offline' || view.status === 'closed') {
        stopWatching();
        return reject(new ReplyLostError(`Lost the connection to the agent server (${view.error?.message ?? view.status}); the reply may go on there: \`agentbar sessions\` lists the chat`));
      }
      const s = view.state;
      if (!s || view.status !== 'connected') return;
      const running = s.run !== null && s.run.chatId === chatId;
      if (s.active?.chatId === chatId) {
        const last = follow(s.active.messages);
        if (last === undefined || running || last?.status === 'streaming') return;
        stopWatching();
        return end(last);
      }
      // Another client opened or made another chat (the toolbar's +): the reply is no longer in
      // the state. It goes on in its chat, which is read once the run has ended.
      if (!elsewhere) {
        elsewhere = true;
        out.note('[another client opened another chat; the rest of the reply shows when it ends]');
      }
      if (running) return;
      stopWatching();
      client.request('chat.read', { chatId }).then(
        ({ messages }) => end(follow(messages) ?? null),
        (error: unknown) =>
          reject(new ReplyLostError(error instanceof RequestError && error.code === 'not_found' ? 'Another client deleted the chat before the reply ended' : `Could not read the end of the reply: ${reasonOf(error)}`)),
      );
    };
    const unsubscribe = client.subscribe(check);
    check();
  });
}
