/**
 * The agent SDK's types: what an agent author writes. See `defineAgent` for an example.
 */
import type {
  AgentCommand,
  AgentInfo,
  AgentMode,
  AgentSetting,
  ApprovalLabels,
  ApprovalOption,
  ContextUsage,
  FilePart,
  Message,
  PlanEntry,
  RunInfo,
  State,
  ToolDefinition,
  ToolDisplay,
  ToolLocation,
  ToolRuntime,
  UserMessage,
} from '../../shared/schemas.ts';
import { normalizeCommands } from './agent-commands.ts';
import { normalizeModes } from './agent-modes.ts';
import { normalizeSettings, type AgentSettingInput } from './agent-settings.ts';
import type { ContextUsageInput } from './context-usage.ts';

export type { AgentSettingInput };

/** A tool the agent offers. A `cli` tool with `execute` runs in the agent's own process. */
export interface AgentTool {
  name: string;
  description?: string;
  /** `deterministic` when the result follows from the input alone; `decision` when judgment makes it. */
  type?: 'deterministic' | 'decision';
  /** Where calls to it run by default (`cli` when `execute` is given). */
  runtime?: ToolRuntime;
  /** Runs a `cli` call in the server process; its return value is the tool result. */
  execute?: (input: Record<string, unknown>, context: { signal: AbortSignal; chatId: string }) => unknown;
}

/** What a chat create / switch / delete hook sees. */
export interface ChatRequest {
  kind: 'create' | 'switch' | 'delete';
  /** The chat switched to or deleted (absent for create). */
  chatId?: string;
  /** The title asked for (create). */
  title?: string;
  /** The run in progress, if any. */
  run: RunInfo | null;
  /** The live state: read it, never change it (changes would not reach clients or disk). */
  state: Readonly<State>;
}

/** What a mode change hook sees: the user asked this agent to work in another of its modes. */
export interface ModeRequest {
  chatId: string;
  /** The mode asked for: one of the agent's modes. */
  mode: string;
  /** The chat's mode for this agent until now (its first mode when the chat never chose one). */
  previous: string | undefined;
  /** The run in progress, if any (in this chat or another). */
  run: RunInfo | null;
  /** The live state: read it, never change it. */
  state: Readonly<State>;
}

/** What a setting change hook sees: the user asked this agent to change one of its settings in a chat. */
export interface SettingRequest {
  chatId: string;
  /** The setting's id. */
  setting: string;
  /** The value asked for: one of the setting's values. */
  value: string;
  /** The chat's value until now (the setting's default when the chat never chose one). */
  previous: string;
  /** The run in progress, if any (in this chat or another). */
  run: RunInfo | null;
  /** The live state: read it, never change it. */
  state: Readonly<State>;
}

/** Return nothing to accept, or `{ reject: reason }`: the user sees the reason. */
export type ChatDecision = void | undefined | { reject: string };

/** What clients show about a call besides its name and input; every field is optional. */
export interface ToolCallDisplay {
  /** A human title such as "Read src/app.ts". */
  title?: string;
  /** read, edit, delete, move, search, execute, think, fetch, other… */
  kind?: string;
  /** Files the call reads or changes. */
  locations?: ToolLocation[];
  /** Output so far, or file changes (old and new text); replaces what was shown. */
  display?: ToolDisplay[];
}

export interface CallToolOptions extends ToolCallDisplay {
  name: string;
  input?: Record<string, unknown>;
  /** Where the call runs; defaults to the tool's declared runtime, else `toolbar`. */
  runtime?: ToolRuntime;
  /** Ask the user first (Approve / Reject in every client). Default false. */
  requiresApproval?: boolean;
  /**
   * Runs this one `cli` call, in place of the tool's own `execute` (an agent whose tools run
   * elsewhere resolves it when it learns the result; a throw is a failed call).
   */
  execute?: AgentTool['execute'];
  /** The agent also accepts "always" answers (`tool.approve` with `always: true`). */
  alwaysOffered?: boolean;
  /** The agent's words for its answers, shown on the approval's buttons (see `ApprovalLabels`). */
  approvalLabels?: ApprovalLabels;
  /**
   * Every answer you offer, with your ids (see `ApprovalOption`): clients offer each one, and the
   * answer says which was chosen (`optionId`). Give it when three buttons cannot say what you offer.
   */
  approvalOptions?: ApprovalOption[];
}

