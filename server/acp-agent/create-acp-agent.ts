/**
 * An agentbar agent backed by any coding agent that speaks ACP (Claude Code through its ACP
 * adapter, Gemini CLI, …): one ACP session per chat, the user's message and page context as the
 * prompt, the agent's text, thoughts, tool calls, plan and permission requests streamed into the
 * reply, Stop as `session/cancel`.
 */
import path from 'node:path';
import { methods, type AgentCapabilities, type AvailableCommand, type ClientContext, type McpServer, type NewSessionResponse, type SessionConfigOption, type SessionModeState, type SetSessionConfigOptionResponse, type RequestPermissionRequest, type RequestPermissionResponse, type SessionUpdate, type ToolCall, type ToolCallUpdate, type UsageUpdate } from '@agentclientprotocol/sdk';
import { LIMITS } from '../../shared/limits.ts';
import type { ApprovalLabels, ApprovalOption } from '../../shared/schemas.ts';
import type { AgentDefinition, AgentStateAccess, ApprovalAnswer, RunContext, ToolCallHandle } from '../sdk/agent.ts';
import { describeError } from '../sync/describe-error.ts';
import { HOOK_TIMEOUT_MS } from '../sync/requests.ts';
import { AcpProcess, withTimeout } from './acp-process.ts';
import { deriveAcpId } from './derive-acp-id.ts';
import { describeAcpError } from './describe-acp-error.ts';

export { deriveAcpId };
import { describeAuthRequired, isAuthRequired } from './describe-auth.ts';
import { hasModeOption, isBooleanOption, readCurrentValues, toAgentSettings } from './session-settings.ts';
import { approvalLabelsOf, approvalOptionsOf, buildAcpPrompt, chooseOption, describeHistory, describeNotTaken, listNotTaken, textOfContent, textOfRawOutput, toDisplay, toInput, toLocations, toPlan, toTitle } from './map-acp.ts';

export interface AcpAgentOptions {
  /** The command that starts the agent, and its arguments. */
  command: string;
  args?: readonly string[];
  /** Agent id; by default derived from the command (`acp/claude-agent`). */
  id?: string;
  description?: string;
  /** Where sessions start and the only folder the agent may read and write through agentbar. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** How long starting the process, `initialize` and `session/new` may take (default 60 s). */
  startTimeoutMs?: number;
  log?: (level: 'info' | 'warn', message: string) => void;
}

/** What this agent keeps across restarts: the ACP session of each chat, and what a new session starts with. */
interface AcpAgentState {
  sessions: Record<string, string>;
  /** Each config option's value in the latest new session: a chat's until it picks another. */
  defaults?: Record<string, string>;
}

/**
 * How long the agent may take to change a session's mode: under the server's time for a hook, so
 * the user reads that the agent did not switch, not that it failed to answer.
 */
const SET_MODE_TIMEOUT_MS = HOOK_TIMEOUT_MS - 2_000;

/** Asks the agent to put a session in a mode; rejects with its refusal, or after SET_MODE_TIMEOUT_MS. */
function requestMode(agent: ClientContext, sessionId: string, modeId: string): Promise<unknown> {
  return withTimeout(agent.request(methods.agent.session.setMode, { sessionId, modeId }), SET_MODE_TIMEOUT_MS, 'The agent did not change its mode');
}

/**
 * Asks the agent to change one of a session's config options (a boolean one takes `type:
 * "boolean"` and a boolean); rejects with its refusal, or after SET_MODE_TIMEOUT_MS.
 */
function requestSetting(agent: ClientContext, sessionId: string, configId: string, value: string, isBoolean: boolean): Promise<SetSessionConfigOptionResponse> {
  const params = isBoolean ? { sessionId, configId, type: 'boolean' as const, value: value === 'true' } : { sessionId, configId, value };
  return withTimeout(agent.request(methods.agent.session.setConfigOption, params), SET_MODE_TIMEOUT_MS, 'The agent did not change the setting');
}

/** Sessions whose latest config options are kept in memory; past it the oldest are forgotten (and read again when they open). */
const MAX_KEPT_CONFIGS = LIMITS.maxChats;

