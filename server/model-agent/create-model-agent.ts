/**
 * `createModelAgent`: an agentbar agent backed by any AI SDK language model. It streams text and
 * reasoning as they come, offers the model the page's tools, its own `cli` tools and the two skill
 * tools, runs each call through agentbar (approval when the tool asks for it), feeds the results
 * back and goes on, for a bounded number of steps. Stop aborts the model request; provider errors
 * end the message `failed` with a readable reason.
 */
import { jsonSchema, streamText, tool, UnsupportedFunctionalityError, type LanguageModel, type ModelMessage, type ToolResultPart, type ToolSet } from 'ai';
import { LIMITS } from '../../shared/limits.ts';
import { formatList } from '../../shared/format.ts';
import { truncateText } from '../../shared/truncate.ts';
import type { ToolDefinition } from '../../shared/schemas.ts';
import { defineAgent, ToolDeniedError, type AgentDefinition, type AgentSettingInput, type AgentTool, type RunContext } from '../sdk/agent.ts';
import { addAlwaysAllowed, listAlwaysAllowed, removeAlwaysAllowed, type AlwaysAllowed } from './always-allowed.ts';
import { describeLeftOut, describeUnreadable, describeUnsendableImages, listUnreadable, listUnsendableImages, withoutMedia } from './attachments.ts';
import { buildModelMessages, DEFAULT_HISTORY_MESSAGES } from './build-prompt.ts';
import { describeModelError } from './describe-model-error.ts';
import { buildSessionMemory, type MemoryOptions } from './session-memory.ts';
import { createSkillSource, SKILL_TOOLS, type SkillSource } from './skill-source.ts';
import { checkPrice, costOfCall, type CallTokens, type CheckedPrice, type ModelPrice } from './model-price.ts';
import { createThinkSplitter, type ThinkPiece } from './think-tags.ts';
import { isContentRefusal, isMediaRefusal, isToolsRefusal } from './refusals.ts';

/** A tool of the agent's own: runs in the server (`execute`), offered to the model with its schema. */
export interface ModelAgentTool extends AgentTool {
  /** JSON Schema of the input the model must give. Default: an object with no properties. */
  inputSchema?: Record<string, unknown>;
  /** Ask the user before each call (Approve / Reject in every client). Default false. */
  requiresApproval?: boolean;
}

/** Where an offered tool runs, and whether it asks the user first. */
type ToolPlace = { runtime: 'cli' | 'toolbar'; requiresApproval: boolean };

