/**
 * Runs agents: one run at a time, writing the assistant's reply into the chat as ops, calling
 * tools with approval, and ending every run in a state no client waits on forever. Agent code is
 * always called inside try/catch: an agent's bug fails its message, never the server.
 */
import * as v from 'valibot';
import { makeId } from '../shared/ids.ts';
import { describeIssues, ProtocolError } from '../shared/errors.ts';
import {
  AssistantPartSchema,
  type AssistantMessage,
  type AssistantPart,
  type Message,
  type Op,
  type RunInfo,
  type ToolCallPart,
  type ToolCallState,
  type ToolMessage,
  type UserMessage,
} from '../shared/schemas.ts';
import {
  ToolDeniedError,
  type AgentDefinition,
  type AgentStateAccess,
  type AgentTool,
  type CallToolOptions,
  type ReplyBuilder,
  type RunContext,
  type TextSource,
  type ToolCallResult,
} from './agent.ts';
import type { ChatManager } from './chats.ts';
import type { StateStore } from './state-store.ts';
import type { ToolDispatcher } from './tool-dispatcher.ts';

interface OpenCall {
  toolCallId: string;
  toolName: string;
  runtime: ToolCallPart['runtime'];
  messageIndex: number;
  partIndex: number;
  state: ToolCallState;
  input: Record<string, unknown>;
  execute: AgentTool['execute'];
  finish: (result: ToolCallResult) => void;
  abort: (error: Error) => void;
}

interface ActiveRun {
  info: RunInfo;
  agent: AgentDefinition;
  controller: AbortController;
  originClientId: string | undefined;
  /** Index of the assistant message being written, or null between steps. */
  messageIndex: number | null;
  messageId: string | null;
  parts: number;
  lastPart: { type: 'text' | 'reasoning'; index: number } | null;
  calls: Map<string, OpenCall>;
  finished: boolean;
  /** Whether this run has written any message yet. */
  wroteAny: boolean;
  /** Text and reasoning characters written by this run. */
  chars: number;
}

/** The most text one run may stream (all its messages together). */
export const MAX_REPLY_CHARS = 8_000_000;

function abortError(): Error {
  const e = new Error('The run was stopped');
  e.name = 'AbortError';
  return e;
}

/** A JSON copy of a value (undefined becomes null); throws for BigInt, cycles or too deep nesting. */
function toJsonValue(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : JSON.parse(text);
}

/** Validates a part the agent wrote and returns a JSON copy of it, or throws a clear error. */
function checkPart(part: AssistantPart): AssistantPart {
  let copy: unknown;
  try {
    copy = toJsonValue(part);
  } catch (error) {
    throw new Error(`The agent wrote a ${String((part as { type?: unknown })?.type)} part that is not JSON: ${describeError(error)}`);
  }
  const parsed = v.safeParse(AssistantPartSchema, copy);
  if (!parsed.success) {
    throw new Error(`The agent wrote an invalid ${String((part as { type?: unknown })?.type)} part: ${describeIssues(parsed.issues).message}`);
  }
  return copy as AssistantPart;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  try {
    return typeof error === 'string' ? error : JSON.stringify(error);
  } catch {
    return String(error);
  }
}

export interface RunManagerOptions {
  store: StateStore;
  chats: ChatManager;
  dispatcher: ToolDispatcher;
  agentState: (agentId: string) => AgentStateAccess;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
  now?: () => number;
}

export class RunManager {
  private active: ActiveRun | null = null;
  private readonly now: () => number;

  constructor(private readonly o: RunManagerOptions) {
    this.now = o.now ?? Date.now;
  }

  get current(): RunInfo | null {
    return this.active?.info ?? null;
  }

  /** The open call with this id in the running chat, if any. */
  openCall(chatId: string, toolCallId: string): OpenCall | undefined {
    return this.active && this.active.info.chatId === chatId ? this.active.calls.get(toolCallId) : undefined;
  }

