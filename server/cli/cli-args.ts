import { parseArgs } from 'node:util';
import { deriveAcpId } from '../acp-agent/derive-acp-id.ts';
import { splitCommand } from '../acp-agent/split-command.ts';
import { findClosest } from './closest-word.ts';
import type { ModelPrice } from '../model-agent/model-price.ts';

/**
 * Parses `agentbar serve` arguments. Pure, so every flag and every mistake is unit-tested.
 */
export interface ServeArgs {
  command: 'serve' | 'help';
  port: number;
  host: string;
  dataDir: string | undefined;
  allowOrigins: string[];
  token: string | undefined;
  unsafeExpose: boolean;
  /** A model agent for an OpenAI-compatible endpoint; null without `--model`. */
  model: ModelArgs | null;
  /** Coding agents over ACP (`--acp`, repeatable), and the folder they work in (`--cwd`). */
  acp: AcpArgs[];
  cwd: string | undefined;
}

/** One `--acp "COMMAND [ARGS]"`, with its `--acp-id` or the id derived from the command. */
export interface AcpArgs {
  command: string;
  args: string[];
  id: string;
}

/**
 * Pairs each `--acp` with the `--acp-id` that follows it (before the next `--acp`) and checks the
 * ids: the same rules for `serve` and for the commands that start a server of their own.
 *
 * @example collectAcpArgs([{ flag: 'acp', value: 'gemini --acp' }]) // [{ command: 'gemini', args: ['--acp'], id: 'acp/gemini' }]
 */
export function collectAcpArgs(flags: readonly { flag: 'acp' | 'acp-id'; value: string }[]): AcpArgs[] {
  const out: (AcpArgs & { named: boolean })[] = [];
  for (const { flag, value } of flags) {
    if (flag === 'acp') {
      let words: string[];
      try {
        words = splitCommand(value);
      } catch (error) {
        throw new UsageError(`--acp: ${(error as Error).message}`);
      }
      out.push({ command: words[0]!, args: words.slice(1), id: deriveAcpId(words[0]!, words.slice(1)), named: false });
    } else {
      const last = out[out.length - 1];
      if (!last) throw new UsageError('--acp-id names the --acp before it; put it after --acp "COMMAND"');
      if (last.named) throw new UsageError(`--acp "${[last.command, ...last.args].join(' ')}" has two --acp-id`);
      if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(value) || value.length > 128) throw new UsageError(`--acp-id needs a path such as acp/claude-code, got ${value}`);
      last.id = value;
      last.named = true;
    }
  }
  const seen = new Set<string>();
  for (const a of out) {
    if (seen.has(a.id)) throw new UsageError(`Two --acp agents are both called ${a.id}: name one with --acp-id`);
    seen.add(a.id);
  }
  return out.map(({ named: _named, ...a }) => a);
}

export interface ModelArgs {
  /** The first `--model`: the agent's default model. */
  name: string;
  /** Further `--model`s: offered in its Model menu, per chat. */
  others: string[];
  baseUrl: string;
  /** The environment variable holding the key (its value is never printed or written). */
  apiKeyEnv: string;
  /** Default `model/<name>`. */
  agentId: string;
  system: string | undefined;
  /** Default DATA_DIR/skills. */
  skillsDir: string | undefined;
  reloadSkillsEachTask: boolean;
  /** Its context window in tokens: the agent then reports how full it is (the toolbar's meter). */
  contextWindow: number | undefined;
  /** Its prices in USD per million tokens: the meter then says what each chat has cost. */
  price: CommandLinePrice | undefined;
}

/**
 * `--base-url` as the provider wants it: an http(s) URL without a trailing slash.
 *
 * @example parseBaseUrl('http://127.0.0.1:11434/v1/') // 'http://127.0.0.1:11434/v1'
 * @throws UsageError for anything else.
 */
export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url needs an http(s) URL such as http://127.0.0.1:11434/v1, got ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url needs an http(s) URL, got ${value}`);
  return value.replace(/\/+$/, '');
}

/**
 * `--api-key-env`: the name of a variable. A key pasted in its place is refused without echoing it.
 *
 * @example parseApiKeyEnv('OPENAI_API_KEY') // 'OPENAI_API_KEY'
 */