/** How long a new turn waits for the previous (stopped) turn of its session to wind down. */
const PREVIOUS_TURN_WAIT_MS = 10_000;

/**
 * An agent that forwards each chat to an ACP coding agent run as a child process.
 *
 * @example
 * const claude = createAcpAgent({ command: 'npx', args: ['@zed-industries/claude-agent-acp'], cwd: process.cwd() });
 * await startServer({ agents: [claude] });
 */
export function createAcpAgent(options: AcpAgentOptions): AgentDefinition {
  const args = options.args ?? [];
  const id = options.id ?? deriveAcpId(options.command, args);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const log = options.log ?? (() => {});
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  /** Where the agent's commands go: its state, known from its first run (which starts the process). */
  let agentState: AgentStateAccess | null = null;
  const onCommands = (commands: readonly AvailableCommand[]) => {
    try {
      agentState?.setCommands(commands.map((c) => ({ name: c.name, description: c.description, ...(c.input?.hint ? { hint: c.input.hint } : {}) })));
    } catch (error) {
      log('warn', `${id} announced commands agentbar could not keep: ${describeError(error)}`);
    }
  };
  /** Each open session's config options as the agent last gave them (it may change them between turns). */
  const configs = new Map<string, SessionConfigOption[]>();
  /** Each session's mode as the agent last changed it itself (a turn shows it; between turns, the next turn does). */
  const modesNow = new Map<string, string>();
  const keepMode = (sessionId: string, modeId: string) => keepLatest(modesNow, sessionId, modeId);
  /** Each session's context usage as the agent last gave it, for the next turn when it came between turns. */
  const usageNow = new Map<string, UsageUpdate>();
  const keepUsage = (sessionId: string, usage: UsageUpdate) => keepLatest(usageNow, sessionId, usage);
  const keepConfig = (sessionId: string, options: readonly SessionConfigOption[] | null | undefined) => {
    if (Array.isArray(options)) keepLatest(configs, sessionId, [...options]);
  };
  const acp = new AcpProcess({
    command: options.command,
    args,
    cwd,
    ...(options.env ? { env: options.env } : {}),
    startTimeoutMs,
    log,
    onCommands,
    // Between turns too: the menus follow at once, and each chat's value at its next turn.
    onConfigOptions: (sessionId, options) => {
      keepConfig(sessionId, options);
      if (agentState) publishSettings(agentState, options);
    },
    onModeUpdate: (sessionId, modeId) => typeof modeId === 'string' && keepMode(sessionId, modeId),
    onUsage: keepUsage,
    onTitle: (sessionId, title) => {
      // The chat of that session: sessions are kept by chat, at most one per chat.
      const sessions = agentState?.get<AcpAgentState>()?.sessions ?? {};
      const chatId = Object.keys(sessions).find((chat) => sessions[chat] === sessionId);
      if (!chatId || !agentState) return;
      try {
        agentState.setChatTitle(chatId, title);
      } catch {
        // a title without words: the chat keeps its name
      }
    },
  });
  /** Turns still winding down, by session: the next prompt waits for them. */
  const turns = new Map<string, Promise<unknown>>();

  const readState = (ctx: Pick<RunContext, 'state'>): AcpAgentState => {
    const saved = ctx.state.get<AcpAgentState>();
    const defaults = saved && typeof saved.defaults === 'object' && saved.defaults !== null ? { defaults: { ...saved.defaults } } : {};
    return { sessions: { ...(saved && typeof saved.sessions === 'object' ? saved.sessions : {}) }, ...defaults };
  };

  /** The session's options become the agent's settings (and its `mode` option replaces ACP's older modes). */
  function publishSettings(state: Pick<AgentStateAccess, 'setSettings' | 'setModes' | 'get'>, options: readonly SessionConfigOption[]): void {
    try {
      const saved = state.get<AcpAgentState>();
      state.setSettings(toAgentSettings(options, saved?.defaults ?? {}));
      if (hasModeOption(options)) state.setModes([]);
    } catch (error) {
      log('warn', `${id} announced settings agentbar could not keep: ${describeError(error)}`);
    }
  }

  /** The chat shows the values the session really has (the agent refused a pick, or changed one as another changed). */
  function showSessionValues(ctx: RunContext, options: readonly SessionConfigOption[]): void {
    const shown = ctx.settings;
    for (const [setting, value] of Object.entries(readCurrentValues(options))) {
      if (shown[setting] === undefined || shown[setting] === value) continue;
      try {
        ctx.setSetting(setting, value);
      } catch {
        // a value agentbar could not keep (too long, say): the chat keeps what it shows
      }
    }
  }

  /**
   * A session just opened with these options: they become the agent's settings, the session is
   * given each value the chat shows (which the user may have picked before it existed), and the
   * chat then shows what the session took.
   */
  async function applySettings(ctx: RunContext, agent: ClientContext, sessionId: string, options: readonly SessionConfigOption[] | null | undefined): Promise<void> {
    if (!Array.isArray(options) || options.length === 0) return;
    keepConfig(sessionId, options);
    let latest: readonly SessionConfigOption[] = options;
    publishSettings(ctx.state, latest);
    for (const setting of Object.keys(readCurrentValues(options))) {
      const wanted = ctx.settings[setting];
      // Read again each time: setting one option (the model) may have changed another (the reasoning level).
      if (wanted === undefined || wanted === readCurrentValues(latest)[setting]) continue;
      try {
        latest = (await requestSetting(agent, sessionId, setting, wanted, isBooleanOption(latest, setting) === true)).configOptions ?? latest;
        keepConfig(sessionId, latest);
        publishSettings(ctx.state, latest);
      } catch (error) {
        log('warn', `${id} did not set ${setting} to ${wanted} in session ${sessionId}: ${describeAcpError(error)}`);
      }
    }
    showSessionValues(ctx, latest);
  }

  /** The session for this chat: the known one, the one the agent can load, or a new one. */
  async function openSession(ctx: RunContext, agent: ClientContext, known: Set<string>, caps: AgentCapabilities | undefined): Promise<{ sessionId: string; history: string | null }> {
    const state = readState(ctx);
    const stored = state.sessions[ctx.chatId];
    const canLoad = caps?.loadSession === true;
    const mcpServers = pageToolServers(ctx.pageToolServer, caps);
    if (stored && known.has(stored)) return { sessionId: stored, history: null };
    if (stored && canLoad) {
      try {
        // The agent replays the conversation as updates while loading: nobody listens, so none of it is shown again.
        const loaded = await withTimeout(agent.request(methods.agent.session.load, { sessionId: stored, cwd, mcpServers }), startTimeoutMs, 'The agent did not load its session');
        known.add(stored);
        await applyModes(ctx, agent, stored, loaded?.modes, loaded?.configOptions);
        return { sessionId: stored, history: null };
      } catch (error) {
        log('warn', `${id} could not load session ${stored}: ${describeAcpError(error)}; starting a new one`);
      }
    }
    const created = await withTimeout<NewSessionResponse>(agent.request(methods.agent.session.new, { cwd, mcpServers }), startTimeoutMs, 'The agent did not start a session');
    known.add(created.sessionId);
    delete state.sessions[ctx.chatId];
    state.sessions[ctx.chatId] = created.sessionId;
    // Deleted chats leave their sessions behind: the oldest go once there are more than chats can be.
    const ids = Object.keys(state.sessions);
    for (const old of ids.slice(0, Math.max(0, ids.length - LIMITS.maxChats))) delete state.sessions[old];
    if (Array.isArray(created.configOptions) && created.configOptions.length) state.defaults = readCurrentValues(created.configOptions);
    ctx.state.set(state);
    await applyModes(ctx, agent, created.sessionId, created.modes, created.configOptions);
    const earlier = ctx.messages.slice(0, -1);
    return { sessionId: created.sessionId, history: earlier.length > 0 ? describeHistory(earlier) : null };
  }

  /** A session just opened: its config options when it has them, else its modes (ACP's older form of the same choice). */
  async function applyModes(ctx: RunContext, agent: ClientContext, sessionId: string, modes: SessionModeState | null | undefined, options: SessionConfigOption[] | null | undefined): Promise<void> {
    // What the session says now is newer than a change it reported before it was (re)opened.
    modesNow.delete(sessionId);
    await applySettings(ctx, agent, sessionId, options);
    if (!options || !hasModeOption(options)) await applyMode(ctx, agent, sessionId, modes);
  }

  /**
   * A session just opened: its modes become the agent's, and it is put in the mode the chat shows
   * (the one the user chose, else the first), which the user may have picked before it existed.
   */
  async function applyMode(ctx: RunContext, agent: ClientContext, sessionId: string, modes: SessionModeState | null | undefined): Promise<void> {
    if (!modes?.availableModes?.length) return;
    try {
      ctx.state.setModes(modes.availableModes.map((m) => ({ id: m.id, name: m.name, ...(m.description ? { description: m.description } : {}) })));
    } catch (error) {
      log('warn', `${id} announced modes agentbar could not keep: ${describeError(error)}`);
      return;
    }
    const wanted = ctx.mode;
    if (wanted === undefined || wanted === modes.currentModeId) return;
    try {
      await requestMode(agent, sessionId, wanted);
    } catch (error) {
      // The session works on in its own mode: the chat says which, rather than a mode it is not in.
      log('warn', `${id} did not switch session ${sessionId} to mode ${wanted}: ${describeAcpError(error)}`);
      if (modes.availableModes.some((m) => m.id === modes.currentModeId)) ctx.setMode(modes.currentModeId);
    }
  }

  return {
    id,
    description: options.description ?? `${[options.command, ...args].join(' ')} over ACP, in ${cwd}`,
    /** A chat whose session is open changes mode at once; otherwise the session starts in it when it opens. */
    async onModeChange({ chatId, mode }) {
      const sessionId = agentState?.get<AcpAgentState>()?.sessions?.[chatId];
      if (!sessionId || !acp.running) return;
      const { agent, known } = await acp.ensure();
      if (!known.has(sessionId)) return;
      try {
        await requestMode(agent, sessionId, mode);
      } catch (error) {
        return { reject: `${id} did not change its mode: ${describeAcpError(error)}` };
      }
      // The user's pick is newer than a change the agent made itself before it.
      keepMode(sessionId, mode);
    },
    /** Like a mode: at once in an open session (whose answer may change other options too), else when it opens. */
    async onSettingChange({ chatId, setting, value, state }) {
      const sessionId = agentState?.get<AcpAgentState>()?.sessions?.[chatId];
      if (!sessionId || !acp.running) return;
      const { agent, known } = await acp.ensure();
      if (!known.has(sessionId)) return;
      let answer;
      try {
        // The session's options say how the agent takes the value; the settings shown say it as well, should those be forgotten.
        const isBoolean = isBooleanOption(configs.get(sessionId), setting) ?? state.agents.find((a) => a.id === id)?.settings?.find((s) => s.id === setting)?.type === 'boolean';
        answer = await requestSetting(agent, sessionId, setting, value, isBoolean);
      } catch (error) {
        return { reject: `${id} did not change ${setting}: ${describeAcpError(error)}` };
      }
      if (Array.isArray(answer?.configOptions)) {
        keepConfig(sessionId, answer.configOptions);
        if (agentState) publishSettings(agentState, answer.configOptions);
      }
    },
    async run(ctx) {
      agentState = ctx.state;
      let session;
      try {
        session = await acp.ensure();
      } catch (error) {
        throw new Error(describeError(error));
      }
      const { agent, init, known } = session;
      let opened;
      try {
        opened = await openSession(ctx, agent, known, init.agentCapabilities);
      } catch (error) {
        if (isAuthRequired(error)) throw new Error(describeAuthRequired(id, init.authMethods, error));
        throw new Error(await acp.describeFailure(error));
      }
      const { sessionId, history } = opened;
      // Options the agent changed since the last turn (another followed a pick, or it moved one itself).
      const latest = configs.get(sessionId);
      if (latest) showSessionValues(ctx, latest);
      const modeNow = modesNow.get(sessionId);
      modesNow.delete(sessionId);
      if (modeNow !== undefined && modeNow !== ctx.mode) {
        try {
          ctx.setMode(modeNow);
        } catch {
          // a mode it never announced: the chat keeps the one it shows
        }
      }
      const usage = usageNow.get(sessionId);
      usageNow.delete(sessionId);
      if (usage) showUsage(ctx, usage);
      const previous = turns.get(sessionId);
      if (previous) await withTimeout(previous, PREVIOUS_TURN_WAIT_MS, 'The previous turn did not end').catch(() => {});
      ctx.signal.throwIfAborted();

      const caps = init.agentCapabilities?.promptCapabilities;
      const notTaken = listNotTaken(ctx.message, caps);
      if (notTaken.length) ctx.reply.notice(describeNotTaken(notTaken));

      const turn = new AcpTurn(ctx);
      turn.onConfigOptions = (options) => {
        keepConfig(sessionId, options);
        publishSettings(ctx.state, options);
        showSessionValues(ctx, options);
      };
      acp.listen(sessionId, turn);
      const cancel = () => {
        turn.cancelled = true;
        void agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => {});
      };
      turn.onError = cancel;
      ctx.signal.addEventListener('abort', cancel, { once: true });
      const prompt = agent.request(methods.agent.session.prompt, { sessionId, prompt: buildAcpPrompt(ctx.message, caps, history ?? undefined) });
      const settled = prompt.then(
        () => undefined,
        () => undefined,
      );
      turns.set(sessionId, settled);
      void settled.then(() => {
        if (turns.get(sessionId) === settled) turns.delete(sessionId);
        acp.unlisten(sessionId, turn);
        ctx.signal.removeEventListener('abort', cancel);
      });
      let response;
      try {
        response = await prompt;
      } catch (error) {
        if (ctx.signal.aborted) return;
        if (turn.error) throw turn.error;
        if (isAuthRequired(error)) throw new Error(describeAuthRequired(id, init.authMethods, error));
        throw new Error(await acp.describeFailure(error));
      }
      if (turn.error) throw turn.error;
      switch (response.stopReason) {
        case 'refusal':
          throw new Error('The agent refused to go on with this request');
        case 'max_tokens':
          throw new Error('The agent stopped: it reached its token limit');
        case 'max_turn_requests':
          throw new Error('The agent stopped: it reached its limit of requests for one turn');
        default:
          turn.settleOpenCalls();
      }
    },
    dispose: () => acp.stop(),
  };
}

