/**
 * The agent SDK's types: what an agent author writes. See `defineAgent` for an example.
 */
import type {
  AgentInfo,
  FilePart,
  Message,
  RunInfo,
  State,
  ToolDefinition,
  ToolRuntime,
  UserMessage,
} from '../shared/schemas.ts';

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

/** Return nothing to accept, or `{ reject: reason }`: the user sees the reason. */
export type ChatDecision = void | undefined | { reject: string };

export interface CallToolOptions {
  name: string;
  input?: Record<string, unknown>;
  /** Where the call runs; defaults to the tool's declared runtime, else `toolbar`. */
  runtime?: ToolRuntime;
  /** Ask the user first (Approve / Reject in every client). Default false. */
  requiresApproval?: boolean;
}

export interface ToolCallResult {
  output: unknown;
  isError: boolean;
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
}

/** Per-agent state that survives restarts (for example an active skill). */
export interface AgentStateAccess {
  get<T = unknown>(): T | undefined;
  set(value: unknown): void;
  /** Shown in `AgentInfo.activeSkill`. */
  setActiveSkill(skill: string | null): void;
}

export interface RunContext {
  /** This agent's id. */
  agent: string;
  chatId: string;
  /** The whole chat so far, every agent's turns included, ending with `message`. */
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
  reply: ReplyBuilder;
  /**
   * Calls a tool and resolves with its result once approval (if asked), dispatch and the result
   * have happened. Rejects with `ToolDeniedError` when the user rejects it, and with an
   * `AbortError` when the run is stopped.
   */
  callTool(options: CallToolOptions): Promise<ToolCallResult>;
  state: AgentStateAccess;
  /** Resolves after `ms`, or rejects at once when the run is stopped. */
  sleep(ms: number): Promise<void>;
}

export interface AgentDefinition {
  /** A path such as `acme/reviewer`. */
  id: string;
  description: string;
  tools?: AgentTool[];
  workflows?: string[];
  /** Defaults to true when `run` is given. */
  implemented?: boolean;
  run?: (ctx: RunContext) => Promise<void> | void;
  onChatCreate?: (request: ChatRequest) => ChatDecision | Promise<ChatDecision>;
  onChatSwitch?: (request: ChatRequest) => ChatDecision | Promise<ChatDecision>;
  onChatDelete?: (request: ChatRequest) => ChatDecision | Promise<ChatDecision>;
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

/** The `AgentInfo` the state and `GET /agents` show for a definition. */
export function describeAgent(definition: AgentDefinition, activeSkill?: string | null): AgentInfo {
  const info: AgentInfo = {
    id: definition.id,
    description: definition.description,
    implemented: definition.implemented ?? definition.run !== undefined,
    tools: (definition.tools ?? []).map((t) => ({ name: t.name, type: t.type ?? 'deterministic' })),
    workflows: [...(definition.workflows ?? [])],
  };
  if (activeSkill !== undefined) info.activeSkill = activeSkill;
  return info;
}