  /**
   * Starts `agent` on `message` (already added to the chat). Returns at once; the run goes on.
   */
  start(agent: AgentDefinition, chatId: string, message: UserMessage, originClientId?: string): void {
    if (this.active) throw new ProtocolError('busy', 'The agent is already working; wait or press Stop');
    const info: RunInfo = { chatId, agent: agent.id, messageId: null, startedAt: this.now() };
    const run: ActiveRun = {
      info,
      agent,
      controller: new AbortController(),
      originClientId,
      messageIndex: null,
      messageId: null,
      parts: 0,
      lastPart: null,
      calls: new Map(),
      finished: false,
      wroteAny: false,
      chars: 0,
    };
    this.active = run;
    this.o.chats.pin(chatId);
    this.o.store.change([{ op: 'replace', path: '/run', value: info }]);
    // The agent gets copies: nothing it does to them can change the state behind the clients' backs.
    const messages = structuredClone(this.o.chats.messages(chatId)) as Message[];
    const own = messages[messages.length - 1];
    const ctx = this.createContext(run, messages, own?.id === message.id ? (own as UserMessage) : structuredClone(message));
    void this.execute(run, ctx);
  }

  private async execute(run: ActiveRun, ctx: RunContext): Promise<void> {
    try {
      await run.agent.run!(ctx);
      if (!run.finished) this.finish(run, 'done');
    } catch (error) {
      if (run.finished) return;
      if (error instanceof ToolDeniedError) {
        this.finish(run, 'done');
        return;
      }
      this.o.log('warn', `Agent ${run.agent.id} failed: ${describeError(error)}`);
      this.finish(run, 'failed', describeError(error));
    }
  }

  /** Stops the run in `chatId`: its message ends `stopped`, its open calls `interrupted`. */
  stop(chatId: string): boolean {
    const run = this.active;
    if (!run || run.info.chatId !== chatId) return false;
    run.controller.abort(abortError());
    this.finish(run, 'stopped');
    return true;
  }

  /** Ends every run (server shutdown): messages `interrupted`. */
  shutdown(): void {
    const run = this.active;
    if (!run) return;
    run.controller.abort(abortError());
    this.finish(run, 'interrupted');
  }

  private finish(run: ActiveRun, status: AssistantMessage['status'], error?: string): void {
    if (run.finished) return;
    run.finished = true;
    const chatId = run.info.chatId;
    for (const call of run.calls.values()) {
      this.setCallState(run, call, 'interrupted');
      if (call.runtime === 'toolbar') this.o.dispatcher.cancel(call.toolCallId);
      call.abort(abortError());
    }
    run.calls.clear();
    // A failure, or a stop before the agent wrote anything, still shows as a message of its own.
    if (run.messageIndex === null && (status === 'failed' || (status === 'stopped' && !run.wroteAny))) this.openMessage(run);
    if (run.messageIndex !== null) this.endMessage(run, status, error);
    this.active = null;
    this.o.store.change([{ op: 'replace', path: '/run', value: null }]);
    this.o.chats.unpin(chatId);
  }

  // ------------------------------------------------------------------ messages

  private openMessage(run: ActiveRun): number {
    if (run.messageIndex !== null) return run.messageIndex;
    const message: AssistantMessage = {
      id: makeId('msg'),
      role: 'assistant',
      agent: run.agent.id,
      content: [],
      status: 'streaming',
      createdAt: this.now(),
    };
    const index = this.o.chats.addMessage(run.info.chatId, message);
    run.wroteAny = true;
    run.messageIndex = index;
    run.messageId = message.id;
    run.parts = 0;
    run.lastPart = null;
    run.info.messageId = message.id;
    this.o.store.change([{ op: 'replace', path: '/run/messageId', value: message.id }]);
    return index;
  }

  private endMessage(run: ActiveRun, status: AssistantMessage['status'], error?: string): void {
    const index = run.messageIndex;
    if (index === null) return;
    const ops: Op[] = [{ op: 'replace', path: `/${index}/status`, value: status }];
    if (error !== undefined) ops.push({ op: 'add', path: `/${index}/error`, value: error });
    this.o.chats.edit(run.info.chatId, ops, { urgent: true });
    this.o.chats.touch(run.info.chatId);
    run.messageIndex = null;
    run.messageId = null;
    run.lastPart = null;
    if (this.active === run) {
      run.info.messageId = null;
      this.o.store.change([{ op: 'replace', path: '/run/messageId', value: null }]);
    }
  }