export interface ModelAgentOptions {
  /** A path such as `acme/assistant`. */
  id: string;
  description: string;
  /** Any AI SDK language model: `openai('gpt-4o')`, `createOpenAICompatible(...)('llama3.2')`, … */
  model: LanguageModel;
  /**
   * Other models a chat may be answered by instead of `model`: the agent then offers a Model
   * setting (the toolbar's Model menu, `/set model` in `agentbar chat`), `model` being its default,
   * shown by its model id. Each `id` is what the menu keeps (1 to 128 characters), `name` what it shows.
   */
  models?: readonly { id: string; name?: string; model: LanguageModel; contextWindow?: number; price?: ModelPrice }[];
  /**
   * The model's context window in tokens (for each model of `models` that gives none of its own).
   * With it, the agent reports how full the context is after each model call (`ctx.setUsage`: the
   * toolbar's meter, `/usage` in `agentbar chat`), from the token counts the model server returns.
   * An OpenAI-compatible provider returns them while streaming only when created with
   * `includeUsage: true`. Without it, nothing is reported: no server says its window.
   */
  contextWindow?: number;
  /**
   * The model's prices per million tokens (for each model of `models` that gives none of its own):
   * each call's cost is then added to the chat's report, so the toolbar's meter and `/usage` say
   * what the chat has cost so far. Needs a context window: the cost is shown beside how full it is.
   */
  price?: ModelPrice;
  /** The agent's personality: the start of its system prompt. */
  system?: string;
  /** Tools that run in this process. */
  tools?: ModelAgentTool[];
  /**
   * The page tools the toolbar declares (read the picked elements, query the page, highlight):
   * `true` offers all (default), `false` none, a list only those. `pageToolApproval` lists the
   * ones that ask the user first.
   */
  pageTools?: boolean | string[];
  pageToolApproval?: string[];
  /** Model calls per run (each tool round is one). Default 8. */
  maxSteps?: number;
  /** Retries of a failed model call (the AI SDK's, with backoff). Default 2. */
  maxRetries?: number;
  /** Raw messages sent to the model, the current one included. Default 24. */
  historyMessages?: number;
  /** Session memory bounds, or false for none. */
  memory?: MemoryOptions | false;
  /** A skills folder (`<dir>/<name>/SKILL.md`); `reloadEachTask` reads it again before every run. */
  skills?: { dir: string; reloadEachTask?: boolean };
  /** For readable errors: where the model lives. */
  baseUrl?: string;
  temperature?: number;
  maxOutputTokens?: number;
  /**
   * Show a `<think>…</think>` block that opens the model's answer as reasoning, not as the reply
   * (DeepSeek-R1, QwQ and Qwen3 behind servers that pass it through as text). Default true.
   */
  splitThinkTags?: boolean;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

interface AgentMemoryState {
  activeSkill?: string | null;
  /** By chat id, the tools the user chose "Always allow in this chat" for (see always-allowed.ts). */
  alwaysAllowed?: AlwaysAllowed;
}

const ALWAYS_LABEL = 'Always allow in this chat';
/** The command that undoes "Always allow in this chat" (offered when a tool can ask). */
const ASK_AGAIN = 'ask-again';
const ASK_AGAIN_TEXT = /^\/ask-again(\s|$)/;

function abortError(): Error {
  const e = new Error('The run was stopped');
  e.name = 'AbortError';
  return e;
}

/** A tool result as the AI SDK wants it back. */
function toResultOutput(output: unknown, isError: boolean): ToolResultPart['output'] {
  if (isError) return { type: 'error-text', value: typeof output === 'string' ? output : JSON.stringify(output) ?? 'error' };
  if (typeof output === 'string') return { type: 'text', value: output };
  return { type: 'json', value: (output ?? null) as never };
}

const EMPTY_SCHEMA = { type: 'object', properties: {}, additionalProperties: false };

/** The id of the model agent's Model setting. */
const MODEL_SETTING = 'model';

/** A context window given in the options: a whole number of tokens, 1 or more, or none. */
function checkContextWindow(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a whole number of tokens, 1 or more, not ${String(value)}`);
  return value;
}

/**
 * The context after a model call holds what it was sent and what it wrote: the next call sends
 * both back. A server that gave no counts leaves the last report as it was.
 */
function reportUsage(ctx: RunContext, usage: CallTokens, size: number, price: CheckedPrice | undefined): void {
  const input = usage.inputTokens;
  if (typeof input !== 'number' || !Number.isFinite(input) || input < 0) return;
  const output = typeof usage.outputTokens === 'number' && Number.isFinite(usage.outputTokens) && usage.outputTokens > 0 ? usage.outputTokens : 0;
  // The chat's cost so far stays with it, whichever model answers; a priced call adds to it (in
  // another currency than the one kept, the count starts again: the two cannot be added).
  const before = ctx.usage?.cost;
  const call = price ? costOfCall(usage, price) : null;
  const cost = price && call !== null ? { amount: (before?.currency === price.currency ? before.amount : 0) + call, currency: price.currency } : before;
  ctx.setUsage({ used: input + output, size, ...(cost ? { cost } : {}) });
}

/** What the Model menu calls a model: its id (`llama3.2`, `gpt-4o-mini`). */
function modelIdOf(model: LanguageModel): string {
  return typeof model === 'string' ? model : model.modelId;
}

/**
 * @example
 * import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
 * const ollama = createOpenAICompatible({ name: 'ollama', baseURL: 'http://localhost:11434/v1' });
 * const agent = createModelAgent({ id: 'me/llama', description: 'Llama on my machine', model: ollama('llama3.2') });
 * await startServer({ agents: [agent] });
 */
export function createModelAgent(options: ModelAgentOptions): AgentDefinition {
  const defaultModelId = modelIdOf(options.model);
  const byId = new Map<string, LanguageModel>([[defaultModelId, options.model]]);
  const windowOf = new Map<string, number>();
  const priceOf = new Map<string, CheckedPrice>();
  const fallbackWindow = checkContextWindow(options.contextWindow, 'contextWindow');
  const fallbackPrice = checkPrice(options.price, 'price');
  if (fallbackPrice && !fallbackWindow) throw new TypeError('price needs contextWindow: the cost is shown beside how full the context is');
  if (fallbackWindow) windowOf.set(defaultModelId, fallbackWindow);
  if (fallbackPrice) priceOf.set(defaultModelId, fallbackPrice);
  for (const m of options.models ?? []) {
    if (byId.has(m.id)) continue;
    byId.set(m.id, m.model);
    const name = `models[${JSON.stringify(m.id)}]`;
    const window = checkContextWindow(m.contextWindow, `${name}.contextWindow`) ?? fallbackWindow;
    const price = checkPrice(m.price, `${name}.price`) ?? fallbackPrice;
    if (window) windowOf.set(m.id, window);
    if (price && !window) throw new TypeError(`${name}.price needs a contextWindow (its own or the agent's): the cost is shown beside how full the context is`);
    if (price) priceOf.set(m.id, price);
  }
  const modelSetting: AgentSettingInput[] =
    byId.size > 1
      ? [
          {
            id: MODEL_SETTING,
            name: 'Model',
            category: 'model',
            defaultValue: defaultModelId,
            options: [{ value: defaultModelId, name: defaultModelId }, ...(options.models ?? []).map((m) => ({ value: m.id, name: m.name ?? m.id }))],
          },
        ]
      : [];
  const maxSteps = Math.max(1, options.maxSteps ?? 8);
  const splitThinkTags = options.splitThinkTags ?? true;
  const historyMessages = options.historyMessages ?? DEFAULT_HISTORY_MESSAGES;
  const log = options.log ?? ((level, message) => (level === 'info' ? undefined : console.error(`[agentbar ${options.id}] ${message}`)));
  const skills: SkillSource = createSkillSource(options.skills, log);
  const ownTools = options.tools ?? [];
  // Only an agent with a tool that asks (besides switching a skill on) can be told "always".
  const toolsAsk = ownTools.some((t) => t.requiresApproval) || (options.pageToolApproval?.length ?? 0) > 0;
  // The run in progress (one at a time per server): the skill tools act on its agent state.
  let current: RunContext | null = null;
  /** The models (by id) that refused a request for offering tools: each is asked without them from then on. */
  const toolsRefusedBy = new Set<string>();
  /** The models (by id) that refused a message's images or PDFs: they are left out for each from then on. */
  const mediaRefusedBy = new Set<string>();

  const activeSkillOf = (ctx: RunContext): string | null => ctx.state.get<AgentMemoryState>()?.activeSkill ?? null;
  const setActiveSkill = (ctx: RunContext, name: string | null) => {
    ctx.state.set({ ...(ctx.state.get<AgentMemoryState>() ?? {}), activeSkill: name });
    ctx.state.setActiveSkill(name);
  };

  const alwaysAllowedOf = (ctx: RunContext): string[] => listAlwaysAllowed(ctx.state.get<AgentMemoryState>()?.alwaysAllowed, ctx.chatId);
  const allowAlways = (ctx: RunContext, name: string) => {
    const stored = ctx.state.get<AgentMemoryState>() ?? {};
    const next = addAlwaysAllowed(stored.alwaysAllowed, ctx.chatId, name);
    if (next !== stored.alwaysAllowed) ctx.state.set({ ...stored, alwaysAllowed: next });
  };

  /** `/ask-again`: the chat's tools ask before every call again; answered without the model. */
  const askAgain = async (ctx: RunContext) => {
    const allowed = alwaysAllowedOf(ctx);
    if (allowed.length > 0) {
      const stored = ctx.state.get<AgentMemoryState>() ?? {};
      ctx.state.set({ ...stored, alwaysAllowed: removeAlwaysAllowed(stored.alwaysAllowed, ctx.chatId) });
    }
    await ctx.reply.text(
      allowed.length > 0
        ? `I will ask again before every call of ${formatList(allowed.map((name) => `\`${name}\``))} in this chat.`
        : 'Nothing in this chat runs without asking: every tool that asks still asks.',
    );
  };

  const skillTools: AgentTool[] = [
    {
      name: SKILL_TOOLS.activate,
      description: 'Switches on one of your skills (the user is asked first). Activating another skill replaces the active one.',
      type: 'decision',
      runtime: 'cli',
      execute: async (input) => {
        const ctx = current;
        if (!ctx) throw new Error('No run in progress');
        const name = typeof input.name === 'string' ? input.name : '';
        const skill = (await skills.get()).find((s) => s.name === name);
        if (!skill) {
          const names = (await skills.get()).map((s) => s.name);
          throw new Error(`No skill named "${name}". Skills: ${names.length ? names.join(', ') : `none (add <name>/SKILL.md to ${skills.dir ?? 'the skills folder'})`}`);
        }
        const previous = activeSkillOf(ctx);
        setActiveSkill(ctx, skill.name);
        return previous && previous !== skill.name ? `Skill ${skill.name} is active (it replaced ${previous}).` : `Skill ${skill.name} is active.`;
      },
    },
    {
      name: SKILL_TOOLS.deactivate,
      description: 'Switches off the active skill.',
      type: 'deterministic',
      runtime: 'cli',
      execute: () => {
        const ctx = current;
        if (!ctx) throw new Error('No run in progress');
        const previous = activeSkillOf(ctx);
        setActiveSkill(ctx, null);
        return previous ? `Skill ${previous} is off.` : 'No skill was active.';
      },
    },
  ];

  /** The tools the model may call in this step, by name, with where they run. */
  async function buildTools(ctx: RunContext): Promise<{ set: ToolSet; approval: Map<string, ToolPlace> }> {
    const all = await skills.get();
    const active = all.find((s) => s.name === activeSkillOf(ctx)) ?? null;
    // A tool a skill lists is offered only while that skill is active.
    const gated = new Set(all.flatMap((s) => s.tools));
    const allowed = (name: string) => !gated.has(name) || (active?.tools.includes(name) ?? false);
    const set: ToolSet = {};
    const approval = new Map<string, ToolPlace>();
    const names = all.map((s) => s.name);
    set[SKILL_TOOLS.activate] = tool({
      description: skillTools[0]!.description!,
      inputSchema: jsonSchema({ type: 'object', properties: { name: names.length ? { type: 'string', enum: names } : { type: 'string' } }, required: ['name'], additionalProperties: false }),
    });
    approval.set(SKILL_TOOLS.activate, { runtime: 'cli', requiresApproval: true });
    set[SKILL_TOOLS.deactivate] = tool({ description: skillTools[1]!.description!, inputSchema: jsonSchema(EMPTY_SCHEMA as never) });
    approval.set(SKILL_TOOLS.deactivate, { runtime: 'cli', requiresApproval: false });
    for (const t of ownTools) {
      if (!allowed(t.name)) continue;
      set[t.name] = tool({ description: t.description ?? t.name, inputSchema: jsonSchema((t.inputSchema ?? EMPTY_SCHEMA) as never) });
      approval.set(t.name, { runtime: 'cli', requiresApproval: t.requiresApproval ?? false });
    }
    const page = options.pageTools ?? true;
    if (page !== false) {
      for (const t of ctx.pageTools) {
        if (set[t.name] || (Array.isArray(page) && !page.includes(t.name)) || !allowed(t.name)) continue;
        set[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as never) });
        approval.set(t.name, { runtime: 'toolbar', requiresApproval: options.pageToolApproval?.includes(t.name) ?? false });
      }
    }
    return { set, approval };
  }

  async function buildSystem(ctx: RunContext, toolsRefused: boolean): Promise<string> {
    const sections: string[] = [];
    sections.push(options.system?.trim() || `You are ${options.id}, an assistant that talks with a developer through a toolbar on the web page they are working on.`);
    const all = await skills.get();
    if (all.length) {
      if (!toolsRefused) sections.push(`Skills you can ask the user to switch on with ${SKILL_TOOLS.activate} (one at a time):\n${all.map((s) => `- ${s.name}: ${s.description}`).join('\n')}`);
      const active = all.find((s) => s.name === activeSkillOf(ctx));
      if (active) sections.push(`Active skill: ${active.name}\n${active.prompt}`);
    }
    if (options.memory !== false) {
      const memory = buildSessionMemory(ctx.messages.slice(0, -1), options.memory ?? {});
      if (memory.length) sections.push(`SESSION_CONTEXT (earlier tasks in this chat, oldest first): ${JSON.stringify(memory)}`);
    }
    return sections.join('\n\n');
  }

  async function callTool(ctx: RunContext, name: string, input: unknown, where: ToolPlace | undefined): Promise<{ output: unknown; isError: boolean }> {
    const args = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    if (!where) {
      // Not offered in this step (made up, or behind a skill that is off): shown as a failed call,
      // so the user sees what the model tried, and the model reads why it did not run.
      const shown = truncateText(name, LIMITS.maxToolNameLength);
      const missing = `There is no tool named ${shown} now`;
      return ctx.callTool({
        name: shown,
        input: args,
        runtime: 'cli',
        execute: () => {
          throw new Error(missing);
        },
      });
    }
    try {
      // Switching a skill on always asks (it changes the system prompt); any other tool that asks
      // may be allowed for the rest of the chat, so a user is not asked twenty times in one task.
      if (!where.requiresApproval || name === SKILL_TOOLS.activate) {
        return await ctx.callTool({ name, input: args, runtime: where.runtime, requiresApproval: where.requiresApproval });
      }
      if (alwaysAllowedOf(ctx).includes(name)) return await ctx.callTool({ name, input: args, runtime: where.runtime });
      const call = ctx.startToolCall({ name, input: args, runtime: where.runtime, requiresApproval: true, alwaysOffered: true, approvalLabels: { always: ALWAYS_LABEL } });
      const answer = await call.requestApproval();
      if (answer.approved && answer.always) allowAlways(ctx, name);
      return await call.result;
    } catch (error) {
      if (error instanceof ToolDeniedError) return { output: error.message, isError: true };
      throw error;
    }
  }

  async function run(ctx: RunContext): Promise<void> {
    current = ctx;
    if (toolsAsk && ASK_AGAIN_TEXT.test(ctx.text.trim())) return askAgain(ctx);
    // The chat's pick from the Model menu; a model no longer offered is the default.
    const chosen = ctx.settings[MODEL_SETTING];
    const modelId = chosen !== undefined && byId.has(chosen) ? chosen : defaultModelId;
    const model = byId.get(modelId)!;
    const contextWindow = windowOf.get(modelId);
    const price = priceOf.get(modelId);
    // The chat's report was made against another model's window (the user picked another model):
    // shown until this model's first call returns, or for good without a window, it would mislead.
    // A report with a cost stays, as the cost is the chat's, not the model's: its count moves to
    // this model's window until the first call says (the same history goes to this model).
    if (ctx.usage && ctx.usage.size !== contextWindow) {
      ctx.setUsage(ctx.usage.cost && contextWindow ? { used: ctx.usage.used, size: contextWindow, cost: ctx.usage.cost } : null);
    }
    let toolsRefused = toolsRefusedBy.has(modelId);
    try {
      await skills.beforeRun();
      let messages: ModelMessage[] = buildModelMessages(ctx.messages, options.id, historyMessages);
      // Notices, not text: the reply stays the model's words, and the model is not sent them back.
      const unreadable = listUnreadable(ctx.message);
      if (unreadable.length) ctx.reply.notice(describeUnreadable(unreadable));
      const unsendable = listUnsendableImages(ctx.message);
      if (unsendable.length) ctx.reply.notice(describeUnsendableImages(unsendable));
      if (mediaRefusedBy.has(modelId)) {
        const stripped = withoutMedia(messages);
        if (stripped.leftOut.length > 0) {
          messages = stripped.messages;
          ctx.reply.notice(describeLeftOut(stripped.leftOut, true));
        }
      }
      for (let step = 0; step < maxSteps; step++) {
        const { set, approval } = toolsRefused ? { set: {} as ToolSet, approval: new Map<string, ToolPlace>() } : await buildTools(ctx);
        const result = streamText({
          model,
          system: await buildSystem(ctx, toolsRefused),
          messages,
          tools: set,
          abortSignal: ctx.signal,
          maxRetries: options.maxRetries ?? 2,
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
          // Errors come through the stream below; the default handler would print them.
          onError: () => {},
        });
        const calls: { toolCallId: string; toolName: string; input: unknown }[] = [];
        let text = '';
        /** The model stopped at its output limit, not because it was done. */
        let cutOff = false;
        const think = splitThinkTags ? createThinkSplitter() : null;
        const write = async (pieces: ThinkPiece[]) => {
          for (const piece of pieces) {
            if (piece.kind === 'reasoning') await ctx.reply.reasoning(piece.text);
            else {
              text += piece.text;
              await ctx.reply.text(piece.text);
            }
          }
        };
        try {
          for await (const part of result.fullStream) {
            if (part.type === 'text-delta') {
              await write(think ? think.push(part.text) : [{ kind: 'text', text: part.text }]);
            } else if (part.type === 'reasoning-delta') {
              await ctx.reply.reasoning(part.text);
            } else if (part.type === 'tool-call') {
              calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
            } else if (part.type === 'finish-step') {
              if (part.finishReason === 'length') cutOff = true;
              if (contextWindow) reportUsage(ctx, part.usage, contextWindow, price);
            } else if (part.type === 'error') {
              throw part.error;
            } else if (part.type === 'abort') {
              throw abortError();
            }
          }
          if (think) await write(think.end());
        } catch (error) {
          if (ctx.signal.aborted) throw abortError();
          if (!toolsRefused && Object.keys(set).length > 0 && text === '' && calls.length === 0 && isToolsRefusal(error)) {
            // Refused before a word was written: ask again without tools, now and for later replies.
            toolsRefused = true;
            toolsRefusedBy.add(modelId);
            log('warn', `The model refused a request that offered tools (${describeModelError(error, options.baseUrl)}); it is asked without them from now on: no page tools or skills for it until the server restarts.`);
            ctx.reply.notice({ severity: 'warning', title: 'This model cannot call tools', description: "It answers without the page's tools and skills." });
            step--;
            continue;
          }
          const refusedMedia = isMediaRefusal(error);
          if (text === '' && calls.length === 0 && (refusedMedia || isContentRefusal(error) || UnsupportedFunctionalityError.isInstance(error))) {
            // Refused for its images or PDFs, or for a kind of them (a GIF, a PDF the provider cannot
            // send): ask again without them; only a model that sees no images at all is asked so from now on.
            const stripped = withoutMedia(messages);
            if (stripped.leftOut.length > 0) {
              messages = stripped.messages;
              if (refusedMedia && !mediaRefusedBy.has(modelId)) {
                mediaRefusedBy.add(modelId);
                log('warn', `The model refused a message's images or PDFs (${describeModelError(error, options.baseUrl)}); they are left out from now on, until the server restarts.`);
              }
              ctx.reply.notice(describeLeftOut(stripped.leftOut, refusedMedia));
              step--;
              continue;
            }
          }
          throw new Error(describeModelError(error, options.baseUrl));
        }
        // Without it, a reply the limit cut off mid-sentence read as a finished one.
        if (cutOff) {
          const limit = options.maxOutputTokens !== undefined ? `its ${options.maxOutputTokens.toLocaleString('en')}-token output limit (maxOutputTokens)` : 'the output limit its server sets';
          ctx.reply.notice({ severity: 'warning', title: 'The reply was cut off', description: `The model stopped at ${limit}. Ask it to go on.` });
        }
        if (calls.length === 0) return;
        messages.push({
          role: 'assistant',
          content: [...(text ? [{ type: 'text' as const, text }] : []), ...calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: c.input }))],
        });
        const results: ToolResultPart[] = [];
        for (const call of calls) {
          const outcome = await callTool(ctx, call.toolName, call.input, approval.get(call.toolName));
          results.push({ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: toResultOutput(outcome.output, outcome.isError) });
        }
        messages.push({ role: 'tool', content: results });
      }
      ctx.reply.notice({ title: `Stopped after ${maxSteps} model steps`, description: 'Send a message to go on.' });
    } finally {
      current = null;
    }
  }

  return defineAgent({
    id: options.id,
    description: options.description,
    tools: [...skillTools, ...ownTools],
    ...(modelSetting.length ? { settings: modelSetting } : {}),
    ...(toolsAsk ? { commands: [{ name: ASK_AGAIN, description: 'Ask before every tool call in this chat again (undoes "Always allow in this chat")' }] } : {}),
    run,
  });
}

