/**
 * A tool call's whole life, in one place: the agent asks (`callTool`), the part appears in the
 * reply, the user approves or rejects (`tool.approve`), the call runs where it belongs (a toolbar
 * through the dispatcher, or this process), its result is recorded and handed back to the agent,
 * and a Stop interrupts it. The message part is the only copy clients see; this module keeps the
 * open calls and is the only writer of their state.
 */
import * as v from 'valibot';
import { isAllowingOption } from '../../shared/approval-options.ts';
import { describeIssues, ProtocolError } from '../../shared/errors.ts';
import { makeId } from '../../shared/ids.ts';
import { ApprovalLabelsSchema, ApprovalOptionsSchema, ToolCallPartSchema, type ApprovalLabels, type ApprovalOption, type ClientKind, type Message, type Op, type RequestOf, type RunInfo, type ToolCallPart, type ToolApprovalResponsePart, type ToolCallState, type ToolMessage, type ToolResultPart, type UserMessage } from '../../shared/schemas.ts';
import { ToolDeniedError, type AgentDefinition, type AgentTool, type ApprovalAnswer, type CallToolOptions, type ToolCallDisplay, type ToolCallHandle, type ToolCallResult } from '../sdk/agent.ts';
import type { ChatManager } from './chats.ts';
import { describeError } from './describe-error.ts';
import type { ReplyWriter } from './reply-writer.ts';
import { messagePath } from './state-paths.ts';
import { toJsonValue } from './to-json-value.ts';
import type { ToolDispatcher } from './tool-dispatcher.ts';

/** What a call needs of the run that made it. */
export interface CallingRun {
  readonly info: RunInfo;
  readonly agent: AgentDefinition;
  readonly signal: AbortSignal;
  /** The client whose message started the run: its toolbar runs the run's toolbar calls when it can. */
  readonly originClientId: string | undefined;
  readonly writer: ReplyWriter;
  readonly finished: boolean;
  /** Throws when the run was stopped. */
  assertLive(): void;
}

interface OpenCall {
  run: CallingRun;
  toolCallId: string;
  toolName: string;
  runtime: ToolCallPart['runtime'];
  messageIndex: number;
  partIndex: number;
  state: ToolCallState;
  input: Record<string, unknown>;
  execute: AgentTool['execute'];
  /** Its title as the agent last gave it: the result carries it too. */
  title: string | undefined;
  /** Whether it was sent where it runs (a call asked about midway already was). */
  started: boolean;
  /** The agent waits for the user's answer (`requestApproval`). */
  answer: { promise: Promise<ApprovalAnswer>; resolve: (a: ApprovalAnswer) => void; reject: (e: Error) => void } | null;
  /** How the call was worded when it started: each ask adds its own words to these. */
  startWording: ApprovalWording;
  /** How the part words its approval now. */
  asking: ApprovalWording;
  finish: (result: ToolCallResult) => void;
  abort: (error: Error) => void;
}

/** The fields of a part that say which answers an approval offers. */
interface ApprovalWording {
  alwaysOffered?: boolean;
  approvalLabels?: ApprovalLabels;
  approvalOptions?: ApprovalOption[];
}
const WORDING_FIELDS = ['alwaysOffered', 'approvalLabels', 'approvalOptions'] as const;

/** The display fields a handle may change, checked against the part schema. */
const DisplayUpdateSchema = v.partial(v.pick(ToolCallPartSchema, ['title', 'kind', 'locations', 'display', 'input']));

export interface ToolCallsOptions {
  chats: ChatManager;
  /** Routes `toolbar` calls to a connected toolbar and times them out. */
  dispatcher: ToolDispatcher;
  now: () => number;
}

/** Page tool calls from outside any run (the MCP endpoint) that may wait at once. */
export const MAX_DETACHED_CALLS = 64;

interface DetachedCall {
  chatId: string;
  settle: (result: ToolCallResult) => void;
}

export class ToolCalls {
  private readonly open = new Map<string, OpenCall>();
  private readonly detached = new Map<string, DetachedCall>();

  constructor(private readonly o: ToolCallsOptions) {}

  /**
   * The agent calls a tool: adds its part to the reply and resolves with its result, or rejects
   * with `ToolDeniedError` when the user rejects it or an AbortError when the run stops.
   *
   * @example const { output } = await tools.call(run, { name: 'get_selection', requiresApproval: true });
   */
  call(run: CallingRun, options: CallToolOptions): Promise<ToolCallResult> {
    return this.start(run, options).result;
  }