export interface ToolCallResult {
  output: unknown;
  isError: boolean;
}

/** The user's answer to an approval. */
export interface ApprovalAnswer {
  approved: boolean;
  reason?: string;
  /** The user chose "always" (only when the call said `alwaysOffered`). */
  always?: boolean;
  /** The id of the `approvalOptions` entry the user chose, when the call offered them and the client sent it. */
  optionId?: string;
}

/** A call in progress, for agents that follow it as it goes (see `RunContext.startToolCall`). */
export interface ToolCallHandle {
  readonly toolCallId: string;
  /** Settles like `callTool`'s promise. */
  readonly result: Promise<ToolCallResult>;
  /** Changes what clients show about the call while its run goes on. */
  update(display: ToolCallDisplay & { input?: Record<string, unknown> }): void;
  /**
   * Asks the user (Approve / Reject) now, or returns the answer already asked for with
   * `requiresApproval`. A rejection also ends the call `denied`. Rejects when the run stops.
   */
  requestApproval(options?: { alwaysOffered?: boolean; labels?: ApprovalLabels; options?: ApprovalOption[] }): Promise<ApprovalAnswer>;
}

/** Text can be given whole or streamed. */
export type TextSource = string | AsyncIterable<string> | Iterable<string>;

/** Writes the assistant's reply: each call streams into the current assistant message. */
export interface ReplyBuilder {
  /** Streams text (appends to the current text part, or starts one). */
  text(source: TextSource): Promise<void>;
  /** Streams reasoning, shown collapsed by the toolbar. */
  reasoning(source: TextSource): Promise<void>;
  /** Adds a file (base64 data URL). */
  file(file: Omit<FilePart, 'type'>): void;
  /** Records a call that ran on a remote service, with its result, inside the message. */
  backendToolResult(options: { name: string; input?: Record<string, unknown>; output: unknown; isError?: boolean }): void;
  /** Shows the agent's plan as a checklist on the reply's latest message; each call replaces it. */
  plan(entries: PlanEntry[]): void;
  /**
   * Tells the user something that is neither reply nor tool call (a service it could not reach, a
   * model it fell back to), shown on the reply's latest message; an `error` notice does not end the
   * run. At most 20 per message; past that, they are dropped.
   *
   * @example ctx.reply.notice({ severity: 'warning', title: 'Search is unavailable', description: 'Answering from memory.' })
   */
  notice(notice: NoticeInput): void;
}

/** A notice as an agent gives it: `severity` defaults to `info`; the title is one line, at most 200 characters. */
export interface NoticeInput {
  severity?: 'info' | 'warning' | 'error';
  title: string;
  description?: string;
}

/** Per-agent state that survives restarts (for example an active skill). */
export interface AgentStateAccess {
  get<T = unknown>(): T | undefined;
  set(value: unknown): void;
  /** Shown in `AgentInfo.activeSkill`. */
  setActiveSkill(skill: string | null): void;
  /**
   * The commands this agent takes as a message starting with `/name`, shown in `AgentInfo.commands`
   * (the toolbar offers them as the user types `/`); kept across restarts. Names lose a leading
   * slash; entries without a usable name are left out, at most 200 are kept.
   *
   * @example ctx.state.setCommands([{ name: 'review', description: 'Review the current diff', hint: 'branch name' }]);
   */
  setCommands(commands: readonly AgentCommand[]): void;
  /**
   * The modes this agent offers, shown in `AgentInfo.modes` (the toolbar shows them as a choice
   * beside the message box, first one by default); kept across restarts. Entries without an id
   * are left out, each id is kept once, at most 50.
   *
   * @example ctx.state.setModes([{ id: 'default', name: 'Ask first' }, { id: 'plan', name: 'Plan', description: 'Read only' }]);
   */
  setModes(modes: readonly AgentMode[]): void;
  /**
   * The settings this agent offers per chat, shown in `AgentInfo.settings` (the toolbar shows each
   * as a menu beside the message box); kept across restarts. A setting's `defaultValue` (else its
   * first value) is a chat's until the user picks another. At most 20 settings of 100 values.
   *
   * @example ctx.state.setSettings([{ id: 'model', name: 'Model', options: [{ value: 'small', name: 'Small' }, { value: 'large', name: 'Large' }] }]);
   */
  setSettings(settings: readonly AgentSettingInput[]): void;
  /**
   * Names a chat, as a coding agent names its session once it knows what it is about, during a
   * run or between runs: every client shows the title. A chat the user named (at create or by a
   * rename) keeps its name: returns false, as for a chat that no longer exists. The title is plain
   * words: Markdown marks and line breaks are dropped, and it is cut to 200 characters. Throws a
   * TypeError for a title without words.
   *
   * @example ctx.state.setChatTitle(chatId, 'Fix the login button on mobile');
   */
  setChatTitle(chatId: string, title: string): boolean;
}