  private addPart(run: ActiveRun, input: AssistantPart): { messageIndex: number; partIndex: number } {
    // Agent output is client input for every client: a part the schema refuses would make every
    // snapshot invalid and the chat file unreadable, so the agent gets the error instead.
    const part = checkPart(input);
    const messageIndex = this.openMessage(run);
    this.o.chats.edit(run.info.chatId, [{ op: 'add', path: `/${messageIndex}/content/-`, value: part }]);
    const partIndex = run.parts++;
    run.lastPart = part.type === 'text' || part.type === 'reasoning' ? { type: part.type, index: partIndex } : null;
    return { messageIndex, partIndex };
  }

  private appendText(run: ActiveRun, type: 'text' | 'reasoning', chunk: string): void {
    this.assertLive(run);
    if (chunk === '') return;
    // Clients must hold the whole active chat in one snapshot: one reply may not grow without end.
    run.chars += chunk.length;
    if (run.chars > MAX_REPLY_CHARS) throw new Error(`The reply is over ${MAX_REPLY_CHARS.toLocaleString('en')} characters; the agent was stopped`);
    if (run.messageIndex !== null && run.lastPart?.type === type) {
      this.o.chats.edit(run.info.chatId, [
        { op: 'append', path: `/${run.messageIndex}/content/${run.lastPart.index}/text`, value: chunk },
      ]);
    } else {
      this.addPart(run, { type, text: chunk });
    }
  }

  private assertLive(run: ActiveRun): void {
    if (run.finished || run.controller.signal.aborted) throw abortError();
  }

  private async streamText(run: ActiveRun, type: 'text' | 'reasoning', source: TextSource): Promise<void> {
    if (typeof source === 'string') {
      this.appendText(run, type, source);
      return;
    }
    if (Symbol.asyncIterator in source) {
      for await (const chunk of source as AsyncIterable<string>) this.appendText(run, type, String(chunk));
    } else {
      for (const chunk of source as Iterable<string>) this.appendText(run, type, String(chunk));
    }
    this.assertLive(run);
  }

  // ------------------------------------------------------------------ tools

  private setCallState(run: ActiveRun, call: OpenCall, state: ToolCallState): void {
    call.state = state;
    this.o.chats.edit(run.info.chatId, [{ op: 'replace', path: `/${call.messageIndex}/content/${call.partIndex}/state`, value: state }], {
      urgent: state !== 'running',
    });
  }