  /**
   * Starts a call and returns a handle to follow it: `result` settles like `call`'s promise,
   * `update` changes what clients show, `requestApproval` asks the user midway.
   *
   * @example const handle = tools.start(run, { name: 'edit', runtime: 'cli', execute: () => done });
   */
  start(run: CallingRun, options: CallToolOptions): ToolCallHandle {
    run.assertLive();
    const tool = run.agent.tools?.find((t) => t.name === options.name);
    const execute = options.execute ?? tool?.execute;
    const runtime = options.runtime ?? tool?.runtime ?? (execute ? 'cli' : 'toolbar');
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
      ...pickDisplay(options),
    };
    const asking = wordingOf(options.alwaysOffered, options.approvalLabels, options.approvalOptions);
    Object.assign(part, asking);
    const { messageIndex, partIndex } = run.writer.addPart(part);
    // cli and toolbar results arrive as their own messages, so this step of the reply ends here.
    if (runtime !== 'backend') run.writer.endMessage('done');

    let finish!: (r: ToolCallResult) => void;
    let abort!: (e: Error) => void;
    const result = new Promise<ToolCallResult>((resolve, reject) => {
      finish = resolve;
      abort = reject;
    });
    // An agent that never awaits the call must not turn a later Stop or Reject into an unhandled rejection.
    result.catch(() => {});
    const call: OpenCall = { run, toolCallId, toolName: options.name, title: part.title, runtime, messageIndex, partIndex, state: part.state, input, execute, started: false, answer: null, startWording: asking, asking, finish, abort };
    this.open.set(toolCallId, call);
    if (!requiresApproval) this.send(call);
    return {
      toolCallId,
      result,
      update: (changes) => this.update(call, changes),
      requestApproval: (opts) => this.requestApproval(call, opts),
    };
  }

  /** Changes what clients show about a call; the part is checked first, like every part. */
  private update(call: OpenCall, changes: ToolCallDisplay & { input?: Record<string, unknown> }): void {
    call.run.assertLive();
    const given: Record<string, unknown> = { ...pickDisplay(changes) };
    if (changes.input !== undefined) given.input = changes.input;
    let copy: Record<string, unknown>;
    try {
      copy = toJsonValue(given) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`The agent updated tool call ${call.toolName} with a value that is not JSON: ${describeError(error)}`);
    }
    const parsed = v.safeParse(DisplayUpdateSchema, copy);
    if (!parsed.success) throw new Error(`The agent updated tool call ${call.toolName} wrongly: ${describeIssues(parsed.issues).message}`);
    const ops: Op[] = [];
    for (const [key, value] of Object.entries(copy)) {
      if (value === undefined) continue;
      ops.push({ op: 'add', path: messagePath.partField(call.messageIndex, call.partIndex, key), value });
    }
    if (ops.length === 0) return;
    if (!this.o.chats.hasRoom(call.run.info.chatId, Buffer.byteLength(JSON.stringify(copy), 'utf8'))) return;
    if (copy.input !== undefined) call.input = copy.input as Record<string, unknown>;
    if (typeof copy.title === 'string') call.title = copy.title;
    this.o.chats.edit(call.run.info.chatId, ops);
  }

  /**
   * Puts a call (new or running) in `awaiting-approval` and resolves with the user's answer. A call
   * asked about again shows the words it started with and this ask's; an earlier ask's go.
   */
  private requestApproval(call: OpenCall, opts: { alwaysOffered?: boolean; labels?: ApprovalLabels; options?: ApprovalOption[] } | undefined): Promise<ApprovalAnswer> {
    call.run.assertLive();
    if (call.answer) return call.answer.promise;
    if (this.open.get(call.toolCallId) !== call) return Promise.reject(new Error(`Tool call ${call.toolName} is ${call.state}; it cannot ask for approval now`));
    let checkedLabels: ApprovalLabels | undefined;
    if (opts?.labels !== undefined) {
      const parsed = v.safeParse(ApprovalLabelsSchema, opts.labels);
      if (!parsed.success) return Promise.reject(new Error(`The agent asked approval for tool call ${call.toolName} with wrong labels: ${describeIssues(parsed.issues).message}`));
      checkedLabels = parsed.output;
    }
    let checkedOptions: ApprovalOption[] | undefined;
    if (opts?.options !== undefined) {
      const parsed = v.safeParse(ApprovalOptionsSchema, opts.options);
      if (!parsed.success) return Promise.reject(new Error(`The agent asked approval for tool call ${call.toolName} with wrong options: ${describeIssues(parsed.issues).message}`));
      checkedOptions = parsed.output;
    }
    // The words the call started with stay; a second ask's words replace the first ask's.
    const asked = { ...call.startWording, ...wordingOf(opts?.alwaysOffered, checkedLabels, checkedOptions) };
    let resolve!: (a: ApprovalAnswer) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<ApprovalAnswer>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => {});
    call.answer = { promise, resolve, reject };
    const ops: Op[] = [];
    for (const field of WORDING_FIELDS) {
      const path = messagePath.partField(call.messageIndex, call.partIndex, field);
      if (asked[field] === undefined) {
        if (call.asking[field] !== undefined) ops.push({ op: 'remove', path });
      } else if (JSON.stringify(asked[field]) !== JSON.stringify(call.asking[field])) {
        ops.push({ op: 'add', path, value: asked[field] });
      }
    }
    call.asking = asked;
    if (call.state !== 'awaiting-approval') ops.push({ op: 'replace', path: messagePath.partField(call.messageIndex, call.partIndex, 'requiresApproval'), value: true });
    if (ops.length > 0) this.o.chats.edit(call.run.info.chatId, ops);
    if (call.state !== 'awaiting-approval') this.setState(call, 'awaiting-approval');
    return promise;
  }

  /**
   * `tool.approve`: records the user's answer as a message, then runs or denies the call. The
   * call's new state is in the state before this returns, so the request's result follows its patch.
   */
  async approve(req: RequestOf<'tool.approve'>, client: { kind: ClientKind }): Promise<void> {
    const call = this.find(req.chatId, req.toolCallId);
    if (!call || call.state !== 'awaiting-approval') {
      const part = await this.findPart(req.chatId, req.toolCallId);
      throw new ProtocolError('already_resolved', `Tool call ${req.toolCallId} is ${part.state}, not awaiting approval`, 'toolCallId');
    }
    const chosen = req.optionId === undefined ? undefined : findChosenOption(call, req.optionId, req.approved);
    const response: ToolApprovalResponsePart = { type: 'tool-approval-response', toolCallId: req.toolCallId, approved: req.approved };
    if (req.reason !== undefined) response.reason = req.reason;
    const label = chosen?.label ?? labelOfAnswer(call.asking, req);
    if (label) response.label = label;
    // A chosen option says itself whether it is "always"; a bare `always` counts only where it was
    // offered (an agent that never asked must not be told, nor the chat say, that it holds for good).
    const always = chosen ? chosen.kind.endsWith('_always') : req.always === true && call.asking.alwaysOffered === true;
    if (always) response.always = true;
    const approval: UserMessage = {
      id: makeId('msg'),
      role: 'user',
      content: [response],
      metadata: { source: client.kind, selectedElements: [] },
      createdAt: this.o.now(),
    };
    this.o.chats.addMessage(req.chatId, approval, { urgent: true });
    const waiter = call.answer;
    call.answer = null;
    if (req.approved) {
      this.setState(call, 'running');
      if (!call.started) this.send(call);
    } else {
      this.open.delete(call.toolCallId);
      this.setState(call, 'denied');
      call.abort(new ToolDeniedError(call.toolName, req.reason));
    }
    const answer: ApprovalAnswer = { approved: req.approved };
    if (req.reason !== undefined) answer.reason = req.reason;
    if (always) answer.always = true;
    if (chosen) answer.optionId = chosen.id;
    waiter?.resolve(answer);
  }

  /**
   * Runs a page tool in a toolbar for someone outside any run (an agent using the MCP endpoint):
   * the same dispatch, timeouts and single result as a run's call, but nothing is added to the
   * chat; the agent that asked reports the call in its own reply. Aborting `signal` cancels it.
   *
   * @example const { output } = await tools.callDetached({ chatId, toolName: 'get_selected_elements', input: {} });
   */
  callDetached(request: { chatId: string; toolName: string; input: Record<string, unknown>; preferClientId?: string | undefined; signal?: AbortSignal }): Promise<ToolCallResult> {
    if (this.detached.size >= MAX_DETACHED_CALLS) {
      return Promise.resolve({ output: `Too many page tool calls at once (${MAX_DETACHED_CALLS}); wait for some to finish`, isError: true });
    }
    const toolCallId = makeId('call');
    return new Promise<ToolCallResult>((resolve) => {
      const settle = (result: ToolCallResult) => {
        if (this.detached.get(toolCallId) !== call) return;
        this.detached.delete(toolCallId);
        request.signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const call: DetachedCall = { chatId: request.chatId, settle };
      const onAbort = () => {
        this.o.dispatcher.cancel(toolCallId);
        settle({ output: 'The call was cancelled', isError: true });
      };
      this.detached.set(toolCallId, call);
      if (request.signal?.aborted) return onAbort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.o.dispatcher.dispatch(
        { chatId: request.chatId, toolCallId, toolName: request.toolName, input: request.input, preferClientId: request.preferClientId },
        (message) => settle({ output: message, isError: true }),
      );
    });
  }

  /** Whether a page tool call from outside any run (`callDetached`) is waiting under this id. */
  isDetached(toolCallId: string): boolean {
    return this.detached.has(toolCallId);
  }

  /** `tool.result`: a toolbar answers a call that was sent to it, and only then. */
  async acceptResult(req: RequestOf<'tool.result'>, client: { id: string }): Promise<void> {
    const detached = this.detached.get(req.toolCallId);
    if (detached && detached.chatId === req.chatId) {
      if (this.o.dispatcher.assignedClient(req.toolCallId) !== client.id) {
        throw new ProtocolError('not_allowed', `Tool call ${req.toolCallId} was not sent to this client`, 'toolCallId');
      }
      this.o.dispatcher.settle(req.toolCallId);
      let output: unknown;
      try {
        output = toJsonValue(req.output);
      } catch (error) {
        output = `The result cannot be sent as JSON: ${describeError(error)}`;
      }
      detached.settle({ output, isError: req.isError ?? false });
      return;
    }
    const call = this.find(req.chatId, req.toolCallId);
    if (!call) {
      const part = await this.findPart(req.chatId, req.toolCallId);
      if (part.runtime !== 'toolbar') throw notInToolbar(req.toolCallId, part.runtime);
      if (part.state === 'done' || part.state === 'failed') throw new ProtocolError('already_resolved', `Tool call ${req.toolCallId} already has a result`, 'toolCallId');
      throw new ProtocolError('not_allowed', `Tool call ${req.toolCallId} is ${part.state}, not running`, 'toolCallId');
    }
    if (call.runtime !== 'toolbar') throw notInToolbar(req.toolCallId, call.runtime);
    if (call.state !== 'running') throw new ProtocolError('not_allowed', `Tool call ${req.toolCallId} is ${call.state}, not running`, 'toolCallId');
    if (this.o.dispatcher.assignedClient(req.toolCallId) !== client.id) {
      throw new ProtocolError('not_allowed', `Tool call ${req.toolCallId} was not sent to this client`, 'toolCallId');
    }
    this.o.dispatcher.settle(call.toolCallId);
    this.complete(call, { output: req.output, isError: req.isError ?? false });
  }

  /** The run ended: its open calls end `interrupted`, toolbars are told to stop, the agent's awaits reject. */
  interrupt(run: CallingRun, reason: Error): void {
    for (const call of this.open.values()) {
      if (call.run !== run) continue;
      this.open.delete(call.toolCallId);
      this.setState(call, 'interrupted');
      if (call.runtime === 'toolbar') this.o.dispatcher.cancel(call.toolCallId);
      call.answer?.reject(reason);
      call.abort(reason);
    }
  }

  /** The open call with this id in this chat, if its run is still going. */
  private find(chatId: string, toolCallId: string): OpenCall | undefined {
    const call = this.open.get(toolCallId);
    return call && call.run.info.chatId === chatId && !call.run.finished ? call : undefined;
  }

  /** A call that is no longer open, from the chat itself; `not_found` when it never existed. */
  private async findPart(chatId: string, toolCallId: string): Promise<ToolCallPart> {
    await this.o.chats.load(chatId);
    const part = findToolCallPart(this.o.chats.messages(chatId), toolCallId);
    if (!part) throw new ProtocolError('not_found', `Tool call not found: ${toolCallId}`, 'toolCallId');
    return part;
  }

  private setState(call: OpenCall, state: ToolCallState): void {
    call.state = state;
    this.o.chats.edit(call.run.info.chatId, [{ op: 'replace', path: messagePath.partState(call.messageIndex, call.partIndex), value: state }], {
      urgent: state !== 'running',
    });
  }

  /** Sends a running call where it runs: a toolbar, or this process. */
  private send(call: OpenCall): void {
    const { run } = call;
    call.started = true;
    if (call.runtime === 'toolbar') {
      this.o.dispatcher.dispatch(
        { chatId: run.info.chatId, toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, preferClientId: run.originClientId },
        (message) => this.complete(call, { output: message, isError: true }),
      );
    } else {
      void this.executeHere(call);
    }
  }

  private async executeHere(call: OpenCall): Promise<void> {
    const { run, execute } = call;
    let outcome: ToolCallResult;
    if (!execute) {
      outcome = { output: `Agent ${run.agent.id} has no handler for tool ${call.toolName}`, isError: true };
    } else {
      try {
        outcome = { output: (await execute(call.input, { signal: run.signal, chatId: run.info.chatId })) ?? null, isError: false };
      } catch (error) {
        outcome = { output: describeError(error), isError: true };
      }
    }
    this.complete(call, outcome);
  }

  /** Records a result: a ToolMessage for cli/toolbar calls, a part inside the message for backend. */
  private complete(call: OpenCall, given: ToolCallResult): void {
    const { run } = call;
    if (run.finished || this.open.get(call.toolCallId) !== call) return;
    let outcome: ToolCallResult;
    try {
      outcome = { output: toJsonValue(given.output), isError: given.isError };
    } catch (error) {
      outcome = { output: `The result of ${call.toolName} cannot be sent as JSON: ${describeError(error)}`, isError: true };
    }
    this.open.delete(call.toolCallId);
    let result: ToolResultPart = { type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: outcome.output, isError: outcome.isError, ...(call.title ? { title: call.title } : {}) };
    const bytes = Buffer.byteLength(JSON.stringify(result), 'utf8');
    if (!this.o.chats.hasRoom(run.info.chatId, bytes)) {
      // The chat must still fit in one snapshot: the agent gets a failure it can act on instead.
      const output = `The result of ${call.toolName} (${(bytes / (1024 * 1024)).toFixed(1)} MiB) does not fit in this chat, which is nearly full; start a new chat`;
      outcome = { output, isError: true };
      result = { ...result, output, isError: true };
    }
    if (call.runtime === 'backend') {
      run.writer.addServerPart(call.messageIndex, result);
    } else {
      const message: ToolMessage = { id: makeId('msg'), role: 'tool', content: [result], createdAt: this.o.now() };
      this.o.chats.addMessage(run.info.chatId, message, { urgent: true });
    }
    this.setState(call, outcome.isError ? 'failed' : 'done');
    call.finish(outcome);
  }
}