/**
 * The page tools for a session: over HTTP to an agent that says it takes HTTP MCP servers (ACP lets
 * a client pass one only then), else as the `agentbar mcp` stdio bridge, which every agent takes.
 */
function pageToolServers(server: RunContext['pageToolServer'], caps: AgentCapabilities | undefined): McpServer[] {
  if (!server) return [];
  const toPairs = (record: Record<string, string>) => Object.entries(record).map(([name, value]) => ({ name, value }));
  if (caps?.mcpCapabilities?.http) return [{ type: 'http', name: 'agentbar-page', url: server.url, headers: toPairs(server.headers) }];
  if (server.stdio) return [{ name: 'agentbar-page', command: server.stdio.command, args: server.stdio.args, env: toPairs(server.stdio.env) }];
  return [];
}

/** Sets a session's entry as the newest; past MAX_KEPT_CONFIGS sessions the oldest are forgotten. */
function keepLatest<T>(map: Map<string, T>, sessionId: string, value: T): void {
  map.delete(sessionId);
  map.set(sessionId, value);
  for (const old of map.keys()) {
    if (map.size <= MAX_KEPT_CONFIGS) break;
    map.delete(old);
  }
}

/**
 * Shows how full the session's context is beside the chat's message box. A usage agentbar cannot
 * show (a negative count, say) is left out: no reason to end the turn.
 */
