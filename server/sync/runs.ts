/**
 * The run lifecycle: one run at a time, started by a user message, ended `done`, `failed`,
 * `stopped` or `interrupted` in a state no client waits on forever, and the context the agent
 * gets. The reply itself is written by reply-writer.ts, tool calls live in tool-calls.ts. Agent
 * code is always called inside try/catch: an agent's bug fails its message, never the server.
 */
import { findCurrentMode } from '../../shared/agent-mode.ts';
import { findChatSettings } from '../../shared/agent-setting.ts';
import { makeId } from '../../shared/ids.ts';
import { ProtocolError } from '../../shared/errors.ts';
import type { AssistantMessage, Message, RunInfo, ToolDefinition, UserMessage } from '../../shared/schemas.ts';
import { ToolDeniedError, type AgentDefinition, type AgentStateAccess, type ReplyBuilder, type RunContext } from '../sdk/agent.ts';
import type { ChatManager } from './chats.ts';
import { normalizeUsage } from '../sdk/context-usage.ts';
import { describeError } from './describe-error.ts';
import { ReplyWriter } from './reply-writer.ts';
import { statePath } from './state-paths.ts';
import type { StateStore } from './state-store.ts';
import type { CallingRun, ToolCalls } from './tool-calls.ts';

export { MAX_REPLY_CHARS } from './reply-writer.ts';

class ActiveRun implements CallingRun {
  readonly controller = new AbortController();
  finished = false;
  writer!: ReplyWriter;
  /** Text and reasoning writes the server refused other than for a stop, with whether the agent looked. */
  readonly refusedWrites: { error: unknown; write: WatchedWrite }[] = [];

  constructor(
    readonly info: RunInfo,
    readonly agent: AgentDefinition,
    readonly originClientId: string | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  assertLive(): void {
    if (this.finished || this.controller.signal.aborted) throw abortError();
  }
}

/**
 * A write's promise that knows whether the agent awaited it (or attached a handler): a refusal it
 * never looked at fails the run, one it handled is its own business. A subclass, because `await`
 * of a plain promise never calls its `then`.
 */
class WatchedWrite extends Promise<void> {
  static override get [Symbol.species]() {
    return Promise;
  }
  observed = false;
  override then<A = void, B = never>(onFulfilled?: ((value: void) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    this.observed = true;
    return super.then(onFulfilled, onRejected);
  }
}

function abortError(): Error {
  const e = new Error('The run was stopped');
  e.name = 'AbortError';
  return e;
}

export interface RunManagerOptions {
  store: StateStore;
  chats: ChatManager;
  tools: ToolCalls;
  agentState: (agentId: string) => AgentStateAccess;
  /** The tools connected toolbars declared. */
  pageTools?: () => readonly ToolDefinition[];
  /** The page tools' MCP endpoint for a chat, with the headers that open it. */
  pageToolServer?: (chatId: string) => RunContext['pageToolServer'];
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

  /** The client whose message started the run in progress, if any. */
  get currentOriginClientId(): string | undefined {
    return this.active?.originClientId;
  }

  /**
   * Starts `agent` on `message` (already added to the chat). Returns at once; the run goes on.
   *
   * @example runs.start(agent, chatId, message, client.id);
   */
  start(agent: AgentDefinition, chatId: string, message: UserMessage, originClientId?: string): void {
    if (this.active) throw new ProtocolError('busy', 'The agent is already working; wait or press Stop');
    const info: RunInfo = { chatId, agent: agent.id, messageId: null, startedAt: this.now() };
    const run = new ActiveRun(info, agent, originClientId);
    run.writer = new ReplyWriter({
      chats: this.o.chats,
      chatId,
      agentId: agent.id,
      now: this.now,
      assertLive: () => run.assertLive(),
      onMessage: (messageId) => {
        if (this.active !== run) return;
        info.messageId = messageId;
        this.o.store.change([{ op: 'replace', path: statePath.runMessageId, value: messageId }]);
      },
    });
    this.active = run;
    this.o.chats.pin(chatId);
    this.o.store.change([{ op: 'replace', path: statePath.run, value: info }]);
    // The agent gets copies: nothing it does to them can change the state behind the clients' backs.
    // Only the shown branch: the versions of answers the user did not choose are not the agent's history.
    const messages = structuredClone(this.o.chats.shownMessages(chatId)) as Message[];
    const own = messages[messages.length - 1];
    const ctx = this.createContext(run, messages, own?.id === message.id ? (own as UserMessage) : structuredClone(message));
    this.execute(run, ctx).catch((error) => this.o.log('error', `The run of ${agent.id} ended badly: ${describeError(error)}`));
  }