/** The display fields given, without the ones left out. */
function pickDisplay(given: ToolCallDisplay): ToolCallDisplay {
  const out: ToolCallDisplay = {};
  if (given.title !== undefined) out.title = given.title;
  if (given.kind !== undefined) out.kind = given.kind;
  if (given.locations !== undefined) out.locations = given.locations;
  if (given.display !== undefined) out.display = given.display;
  return out;
}

function notInToolbar(toolCallId: string, runtime: ToolCallPart['runtime']): ProtocolError {
  return new ProtocolError('not_allowed', `Tool call ${toolCallId} runs in ${runtime}, not in a toolbar`, 'toolCallId');
}

/** Finds a tool-call part anywhere in a chat, newest first. */
function findToolCallPart(messages: readonly Message[], toolCallId: string): ToolCallPart | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    for (const p of m.content) if (p.type === 'tool-call' && p.toolCallId === toolCallId) return p;
  }
  return undefined;
}

/** The wording fields a call's part carries, only those given: "always" is offered by any always option. */
function wordingOf(alwaysOffered: boolean | undefined, labels: ApprovalLabels | undefined, options: ApprovalOption[] | undefined): ApprovalWording {
  const wording: ApprovalWording = {};
  // Options at a call's start are checked with the part, after this: no property is trusted here.
  if (alwaysOffered || (Array.isArray(options) && options.some((o) => typeof o?.kind === 'string' && o.kind.endsWith('_always')))) wording.alwaysOffered = true;
  if (labels) wording.approvalLabels = labels;
  if (options) wording.approvalOptions = options;
  return wording;
}

/** The agent's word for an answer given without an option: its "always", its yes or its no, where it named them. */
function labelOfAnswer(asking: ApprovalWording, req: { approved: boolean; always?: boolean | undefined }): string | undefined {
  const labels = asking.approvalLabels;
  if (!req.approved) return labels?.reject;
  return req.always ? labels?.always : labels?.approve;
}

/** The option a `tool.approve` names: one the call offers, and one that says what `approved` says. */
function findChosenOption(call: OpenCall, optionId: string, approved: boolean): ApprovalOption {
  const offered = call.asking.approvalOptions ?? [];
  const option = offered.find((o) => o.id === optionId);
  if (!option) {
    const ids = offered.map((o) => JSON.stringify(o.id)).join(', ');
    throw new ProtocolError('invalid_message', `Tool call ${call.toolCallId} offers ${ids ? `the options ${ids}` : 'no options'}, not ${JSON.stringify(optionId)}`, 'optionId');
  }
  if (isAllowingOption(option) !== approved) {
    throw new ProtocolError('invalid_message', `Option ${JSON.stringify(optionId)} ${approved ? 'rejects' : 'allows'} the call, so approved must be ${!approved}`, 'approved');
  }
  return option;
}