function showUsage(ctx: RunContext, update: UsageUpdate): void {
  try {
    ctx.setUsage({ used: update.used, size: update.size, cost: update.cost ? { amount: update.cost.amount, currency: update.cost.currency } : undefined });
  } catch {
    // not a usage the chat can show
  }
}

/** ACP's severities are open-ended; one agentbar does not know is shown as info. */
function toSeverity(severity: unknown): 'info' | 'warning' | 'error' {
  return severity === 'warning' || severity === 'error' ? severity : 'info';
}

/** One prompt turn: writes what the agent reports into the reply, in the order it arrives. */
class AcpTurn {
  /** `shown`: the agent gave the call content to show; one that never did shows its raw output's words when it ends. */
  private readonly calls = new Map<string, { handle: ToolCallHandle; settle: (outcome: { output: unknown } | { error: string }) => void; settled: boolean; shown: boolean }>();
  /** The first write that failed (a full chat, an invalid part): the turn ends with it. */
  error: Error | null = null;
  cancelled = false;
  onError: () => void = () => {};
  /** The agent changed its config options during the turn (it may move its own model or mode). */
  onConfigOptions: (options: SessionConfigOption[]) => void = () => {};

  constructor(private readonly ctx: RunContext) {}

  update(update: SessionUpdate): void {
    if (this.error || this.ctx.signal.aborted) return;
    try {
      this.apply(update);
    } catch (error) {
      if (this.ctx.signal.aborted) return;
      this.error = error instanceof Error ? error : new Error(String(error));
      this.onError();
    }
  }