export function parseApiKeyEnv(value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new UsageError(`--api-key-env takes the NAME of an environment variable (not the key itself), got ${value.length > 12 ? `${value.slice(0, 4)}…` : value}`);
  return value;
}

/**
 * `--agent-id`: a path of plain characters, as agent ids are.
 *
 * @example parseAgentId('acme/helper') // 'acme/helper'
 */
export function parseAgentId(value: string): string {
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(value) || value.length > 128) throw new UsageError(`--agent-id needs a path such as acme/assistant, got ${value}`);
  return value;
}

/** The largest --context-window taken: far above any model's today, and far below a float's whole numbers. */
const MAX_CONTEXT_WINDOW = 100_000_000;

/**
 * `--context-window 131072` as a number of tokens.
 *
 * @example parseContextWindow('32768') // 32768
 * @throws UsageError for anything but a whole number from 1 to 100,000,000.
 */
export function parseContextWindow(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_CONTEXT_WINDOW) {
    throw new UsageError(`--context-window takes the model's context window as a number of tokens, such as 131072, got ${value}`);
  }
  return n;
}

/** A price as `--price` gives it: always in USD. */
export type CommandLinePrice = Omit<ModelPrice, 'currency'>;

/** The highest price per million tokens taken: far above any model's today (a typo guard). */
const MAX_PRICE = 10_000;

/**
 * `--price 0.15/0.60` (input/output) or `--price 2.50/10/1.25` (and cached input), in USD per
 * million tokens, as providers list them.
 *
 * @example parsePrice('0.15/0.60') // { input: 0.15, output: 0.6 }
 * @throws UsageError for anything else.
 */
export function parsePrice(value: string): CommandLinePrice {
  const parts = value.split('/');
  const prices = parts.map((p) => (/^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(p) ? Number(p) : Number.NaN));
  if ((parts.length !== 2 && parts.length !== 3) || prices.some((n) => !(n >= 0 && n <= MAX_PRICE))) {
    throw new UsageError(`--price takes the model's prices in USD per million tokens as input/output, such as 0.15/0.60, or input/output/cached-input, such as 2.50/10/1.25, got ${value}`);
  }
  const [input, output, cachedInput] = prices as [number, number, number | undefined];
  return { input, output, ...(cachedInput !== undefined ? { cachedInput } : {}) };
}

/**
 * What the model flags need of each other, once all are read (for `serve` and the other commands alike).
 *
 * @throws UsageError for --price without --context-window.
 */
export function checkModelArgs(model: ModelArgs): void {
  if (model.price && !model.contextWindow) throw new UsageError("--price needs --context-window: the cost is shown beside how full the model's context is");
}

/** `model/llama3.2-3b` for `llama3.2:3b`: agent ids are paths of plain characters. */
export function defaultModelAgentId(name: string): string {
  return `model/${name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model'}`;
}

