/**
 * `createModelAgent`: an agentbar agent backed by any AI SDK language model. It streams text and
 * reasoning as they come, offers the model the page's tools, its own `cli` tools and the two skill
 * tools, runs each call through agentbar (approval when the tool asks for it), feeds the results
 * back and goes on, for a bounded number of steps. Stop aborts the model request; provider errors
 * end the message `failed` with a readable reason.
 */
import type { LanguageModel } from 'ai';
import { defineAgent, type AgentDefinition, type AgentTool, type RunContext } from '../sdk/agent.ts';
import { readActiveSkill } from './agent-state.ts';
import { ASK_AGAIN_COMMAND, answerAskAgain, isAskAgain, offersAskAgain } from './ask-again.ts';
import { DEFAULT_HISTORY_MESSAGES } from './build-prompt.ts';
import { createModelCatalog } from './model-catalog.ts';
import type { ModelPrice } from './model-price.ts';
import { createRefusedModels } from './refusal-retry.ts';
import { fitUsageToModel } from './report-usage.ts';
import { buildRunMessages } from './run-prompt.ts';
import { runSteps, type StepLoop } from './run-steps.ts';
import type { MemoryOptions } from './session-memory.ts';
import { createNoteTools } from './note-tools.ts';
import { watchPersonaFile } from './persona-file.ts';
import type { Persona } from './personas.ts';
import { createSkillContext } from './skill-context.ts';
import { createSkillSource } from './skill-source.ts';
import { createSkillTools } from './skill-tools.ts';
import { isSoulCommand, answerSoulCommand, SOUL_COMMAND } from './soul-command.ts';
import { createSoulKeeper } from './soul-keeper.ts';
import { DEFAULT_SOUL_CHARS, type SoulOptions } from './souls.ts';

/** A tool of the agent's own: runs in the server (`execute`), offered to the model with its schema. */
export interface ModelAgentTool extends AgentTool {
  /** JSON Schema of the input the model must give. Default: an object with no properties. */
  inputSchema?: Record<string, unknown>;
  /** Ask the user before each call (Approve / Reject in every client). Default false. */
  requiresApproval?: boolean;
}

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
  /**
   * A persona (`loadPersonas`): its prompt is the system prompt (unless `system` is given), its
   * `skills` the only ones it may switch on, its personality the seed of its soul. Its file is
   * read again before a reply when it changed (its id and model stay until a restart).
   */
  persona?: Persona;
  /**
   * A knowledge store, `<dir>/*.md` with #tags: the tools search_knowledge, read_note and add_note
   * (which asks first and never replaces a note); a note tagged `#skill:<name> #prompt` is a skill.
   */
  notes?: { dir: string };
  /** Its soul and its tasks across chats, kept in `dir` (see `SoulOptions`); the `/soul` command shows and edits it. */
  soul?: SoulOptions;
  /** The folder a skill's `context.files` are read in and its `context.command` runs in. Default: the current folder. */
  workDir?: string;
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

/**
 * @example
 * import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
 * const ollama = createOpenAICompatible({ name: 'ollama', baseURL: 'http://localhost:11434/v1' });
 * const agent = createModelAgent({ id: 'me/llama', description: 'Llama on my machine', model: ollama('llama3.2') });
 * await startServer({ agents: [agent] });
 */
export function createModelAgent(options: ModelAgentOptions): AgentDefinition {
  const catalog = createModelCatalog(options);
  const log = options.log ?? ((level, message) => (level === 'info' ? undefined : console.error(`[agentbar ${options.id}] ${message}`)));
  const { notes } = options;
  // The persona as its file says before this reply: its prompt, skills and personality.
  let persona = options.persona;
  const personaFile = persona ? watchPersonaFile(persona, log) : null;
  const skills = createSkillSource(
    options.skills || notes || persona?.skills ? { ...options.skills, ...(notes ? { notesDir: notes.dir } : {}), ...(persona ? { allowed: () => persona?.skills } : {}) } : undefined,
    log,
  );
  const ownTools = [...(notes ? createNoteTools(notes.dir) : []), ...(options.tools ?? [])];
  // add_note asks every time: only the agent's own tools can be allowed for a chat, and undone.
  const toolsAsk = offersAskAgain(options.tools ?? [], options.pageToolApproval);
  const seed = () => persona?.personality;
  const souls = createSoulKeeper(options.soul, { id: options.id, seed, ...(options.memory !== undefined ? { memory: options.memory } : {}) }, log);
  const soulStore = options.soul ? { dir: options.soul.dir, agentId: options.id, maxChars: options.soul.maxChars ?? DEFAULT_SOUL_CHARS, seed, settled: souls.settled } : null;
  const skillContext = createSkillContext(options.workDir ?? process.cwd());
  const refused = createRefusedModels();
  const loop: StepLoop = {
    maxSteps: Math.max(1, options.maxSteps ?? 8),
    maxRetries: options.maxRetries ?? 2,
    temperature: options.temperature,
    maxOutputTokens: options.maxOutputTokens,
    splitThinkTags: options.splitThinkTags ?? true,
    prompt: { id: options.id, system: options.system, memory: options.memory },
    tools: { ownTools, pageTools: options.pageTools, pageToolApproval: options.pageToolApproval },
    skills,
    extras: async (ctx, all) => ({ ...(await souls.read(ctx)), skillContext: await skillContext.forStep(ctx, all.find((s) => s.name === readActiveSkill(ctx)) ?? null) }),
    refused,
    baseUrl: options.baseUrl,
    log,
  };
  const historyMessages = options.historyMessages ?? DEFAULT_HISTORY_MESSAGES;
  // The run in progress (one at a time per server): the skill tools act on its agent state.
  let current: RunContext | null = null;

  async function run(ctx: RunContext): Promise<void> {
    current = ctx;
    if (toolsAsk && isAskAgain(ctx.text)) return answerAskAgain(ctx);
    if (soulStore && isSoulCommand(ctx.text)) return answerSoulCommand(ctx, soulStore);
    if (personaFile) persona = await personaFile.get();
    const chosen = catalog.choose(ctx.settings);
    fitUsageToModel(ctx, chosen.contextWindow);
    const toolsRefused = refused.tools.has(chosen.id);
    try {
      await skills.beforeRun();
      const messages = buildRunMessages(ctx, options.id, historyMessages, refused.media.has(chosen.id));
      const prompt = { ...loop.prompt, system: options.system ?? persona?.prompt };
      const reply = await runSteps(ctx, { chosen, messages, toolsRefused }, { ...loop, prompt });
      if (reply !== null) souls.afterTask(ctx, chosen.model, reply);
    } finally {
      current = null;
    }
  }

  return defineAgent({
    id: options.id,
    description: options.description,
    tools: [...createSkillTools(skills, () => current), ...ownTools],
    ...(catalog.settings.length ? { settings: catalog.settings } : {}),
    ...(toolsAsk || soulStore ? { commands: [...(toolsAsk ? [ASK_AGAIN_COMMAND] : []), ...(soulStore ? [SOUL_COMMAND] : [])] } : {}),
    run,
  });
}