  private apply(update: SessionUpdate): void {
    const { reply } = this.ctx;
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') void reply.text(update.content.text).catch((e: unknown) => this.fail(e));
        else if (update.content.type === 'image') reply.file({ data: `data:${update.content.mimeType};base64,${update.content.data}`, mimeType: update.content.mimeType });
        return;
      case 'agent_thought_chunk':
        if (update.content.type === 'text') void reply.reasoning(update.content.text).catch((e: unknown) => this.fail(e));
        return;
      case 'tool_call':
        if (this.calls.has(update.toolCallId)) this.updateCall(update);
        else this.startCall(update, false);
        return;
      case 'tool_call_update':
        if (this.calls.has(update.toolCallId)) this.updateCall(update);
        else this.startCall({ ...update, title: update.title ?? update.toolCallId } as ToolCall, false);
        return;
      case 'plan':
        reply.plan(toPlan(update.entries));
        return;
      case 'current_mode_update':
        // The agent changed its own mode (leaving plan mode to carry the plan out): the chat shows it.
        // A mode it never announced is not shown, and is no reason to end the turn.
        try {
          this.ctx.setMode(update.currentModeId);
        } catch {
          // not one of its modes
        }
        return;
      case 'config_option_update':
        if (Array.isArray(update.configOptions)) this.onConfigOptions(update.configOptions);
        return;
      case 'usage_update':
        showUsage(this.ctx, update);
        return;
      case 'notice':
        // Shown on the reply; an error notice does not end the turn (ACP says so).
        reply.notice({ severity: toSeverity(update.severity), title: update.title, ...(update.description ? { description: update.description } : {}) });
        return;
      default:
        // Commands, session info: nothing a reply shows.
        return;
    }
  }

  private fail(error: unknown): void {
    if (this.error || this.ctx.signal.aborted) return;
    this.error = error instanceof Error ? error : new Error(String(error));
    this.onError();
  }

  private startCall(call: ToolCall, requiresApproval: boolean, asking: { alwaysOffered: boolean; labels: ApprovalLabels | undefined; options: ApprovalOption[] | undefined } | null = null): ToolCallHandle {
    let settle!: (outcome: { output: unknown } | { error: string }) => void;
    const outcome = new Promise<unknown>((resolve, reject) => {
      settle = (o) => ('error' in o ? reject(new Error(o.error)) : resolve(o.output));
    });
    const input = toInput(call.rawInput);
    const handle = this.ctx.startToolCall({
      name: call.name || call.kind || 'tool',
      runtime: 'cli',
      requiresApproval,
      ...(asking?.alwaysOffered ? { alwaysOffered: true } : {}),
      ...(asking?.labels ? { approvalLabels: asking.labels } : {}),
      ...(asking?.options ? { approvalOptions: asking.options } : {}),
      ...(input ? { input } : {}),
      ...(call.title ? { title: toTitle(call.title) } : {}),
      ...(call.kind ? { kind: call.kind } : {}),
      ...(call.locations?.length ? { locations: toLocations(call.locations) } : {}),
      ...(call.content?.length ? { display: toDisplay(call.content) } : {}),
      execute: () => outcome,
    });
    const entry = { handle, settle, settled: false, shown: Boolean(call.content?.length) };
    this.calls.set(call.toolCallId, entry);
    this.settleIfDone(call.toolCallId, call);
    return handle;
  }

  private updateCall(update: ToolCallUpdate): void {
    const entry = this.calls.get(update.toolCallId)!;
    if (update.content?.length) entry.shown = true;
    const input = toInput(update.rawInput);
    entry.handle.update({
      ...(update.title ? { title: toTitle(update.title) } : {}),
      ...(update.kind ? { kind: update.kind } : {}),
      ...(update.locations ? { locations: toLocations(update.locations) } : {}),
      ...(update.content ? { display: toDisplay(update.content) } : {}),
      ...(input ? { input } : {}),
    });
    this.settleIfDone(update.toolCallId, update);
  }

  private settleIfDone(toolCallId: string, update: ToolCallUpdate): void {
    const entry = this.calls.get(toolCallId)!;
    if (entry.settled) return;
    const text = textOfContent(update.content);
    const ending = update.status === 'completed' || update.status === 'failed';
    // Codex reports a command's output only in rawOutput: shown as the call's output, not only as the result's JSON.
    const rawText = ending && !entry.shown ? textOfRawOutput(update.rawOutput) : null;
    if (rawText) {
      entry.shown = true;
      entry.handle.update({ display: [{ type: 'text', text: rawText }] });
    }
    if (update.status === 'completed') {
      entry.settled = true;
      entry.settle({ output: update.rawOutput ?? text ?? null });
    } else if (update.status === 'failed') {
      entry.settled = true;
      entry.settle({ error: text ?? rawText ?? (update.rawOutput !== undefined ? JSON.stringify(update.rawOutput) : 'The tool call failed') });
    }
  }

  /** The turn ended: a call the agent never finished is done, with what it showed. */
  settleOpenCalls(): void {
    for (const entry of this.calls.values()) {
      if (entry.settled) continue;
      entry.settled = true;
      entry.settle({ output: null });
    }
  }

  async requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    const cancelled: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
    if (this.ctx.signal.aborted || this.error) return cancelled;
    const alwaysOffered = request.options.some((o) => o.kind === 'allow_always' || o.kind === 'reject_always');
    const asking = { alwaysOffered, labels: approvalLabelsOf(request.options), options: approvalOptionsOf(request.options) };
    try {
      const known = this.calls.get(request.toolCall.toolCallId);
      let asked: Promise<ApprovalAnswer>;
      if (known) {
        this.updateCall(request.toolCall);
        asked = known.handle.requestApproval(asking);
      } else {
        // Asking from its first word: the call starts with "always" and the agent's words on it.
        const handle = this.startCall({ ...request.toolCall, title: request.toolCall.title ?? request.toolCall.toolCallId } as ToolCall, true, asking);
        asked = handle.requestApproval();
      }
      const aborted = new Promise<null>((resolve) => {
        if (signal.aborted) resolve(null);
        signal.addEventListener('abort', () => resolve(null), { once: true });
      });
      const answer = await Promise.race([asked, aborted]);
      if (!answer) return cancelled;
      const response: RequestPermissionResponse = { outcome: chooseOption(request.options, answer) };
      if (answer.reason) response._meta = { reason: answer.reason };
      return response;
    } catch {
      // The run was stopped or the call already ended: the agent hears "cancelled".
      return cancelled;
    }
  }
}