export const USAGE = `Usage: agentbar serve [options]
       agentbar agents [--json]                        (list the agents)
       agentbar chat -a <agent> [-m <message>] [--session <name>] [--new] [--yes]
       agentbar sessions [--delete|--export <name>] [--json]   (list, delete or export chats)
       agentbar sign-in                                (print a new one-time address for the demo page)
       agentbar mcp [--chat <id>]                      (the page's tools as a stdio MCP server)
       agentbar help [<command>]                       (a command's help; agentbar --version prints the version)
       (each takes --data-dir <dir> and --help)

Starts the agent server with the demo agents and prints a one-time sign-in address for the demo page.

Options:
  --port <n>            Port to listen on; 0 picks a free one (default 4477)
  --host <addr>         Address to bind (default 127.0.0.1; others need --unsafe-expose)
  --data-dir <dir>      Where chats live (default $AGENTBAR_DATA_DIR or ~/.agentbar)
  --allow-origin <url>  Also accept this browser origin (repeatable)
  --token <value>       Use this token instead of a new random one (at least 16 characters)
  --unsafe-expose       Allow a non-loopback --host (anyone who can reach it and learns the token can drive the agent)
  -h, --help            Show this help

A model agent (any OpenAI-compatible endpoint: OpenAI, Ollama, LM Studio, vLLM, llama.cpp server),
served beside the demo agents:
  --model <name>             The model, e.g. llama3.2 or gpt-4o-mini; repeat it to offer more models
                             in a Model menu, per chat (the first is the default)
  --base-url <url>           Its API, e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1
  --api-key-env <VAR>        Read the key from this environment variable (default OPENAI_API_KEY; none is fine for local servers)
  --agent-id <id>            The agent's id (default model/<name>)
  --system <text>            Its personality: the start of its system prompt
  --skills-dir <dir>         Skills: <dir>/<name>/SKILL.md (default DATA_DIR/skills)
  --reload-skills-each-task  Read the skills again before every reply (for editing them live)
  --context-window <tokens>  The model's context window, e.g. 32768: the toolbar then shows how full
                             it is (the server is asked for token counts, stream_options.include_usage)
  --price <in>/<out>[/<cached in>]
                             Its prices in USD per million tokens, e.g. 0.15/0.60: the toolbar then
                             also shows what each chat has cost (needs --context-window)

Your own coding agent, over the Agent Client Protocol (Claude Code's ACP adapter, Gemini CLI, …):
  --acp "<command> [args]"   Start this agent on the first message and talk to it over ACP (repeatable)
  --acp-id <id>              The id of the --acp before it (default acp/<program>, e.g. acp/gemini)
  --cwd <dir>                The folder ACP agents work in and may read and write (default: here)`;

/** The commands `agentbar` runs, for suggestions. */
export const COMMANDS = ['serve', 'chat', 'agents', 'sessions', 'sign-in', 'mcp', 'help', 'version'] as const;

/**
 * "Unknown command", with the command meant when the word is a typo or a plural of one.
 *
 * @example describeUnknownCommand('chats') // 'Unknown command: chats (did you mean agentbar chat?)'
 */
export function describeUnknownCommand(word: string): string {
  const meant = findClosest(word.toLowerCase(), COMMANDS);
  return `Unknown command: ${word}${meant ? ` (did you mean agentbar ${meant}?)` : ''}`;
}

/**
 * " (did you mean --port?)" for a mistyped option among `options` (names without dashes), else "".
 *
 * @example suggestOption('--prot', ['port', 'host']) // ' (did you mean --port?)'
 */