  private async execute(run: ActiveRun, ctx: RunContext): Promise<void> {
    try {
      await run.agent.run!(ctx);
      const unseen = run.refusedWrites.find((w) => !w.write.observed);
      if (unseen) throw unseen.error;
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

  /** Ends the run; never throws, so that no client is left with a run that cannot end. */
  private finish(run: ActiveRun, status: AssistantMessage['status'], error?: string): void {
    if (run.finished) return;
    run.finished = true;
    try {
      this.o.tools.interrupt(run, abortError());
      const { writer } = run;
      // A failure, or a stop before the agent wrote anything, still shows as a message of its own.
      if (writer.messageIndex === null && (status === 'failed' || (status === 'stopped' && !writer.wroteAny))) writer.openMessage();
      writer.endMessage(status, error);
    } catch (failure) {
      this.o.log('error', `Could not end the reply of ${run.agent.id} as ${status}: ${describeError(failure)}`);
    } finally {
      if (this.active === run) this.active = null;
      this.o.store.change([{ op: 'replace', path: statePath.run, value: null }]);
      this.o.chats.unpin(run.info.chatId);
    }
  }

  // ------------------------------------------------------------------ context

  private createContext(run: ActiveRun, messages: Message[], message: UserMessage): RunContext {
    const stream = (type: 'text' | 'reasoning', source: Parameters<ReplyBuilder['text']>[0]): Promise<void> => {
      const written = run.writer.streamText(type, source);
      const write = new WatchedWrite((resolve, reject) => written.then(resolve, reject));
      // `reply.text('…')` looks synchronous, and an agent may not await it: a Stop must not become
      // an unhandled rejection (which ends the server), and a refused write must not go unseen.
      // Promise.prototype.then, not the watched one: this is the server looking, not the agent.
      Promise.prototype.then.call(write, undefined, () => {});
      // On the write itself, not the watched copy: noted before the agent's return is (a refused
      // string is refused at once, and the copy settles a step later).
      written.catch((error: unknown) => {
        if (!run.finished && !run.signal.aborted) run.refusedWrites.push({ error, write });
      });
      return write;
    };
    const reply: ReplyBuilder = {
      text: (source) => stream('text', source),
      reasoning: (source) => stream('reasoning', source),
      file: (file) => {
        run.assertLive();
        run.writer.addPart({ type: 'file', ...file });
      },
      backendToolResult: ({ name, input, output, isError }) => {
        run.assertLive();
        const toolCallId = makeId('call');
        run.writer.addPart({ type: 'tool-call', toolCallId, toolName: name, input: input ?? {}, runtime: 'backend', requiresApproval: false, state: isError ? 'failed' : 'done' });
        run.writer.addPart({ type: 'tool-result', toolCallId, toolName: name, output, isError: isError ?? false });
      },
      plan: (entries) => run.writer.setPlan(entries),
      notice: (notice) => {
        run.writer.addNotice(notice);
      },
    };
    const signal = run.signal;
    const { store } = this.o;
    const chatId = run.info.chatId;
    const agentId = run.agent.id;
    const state = this.o.agentState(agentId);
    return {
      agent: run.agent.id,
      chatId: run.info.chatId,
      messages,
      message,
      text: message.content.map((p) => (p.type === 'text' ? p.text : '')).filter(Boolean).join('\n'),
      signal,
      pageTools: this.o.pageTools?.() ?? [],
      ...(this.o.pageToolServer?.(run.info.chatId) ? { pageToolServer: this.o.pageToolServer(run.info.chatId)! } : {}),
      reply,
      callTool: (options) => this.o.tools.call(run, options),
      startToolCall: (options) => this.o.tools.start(run, options),
      state,
      setTitle: (title) => state.setChatTitle(chatId, title),
      get mode() {
        return findCurrentMode(store.state, chatId, agentId);
      },
      setMode: (mode) => {
        const offered = store.state.agents.find((a) => a.id === agentId)?.modes ?? [];
        if (typeof mode !== 'string' || !offered.some((m) => m.id === mode)) {
          throw new TypeError(`setMode takes one of the agent's mode ids (${offered.map((m) => m.id).join(', ') || 'it offers none'}), not ${JSON.stringify(mode)}`);
        }
        // The chat may have been deleted while the agent worked: there is nothing to record then.
        if (this.o.chats.info(chatId)) this.o.chats.setMode(chatId, agentId, mode);
      },
      get settings() {
        return findChatSettings(store.state, chatId, agentId);
      },
      setSetting: (setting, value) => {
        const offered = store.state.agents.find((a) => a.id === agentId)?.settings ?? [];
        const found = offered.find((s) => s.id === setting);
        if (!found) throw new TypeError(`setSetting takes one of the agent's setting ids (${offered.map((s) => s.id).join(', ') || 'it offers none'}), not ${JSON.stringify(setting)}`);
        if (typeof value !== 'string' || !found.options.some((o) => o.value === value)) {
          throw new TypeError(`${found.name} takes one of ${found.options.map((o) => o.value).join(', ')}, not ${JSON.stringify(value)}`);
        }
        if (this.o.chats.info(chatId)) this.o.chats.setSetting(chatId, agentId, setting, value);
      },
      get usage() {
        return store.state.chats[chatId]?.usage?.[agentId];
      },
      setUsage: (usage) => {
        const checked = usage === null ? null : normalizeUsage(usage);
        if (this.o.chats.info(chatId)) this.o.chats.setUsage(chatId, agentId, checked);
      },
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