  private addToolMessage(run: ActiveRun, call: OpenCall, result: ToolCallResult): void {
    const message: ToolMessage = {
      id: makeId('msg'),
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: result.output, isError: result.isError }],
      createdAt: this.now(),
    };
    this.o.chats.addMessage(run.info.chatId, message, { urgent: true });
  }

  private callTool(run: ActiveRun, options: CallToolOptions): Promise<ToolCallResult> {
    this.assertLive(run);
    const tool = run.agent.tools?.find((t) => t.name === options.name);
    const runtime = options.runtime ?? tool?.runtime ?? (tool?.execute ? 'cli' : 'toolbar');
    const requiresApproval = options.requiresApproval ?? false;
    const input = options.input ?? {};
    const toolCallId = makeId('call');
    const part: ToolCallPart = {
      type: 'tool-call',
      toolCallId,
      toolName: options.name,
      input,
      runtime,
      requiresApproval,
      state: requiresApproval ? 'awaiting-approval' : 'running',
    };
    const { messageIndex, partIndex } = this.addPart(run, part);
    // cli and toolbar results arrive as their own messages, so this step of the reply ends here.
    if (runtime !== 'backend') this.endMessage(run, 'done');

    let finish!: (r: ToolCallResult) => void;
    let fail!: (e: Error) => void;
    const result = new Promise<ToolCallResult>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    const call: OpenCall = {
      toolCallId,
      toolName: options.name,
      runtime,
      messageIndex,
      partIndex,
      state: part.state,
      input,
      execute: tool?.execute,
      finish,
      abort: fail,
    };
    // An agent that never awaits the call must not turn a later Stop or Reject into an unhandled rejection.
    result.catch(() => {});
    run.calls.set(toolCallId, call);
    if (!requiresApproval) this.startCall(run, call);
    return result;
  }

  /** Sends a running call where it runs: a toolbar, or this process. */
  private startCall(run: ActiveRun, call: OpenCall): void {
    if (call.runtime === 'toolbar') {
      this.o.dispatcher.dispatch(
        { chatId: run.info.chatId, toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, preferClientId: run.originClientId },
        (message) => this.completeCall(run, call, { output: message, isError: true }),
      );
    } else {
      void this.executeLocally(run, call, call.execute);
    }
  }

  /**
   * A client answered an approval (its approval message is already recorded). The call's new
   * state is in the state before this returns, so the request's result follows its patch.
   */
  answerApproval(call: OpenCall, approved: boolean, reason: string | undefined): void {
    const run = this.active;
    if (!run || run.calls.get(call.toolCallId) !== call || call.state !== 'awaiting-approval') return;
    if (approved) {
      this.setCallState(run, call, 'running');
      this.startCall(run, call);
    } else {
      run.calls.delete(call.toolCallId);
      this.setCallState(run, call, 'denied');
      call.abort(new ToolDeniedError(call.toolName, reason));
    }
  }

  private async executeLocally(run: ActiveRun, call: OpenCall, execute: AgentTool['execute']): Promise<void> {
    let outcome: ToolCallResult;
    if (!execute) {
      outcome = { output: `Agent ${run.agent.id} has no handler for tool ${call.toolName}`, isError: true };
    } else {
      try {
        outcome = { output: (await execute(call.input, { signal: run.controller.signal, chatId: run.info.chatId })) ?? null, isError: false };
      } catch (error) {
        outcome = { output: describeError(error), isError: true };
      }
    }
    this.completeCall(run, call, outcome);
  }

  /** Records a result: a ToolMessage for cli/toolbar calls, a part inside the message for backend. */
  private completeCall(run: ActiveRun, call: OpenCall, given: ToolCallResult): void {
    if (run.finished || run.calls.get(call.toolCallId) !== call) return;
    let outcome: ToolCallResult;
    try {
      outcome = { output: toJsonValue(given.output), isError: given.isError };
    } catch (error) {
      outcome = { output: `The result of ${call.toolName} cannot be sent as JSON: ${describeError(error)}`, isError: true };
    }
    run.calls.delete(call.toolCallId);
    if (call.runtime === 'backend') {
      const index = call.messageIndex;
      this.o.chats.edit(run.info.chatId, [
        {
          op: 'add',
          path: `/${index}/content/-`,
          value: { type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: outcome.output, isError: outcome.isError },
        },
      ]);
      if (run.messageIndex === index) run.parts++;
      run.lastPart = null;
    } else {
      this.addToolMessage(run, call, outcome);
    }
    this.setCallState(run, call, outcome.isError ? 'failed' : 'done');
    call.finish(outcome);
  }

  /** A toolbar sent a call's result. */
  acceptToolResult(chatId: string, call: OpenCall, output: unknown, isError: boolean): void {
    const run = this.active;
    if (!run || run.info.chatId !== chatId) return;
    this.o.dispatcher.settle(call.toolCallId);
    this.completeCall(run, call, { output, isError });
  }

  // ------------------------------------------------------------------ context

  private createContext(run: ActiveRun, messages: Message[], message: UserMessage): RunContext {
    const reply: ReplyBuilder = {
      text: (source) => this.streamText(run, 'text', source),
      reasoning: (source) => this.streamText(run, 'reasoning', source),
      file: (file) => {
        this.assertLive(run);
        this.addPart(run, { type: 'file', ...file });
      },
      backendToolResult: ({ name, input, output, isError }) => {
        this.assertLive(run);
        const toolCallId = makeId('call');
        this.addPart(run, { type: 'tool-call', toolCallId, toolName: name, input: input ?? {}, runtime: 'backend', requiresApproval: false, state: isError ? 'failed' : 'done' });
        this.addPart(run, { type: 'tool-result', toolCallId, toolName: name, output, isError: isError ?? false });
      },
    };
    const signal = run.controller.signal;
    return {
      agent: run.agent.id,
      chatId: run.info.chatId,
      messages,
      message,
      text: message.content.map((p) => (p.type === 'text' ? p.text : '')).filter(Boolean).join('\n'),
      signal,
      reply,
      callTool: (options) => this.callTool(run, options),
      state: this.o.agentState(run.agent.id),
      sleep: (ms) =>
        new Promise<void>((resolve, reject) => {
          if (signal.aborted) return reject(abortError());
          const timer = setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          }, ms);
          const onAbort = () => {
            clearTimeout(timer);
            reject(abortError());
          };
          signal.addEventListener('abort', onAbort, { once: true });
        }),
    };
  }
}