export function suggestOption(flag: string, options: readonly string[]): string {
  if (!flag.startsWith('--')) return '';
  const meant = findClosest(flag.slice(2).split('=')[0]!.toLowerCase(), options);
  return meant ? ` (did you mean --${meant}?)` : '';
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * @example parseServeArgs(['serve', '--port', '0']) // { command: 'serve', port: 0, ... }
 */
const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  token: { type: 'string' },
  'unsafe-expose': { type: 'boolean' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  'agent-id': { type: 'string' },
  system: { type: 'string' },
  'skills-dir': { type: 'string' },
  'reload-skills-each-task': { type: 'boolean' },
  'context-window': { type: 'string' },
  price: { type: 'string' },
  acp: { type: 'string', multiple: true },
  'acp-id': { type: 'string', multiple: true },
  cwd: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const args: ServeArgs = { command: 'serve', port: 4477, host: '127.0.0.1', dataDir: undefined, allowOrigins: [], token: undefined, unsafeExpose: false, model: null, acp: [], cwd: undefined };
  const acpFlags: { flag: 'acp' | 'acp-id'; value: string }[] = [];
  const model: Partial<ModelArgs> & { reloadSkillsEachTask: boolean } = { reloadSkillsEachTask: false };
  const modelFlags: string[] = [];
  const modelOthers: string[] = [];
  const rest = [...argv];
  if (rest[0] === 'serve') rest.shift();
  else if (rest[0] && !rest[0].startsWith('-')) throw new UsageError(describeUnknownCommand(rest[0]));
  // util.parseArgs splits the words (as for every other command); the checks and their messages
  // are ours, so strict mode is off and each token is judged below.
  const { tokens } = parseArgs({ args: rest, options: SERVE_OPTIONS, strict: false, allowPositionals: true, tokens: true });
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'positional') throw new UsageError(`Unknown option: ${token.value}`);
    if (token.kind === 'option-terminator') throw new UsageError('Unknown option: --');
    const flag = token.rawName;
    const inline = token.inlineValue ? (token.value ?? '') : undefined;
    if (!(token.name in SERVE_OPTIONS) || (flag.startsWith('-') && !flag.startsWith('--') && flag !== '-h')) {
      throw new UsageError(`Unknown option: ${flag}${inline !== undefined ? `=${inline}` : ''}${suggestOption(flag, Object.keys(SERVE_OPTIONS))}`);
    }
    const value = () => {
      const v = token.value;
      if (v === undefined || v === '' || (inline === undefined && v.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    // `--unsafe-expose=false` must not quietly turn the switch on.
    const noValue = () => {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
    };
    switch (flag) {
      case '--port': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got ${v}`);
        args.port = n;
        break;
      }
      case '--host':
        args.host = value();
        break;
      case '--data-dir':
        args.dataDir = value();
        break;
      case '--allow-origin': {
        const v = value();
        try {
          const u = new URL(v);
          if (u.origin === 'null') throw new Error();
        } catch {
          throw new UsageError(`--allow-origin needs an origin such as http://localhost:3000, got ${v}`);
        }
        args.allowOrigins.push(v);
        break;
      }
      case '--token': {
        const v = value();
        if (v.length < 16) throw new UsageError('--token must be at least 16 characters');
        args.token = v;
        break;
      }
      case '--unsafe-expose':
        noValue();
        args.unsafeExpose = true;
        break;
      case '--model': {
        // The first is the default; more are offered per chat, each once.
        const name = value();
        if (model.name === undefined) model.name = name;
        else if (name !== model.name && !modelOthers.includes(name)) modelOthers.push(name);
        break;
      }
      case '--base-url':
        model.baseUrl = parseBaseUrl(value());
        modelFlags.push(flag);
        break;
      case '--api-key-env':
        model.apiKeyEnv = parseApiKeyEnv(value());
        modelFlags.push(flag);
        break;
      case '--agent-id':
        model.agentId = parseAgentId(value());
        modelFlags.push(flag);
        break;
      case '--system':
        model.system = value();
        modelFlags.push(flag);
        break;
      case '--skills-dir':
        model.skillsDir = value();
        modelFlags.push(flag);
        break;
      case '--reload-skills-each-task':
        noValue();
        model.reloadSkillsEachTask = true;
        modelFlags.push(flag);
        break;
      case '--context-window':
        model.contextWindow = parseContextWindow(value());
        modelFlags.push(flag);
        break;
      case '--price':
        model.price = parsePrice(value());
        modelFlags.push(flag);
        break;
      case '--acp':
        acpFlags.push({ flag: 'acp', value: value() });
        break;
      case '--acp-id':
        acpFlags.push({ flag: 'acp-id', value: value() });
        break;
      case '--cwd':
        args.cwd = value();
        break;
      case '-h':
      case '--help':
        noValue();
        args.command = 'help';
        break;
      default:
        throw new UsageError(`Unknown option: ${flag}`);
    }
  }
  if (model.name !== undefined) {
    if (!model.baseUrl) throw new UsageError('--model needs --base-url: http://127.0.0.1:11434/v1 for Ollama, https://api.openai.com/v1 for OpenAI');
    args.model = {
      name: model.name,
      others: modelOthers,
      baseUrl: model.baseUrl,
      apiKeyEnv: model.apiKeyEnv ?? 'OPENAI_API_KEY',
      agentId: model.agentId ?? defaultModelAgentId(model.name),
      system: model.system,
      skillsDir: model.skillsDir,
      reloadSkillsEachTask: model.reloadSkillsEachTask,
      contextWindow: model.contextWindow,
      price: model.price,
    };
    checkModelArgs(args.model);
  } else if (modelFlags.length) {
    throw new UsageError(`${modelFlags[0]} needs --model`);
  }
  args.acp = collectAcpArgs(acpFlags);
  if (args.cwd !== undefined && args.acp.length === 0) throw new UsageError('--cwd is the folder of the --acp agents: it needs --acp');
  return args;
}