export interface RunContext {
  /** This agent's id. */
  agent: string;
  chatId: string;
  /**
   * The chat so far, every agent's turns included, ending with `message`: its shown branch only,
   * so of an answer (or question) with versions, only the one the user chose.
   */
  messages: readonly Message[];
  /** The user message that started this run. */
  message: UserMessage;
  /** The text parts of `message`, joined. */
  text: string;
  /** Aborted when the user presses Stop. */
  signal: AbortSignal;
  /**
   * The tools the connected toolbars declared when the run started (read the picked elements,
   * query the page, highlight an element…), to offer to a model; call them with `callTool`.
   */
  pageTools: readonly ToolDefinition[];
  /**
   * The page's tools as an MCP server (Streamable HTTP) with the headers that open it, for an agent
   * that runs its own tool loop elsewhere; absent when the server does not serve it.
   */
  pageToolServer?: {
    url: string;
    headers: Record<string, string>;
    /** The same tools as a stdio MCP server (`agentbar mcp`), for an agent that takes only those. */
    stdio?: { command: string; args: string[]; env: Record<string, string> };
  };
  reply: ReplyBuilder;
  /**
   * Calls a tool and resolves with its result once approval (if asked), dispatch and the result
   * have happened. Rejects with `ToolDeniedError` when the user rejects it, and with an
   * `AbortError` when the run is stopped.
   */
  callTool(options: CallToolOptions): Promise<ToolCallResult>;
  /**
   * Like `callTool`, but returns at once with a handle to update the call as it goes and to ask
   * for approval midway: for agents whose tools run elsewhere (an ACP agent reports its own).
   *
   * @example
   * const call = ctx.startToolCall({ name: 'edit', runtime: 'cli', execute: () => done });
   * call.update({ title: 'Edit app.ts', locations: [{ path: '/src/app.ts' }] });
   */
  startToolCall(options: CallToolOptions): ToolCallHandle;
  state: AgentStateAccess;
  /**
   * This chat's mode for this agent, read when asked (the user may change it during the run): the
   * one the user chose, else the agent's first mode; undefined when the agent offers no modes.
   */
  readonly mode: string | undefined;
  /**
   * Records that the agent changed its own mode in this chat (a coding agent leaving plan mode to
   * carry out the plan): every client shows it. Throws for an id not among the agent's modes.
   *
   * @example ctx.setMode('acceptEdits');
   */
  setMode(mode: string): void;
  /**
   * This chat's value of each of the agent's settings, by setting id, read when asked (the user
   * may change one during the run): the user's choice, else the setting's default.
   */
  readonly settings: Readonly<Record<string, string>>;
  /**
   * Records that the agent changed one of its settings in this chat (it fell back to another
   * model, say): every client shows it. Throws for a setting or value the agent does not offer.
   *
   * @example ctx.setSetting('model', 'sonnet');
   */
  setSetting(setting: string, value: string): void;
  /**
   * Reports how full the agent's context window is in this chat (and, optionally, what the session
   * has cost): the toolbar shows it beside the message box, `/usage` in the terminal. Report it
   * when it changes (after a model call, say), not per token; an unchanged report sends nothing.
   * `null` takes the agent's report in this chat away, when it no longer holds (another model,
   * with another window, answers now). Throws a TypeError for counts that are not numbers of 0 or more.
   *
   * @example ctx.setUsage({ used: 41_250, size: 200_000, cost: { amount: 0.42, currency: 'USD' } });
   */
  setUsage(usage: ContextUsageInput | null): void;
  /**
   * Names this chat: `ctx.state.setChatTitle(ctx.chatId, title)`. False when the user named it.
   *
   * @example ctx.setTitle('Fix the login button on mobile');
   */
  setTitle(title: string): boolean;
  /**
   * The agent's last report in this chat (whole tokens, as the chat keeps it), read when asked;
   * undefined when it has made none.
   *
   * @example if (ctx.usage && ctx.usage.size !== myWindow) ctx.setUsage(null);
   */
  readonly usage: ContextUsage | undefined;
  /** Resolves after `ms`, or rejects at once when the run is stopped. */
  sleep(ms: number): Promise<void>;
}

export interface AgentDefinition {
  /** A path such as `acme/reviewer`. */
  id: string;
  description: string;
  tools?: AgentTool[];
  workflows?: string[];
  /**
   * The commands the agent takes as a message starting with `/name`, shown in `AgentInfo.commands`
   * from the start (the toolbar offers them as the user types `/`); `ctx.state.setCommands`
   * replaces them at run time.
   */
  commands?: readonly AgentCommand[];
  /**
   * The modes the agent offers, shown in `AgentInfo.modes` from the start (the first is a chat's
   * mode until the user picks another); `ctx.state.setModes` replaces them at run time.
   */
  modes?: readonly AgentMode[];
  /**
   * The settings the agent offers per chat (a model, a reasoning level), shown in
   * `AgentInfo.settings` from the start; `ctx.state.setSettings` replaces them at run time.
   */
  settings?: readonly AgentSettingInput[];
  /** Defaults to true when `run` is given. */
  implemented?: boolean;
  run?: (ctx: RunContext) => Promise<void> | void;
  onChatCreate?: (request: ChatRequest) => ChatDecision | Promise<ChatDecision>;
  onChatSwitch?: (request: ChatRequest) => ChatDecision | Promise<ChatDecision>;
  onChatDelete?: (request: ChatRequest) => ChatDecision | Promise<ChatDecision>;
  /**
   * Called when the user picks another of the agent's modes for a chat (`mode.set`); without it
   * every change is accepted. The run reads the chat's mode as `ctx.mode`.
   */
  onModeChange?: (request: ModeRequest) => ChatDecision | Promise<ChatDecision>;
  /**
   * Called when the user picks another value of one of the agent's settings for a chat
   * (`setting.set`); without it every change is accepted. The run reads them as `ctx.settings`.
   */
  onSettingChange?: (request: SettingRequest) => ChatDecision | Promise<ChatDecision>;
  /** Called when the server closes: stop processes the agent started, close connections. */
  dispose?: () => void | Promise<void>;
}

/** Thrown by `callTool` when the user rejects the call. */
export class ToolDeniedError extends Error {
  constructor(
    readonly toolName: string,
    readonly reason: string | undefined,
  ) {
    super(reason ? `The user rejected ${toolName}: ${reason}` : `The user rejected ${toolName}`);
    this.name = 'ToolDeniedError';
  }
}

/**
 * Declares an agent. Identity function: it exists for types and for a readable call site.
 *
 * @example
 * const echo = defineAgent({
 *   id: 'me/echo',
 *   description: 'Repeats what you say',
 *   async run(ctx) {
 *     await ctx.reply.text(`You said: ${ctx.text}`);
 *   },
 * });
 */
export function defineAgent(definition: AgentDefinition): AgentDefinition {
  return definition;
}

/** The `AgentInfo` the state and `GET /agents` show for a definition; `commands`, `modes` and `settings` set at run time replace its own. */
export function describeAgent(
  definition: AgentDefinition,
  activeSkill?: string | null,
  commands?: readonly AgentCommand[],
  modes?: readonly AgentMode[],
  settings?: readonly AgentSetting[],
): AgentInfo {
  const info: AgentInfo = {
    id: definition.id,
    description: definition.description,
    implemented: definition.implemented ?? definition.run !== undefined,
    tools: (definition.tools ?? []).map((t) => ({ name: t.name, type: t.type ?? 'deterministic' })),
    workflows: [...(definition.workflows ?? [])],
  };
  if (activeSkill !== undefined) info.activeSkill = activeSkill;
  const shown = commands ?? (definition.commands ? normalizeCommands(definition.commands) : undefined);
  if (shown?.length) info.commands = [...shown];
  const offered = modes ?? (definition.modes ? normalizeModes(definition.modes) : undefined);
  if (offered?.length) info.modes = [...offered];
  const choices = settings ?? (definition.settings ? normalizeSettings(definition.settings) : undefined);
  if (choices?.length) info.settings = [...choices];
  return info;
}
