/**
 * Reads the command line of any `agentbar` command against the option table (options.ts) with
 * node's `util.parseArgs`, checks the values, and builds the agents of `serve` that every command
 * takes. Pure, so every flag and every mistake is unit-tested.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { deriveAcpId } from '../acp-agent/derive-acp-id.ts';
import { splitCommand } from '../acp-agent/split-command.ts';
import type { ModelPrice } from '../model-agent/model-price.ts';
import { defaultDataDir } from '../host/data-dir.ts';
import { findClosest } from './closest-word.ts';
import { expandConfigArgs } from './config-file.ts';
import { optionsOf, specOf, type CommandName, type OptionName, type OptionValues } from './options.ts';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ServeArgs {
  command: 'serve' | 'help';
  port: number;
  host: string;
  dataDir: string | undefined;
  allowOrigins: string[];
  token: string | undefined;
  unsafeExpose: boolean;
  /** The dev server to run the proxy in front of (`--proxy`, `agentbar proxy URL`); none without it. */
  proxy: { upstream: string; port: number; insecureUpstream: boolean } | null;
  /** A model agent for an OpenAI-compatible endpoint; null without `--model`. */
  model: ModelArgs | null;
  /** Coding agents over ACP (`--acp`, repeatable), and the folder they work in (`--cwd`). */
  acp: AcpArgs[];
  cwd: string | undefined;
}

/** What every command but `serve` takes besides its own options. */
export interface CommonArgs {
  dataDir: string;
  help: boolean;
  model: ModelArgs | null;
  acp: AcpArgs[];
  cwd: string | undefined;
}

/** One `--acp "COMMAND [ARGS]"`, with its `--acp-id` or the id derived from the command. */
export interface AcpArgs {
  command: string;
  args: string[];
  id: string;
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
  /** `--persona NAME`: the agent is DATA_DIR/agents/NAME.md. */
  persona: string | undefined;
  /** `--max-turns N`: model steps per reply. */
  maxTurns: number | undefined;
  /** `--record-soul`: one model call after each finished reply updates its soul. */
  recordSoul: boolean;
  /** Its context window in tokens: the agent then reports how full it is (the toolbar's meter). */
  contextWindow: number | undefined;
  /** Its prices in USD per million tokens: the meter then says what each chat has cost. */
  price: CommandLinePrice | undefined;
}

/** A price as `--price` gives it: always in USD. */
export type CommandLinePrice = Omit<ModelPrice, 'currency'>;

/**
 * `agentbar serve` (the command without a name too) and its options.
 *
 * @example parseServeArgs(['serve', '--port', '0']) // { command: 'serve', port: 0, ... }
 * @throws UsageError for an unknown command or option, or a value it cannot take.
 */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const [first, ...rest] = argv;
  if (first && first !== 'serve' && !first.startsWith('-')) throw new UsageError(describeUnknownCommand(first));
  const { values, model, acp, cwd } = parseCommandLine('serve', first === 'serve' ? rest : argv);
  return {
    command: values.help ? 'help' : 'serve',
    port: values.port === undefined ? 4477 : parsePort(values.port),
    host: values.host ?? '127.0.0.1',
    dataDir: values['data-dir'],
    allowOrigins: values['allow-origin'] ?? [],
    token: values.token,
    unsafeExpose: values['unsafe-expose'] === true,
    proxy: buildProxyArgs(values),
    model,
    acp,
    cwd,
  };
}

/**
 * The options of `agentbar chat | agents | sessions | sign-in | mcp` (argv after the command).
 *
 * @example const { values, common } = parseCommandArgs('agents', ['--json']); // values.json === true
 * @throws UsageError for an unknown option, a missing value or a value it cannot take.
 */
export function parseCommandArgs(command: Exclude<CommandName, 'serve'>, argv: readonly string[]): { values: OptionValues; common: CommonArgs } {
  const { values, model, acp, cwd } = parseCommandLine(command, argv);
  return { values, common: { dataDir: values['data-dir'] ?? defaultDataDir(), help: values.help === true, model, acp, cwd } };
}

interface CommandLine {
  values: OptionValues;
  model: ModelArgs | null;
  acp: AcpArgs[];
  cwd: string | undefined;
}

/** One option as the command line gave it. */
interface GivenOption {
  name: OptionName;
  value: string | undefined;
}

function parseCommandLine(command: CommandName, argv: readonly string[]): CommandLine {
  let expanded: string[];
  try {
    expanded = expandConfigArgs(command, argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const given = readOptions(command, expanded);
  const values = collectValues(given);
  const model = buildModelArgs(values, given);
  const acp = collectAcpArgs(given);
  if (values.cwd !== undefined && acp.length === 0) throw new UsageError('--cwd is the folder of the --acp agents: it needs --acp');
  return { values, model, acp, cwd: values.cwd };
}

/**
 * The options in argv, in order. `serve` words its mistakes in its own way and checks each value as
 * it is read; the other commands print `util.parseArgs`'s own words (strict mode) and check the
 * model's values once all are read. Scripts and docs quote both, so each keeps its wording.
 */
function readOptions(command: CommandName, argv: readonly string[]): GivenOption[] {
  const names = optionsOf(command);
  const own = command === 'serve';
  const given: GivenOption[] = [];
  for (const token of tokenize(argv, names, own)) {
    if (token.kind === 'option-terminator' && !own) continue;
    if (token.kind !== 'option') throw new UsageError(`Unknown option: ${token.kind === 'positional' ? token.value : '--'}`);
    const name = names.find((n) => n === token.name);
    if (!name) throw new UsageError(`Unknown option: ${token.rawName}${token.inlineValue ? `=${token.value ?? ''}` : ''}${suggestOption(token.rawName, names)}`);
    if (own) checkAsServe(name, token.rawName, token.value, token.inlineValue === true);
    given.push({ name, value: token.value });
  }
  return given;
}

/** `util.parseArgs`'s tokens: strict (its own words, with the option meant) but for `serve`. */
function tokenize(argv: readonly string[], names: readonly OptionName[], own: boolean) {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const name of names) {
    const { type, short, multiple } = specOf(name);
    options[name] = { type, ...(short ? { short } : {}), ...(multiple ? { multiple } : {}) };
  }
  try {
    return parseArgs({ args: [...argv], options, strict: !own, allowPositionals: own, tokens: true }).tokens;
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /^Unknown option '([^']+)'$/.exec(message)?.[1];
    throw new UsageError(unknown ? `${message}${suggestOption(unknown, names)}` : message);
  }
}

/** `serve`'s rules for one option: a value that is there, is not the next flag, and passes its check. */
function checkAsServe(name: OptionName, flag: string, value: string | undefined, inline: boolean): void {
  if (specOf(name).type === 'boolean') {
    // `--unsafe-expose=false` must not quietly turn the switch on.
    if (inline) throw new UsageError(`${flag} takes no value`);
    return;
  }
  if (value === undefined || value === '' || (!inline && value.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
  VALUE_CHECKS[name]?.(value);
}

/** Each option's value by name: `true` for a switch, every value of a repeatable one, else the last. */
function collectValues(given: readonly GivenOption[]): OptionValues {
  const values: Partial<Record<OptionName, string | string[] | true>> = {};
  for (const { name, value } of given) {
    const spec = specOf(name);
    if (spec.type === 'boolean') values[name] = true;
    else if (value === undefined) continue;
    else if (!spec.multiple) values[name] = value;
    else {
      const previous = values[name];
      values[name] = [...(Array.isArray(previous) ? previous : []), value];
    }
  }
  // The shape follows the table, which OptionValues is derived from.
  return values as OptionValues;
}

/** The `--model` agent: the first `--model` is its default, the others are offered in its Model menu. */
function buildModelArgs(values: OptionValues, given: readonly GivenOption[]): ModelArgs | null {
  const [name, ...others] = [...new Set(values.model ?? [])];
  if (name === undefined) {
    const stray = given.find((g) => specOf(g.name).needsModel);
    if (stray) throw new UsageError(`--${stray.name} needs --model`);
    return null;
  }
  const baseUrl = values['base-url'];
  if (baseUrl === undefined) throw new UsageError('--model needs --base-url: http://127.0.0.1:11434/v1 for Ollama, https://api.openai.com/v1 for OpenAI');
  const apiKeyEnv = values['api-key-env'];
  const agentId = values['agent-id'];
  const contextWindow = values['context-window'];
  const model: ModelArgs = {
    name,
    others,
    // Checked now, not as the first reply's failure.
    baseUrl: parseBaseUrl(baseUrl),
    apiKeyEnv: apiKeyEnv !== undefined ? parseApiKeyEnv(apiKeyEnv) : 'OPENAI_API_KEY',
    agentId: agentId !== undefined ? parseAgentId(agentId) : defaultModelAgentId(name),
    system: values.system,
    skillsDir: values['skills-dir'],
    reloadSkillsEachTask: values['reload-skills-each-task'] === true,
    persona: values.persona,
    maxTurns: values['max-turns'] !== undefined ? parseMaxTurns(values['max-turns']) : undefined,
    recordSoul: values['record-soul'] === true,
    contextWindow: contextWindow !== undefined ? parseContextWindow(contextWindow) : undefined,
    price: values.price !== undefined ? parsePrice(values.price) : undefined,
  };
  if (model.price && !model.contextWindow) throw new UsageError("--price needs --context-window: the cost is shown beside how full the model's context is");
  return model;
}

/** The proxy's options; `--proxy-port` and `--insecure-upstream` mean nothing without `--proxy`. */
function buildProxyArgs(values: OptionValues): ServeArgs['proxy'] {
  const upstream = values.proxy;
  if (upstream === undefined) {
    const stray = values['proxy-port'] !== undefined ? '--proxy-port' : values['insecure-upstream'] ? '--insecure-upstream' : null;
    if (stray) throw new UsageError(`${stray} needs --proxy <url> (or agentbar proxy <url>)`);
    return null;
  }
  const port = values['proxy-port'];
  return { upstream, port: port === undefined ? 4478 : parsePort(port, '--proxy-port'), insecureUpstream: values['insecure-upstream'] === true };
}

/**
 * `agentbar proxy URL [options]` as the `serve` command line it stands for.
 *
 * @example proxyToServeArgs(['proxy', 'http://localhost:3000', '--port', '0']) // ['serve', '--proxy', 'http://localhost:3000', '--port', '0']
 * @throws UsageError without a URL before the options.
 */
export function proxyToServeArgs(argv: readonly string[]): string[] {
  const [, upstream, ...rest] = argv;
  if (upstream === undefined || upstream.startsWith('-')) {
    if (rest.includes('--help') || rest.includes('-h') || upstream === '--help' || upstream === '-h') return ['serve', '--help'];
    throw new UsageError('agentbar proxy needs the address of your dev server first, e.g. agentbar proxy http://localhost:3000');
  }
  return ['serve', '--proxy', upstream, ...rest];
}

/** `model/llama3.2-3b` for `llama3.2:3b`: agent ids are paths of plain characters. */
function defaultModelAgentId(name: string): string {
  return `model/${name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model'}`;
}

/**
 * Pairs each `--acp` with the `--acp-id` that follows it (before the next `--acp`) and checks the
 * ids.
 *
 * @example collectAcpArgs([{ name: 'acp', value: 'gemini --acp' }]) // [{ command: 'gemini', args: ['--acp'], id: 'acp/gemini' }]
 */
function collectAcpArgs(given: readonly GivenOption[]): AcpArgs[] {
  const out: (AcpArgs & { named: boolean })[] = [];
  for (const { name, value } of given) {
    if (value === undefined) continue;
    if (name === 'acp') {
      let words: string[];
      try {
        words = splitCommand(value);
      } catch (error) {
        throw new UsageError(`--acp: ${(error as Error).message}`);
      }
      out.push({ command: words[0]!, args: words.slice(1), id: deriveAcpId(words[0]!, words.slice(1)), named: false });
    } else if (name === 'acp-id') {
      const last = out[out.length - 1];
      if (!last) throw new UsageError('--acp-id names the --acp before it; put it after --acp "COMMAND"');
      if (last.named) throw new UsageError(`--acp "${[last.command, ...last.args].join(' ')}" has two --acp-id`);
      if (!isAgentIdPath(value)) throw new UsageError(`--acp-id needs a path such as acp/claude-code, got ${value}`);
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

/** What `serve` checks of each value as it reads it (the model's again once all are read). */
const VALUE_CHECKS: { [K in OptionName]?: (value: string) => unknown } = {
  port: parsePort,
  'proxy-port': (value) => parsePort(value, '--proxy-port'),
  proxy: checkUpstream,
  'allow-origin': checkOrigin,
  token: checkToken,
  'base-url': parseBaseUrl,
  'api-key-env': parseApiKeyEnv,
  'agent-id': parseAgentId,
  'context-window': parseContextWindow,
  price: parsePrice,
  'max-turns': parseMaxTurns,
};

/** `--max-turns 12`: model steps per reply, 1 to 100. */
function parseMaxTurns(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 100) throw new UsageError(`--max-turns takes the model steps per reply, a number from 1 to 100, got ${value}`);
  return n;
}

function parsePort(value: string, flag = '--port'): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new UsageError(`${flag} must be a number from 0 to 65535, got ${value}`);
  return n;
}

/** `--proxy`: the dev server's http(s) address. */
function checkUpstream(value: string): void {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // Said below.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`agentbar proxy needs your dev server's http(s) address, such as http://localhost:3000, got ${value}`);
}

function checkOrigin(value: string): void {
  try {
    if (new URL(value).origin === 'null') throw new Error();
  } catch {
    throw new UsageError(`--allow-origin needs an origin such as http://localhost:3000, got ${value}`);
  }
}

function checkToken(value: string): void {
  if (value.length < 16) throw new UsageError('--token must be at least 16 characters');
}

/**
 * `--base-url` as the provider wants it: an http(s) URL without a trailing slash.
 *
 * @example parseBaseUrl('http://127.0.0.1:11434/v1/') // 'http://127.0.0.1:11434/v1'
 * @throws UsageError for anything else.
 */
function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url needs an http(s) URL such as http://127.0.0.1:11434/v1, got ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url needs an http(s) URL, got ${value}`);
  return value.replace(/\/+$/, '');
}

/** `--api-key-env`: the name of a variable. A key pasted in its place is refused without echoing it. */
function parseApiKeyEnv(value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new UsageError(`--api-key-env takes the NAME of an environment variable (not the key itself), got ${value.length > 12 ? `${value.slice(0, 4)}…` : value}`);
  return value;
}

/** `--agent-id`: a path of plain characters, as agent ids are. */
function parseAgentId(value: string): string {
  if (!isAgentIdPath(value)) throw new UsageError(`--agent-id needs a path such as acme/assistant, got ${value}`);
  return value;
}

function isAgentIdPath(value: string): boolean {
  return /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(value) && value.length <= 128;
}

/** The largest --context-window taken: far above any model's today, and far below a float's whole numbers. */
const MAX_CONTEXT_WINDOW = 100_000_000;

/**
 * `--context-window 131072` as a number of tokens.
 *
 * @example parseContextWindow('32768') // 32768
 * @throws UsageError for anything but a whole number from 1 to 100,000,000.
 */
function parseContextWindow(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_CONTEXT_WINDOW) {
    throw new UsageError(`--context-window takes the model's context window as a number of tokens, such as 131072, got ${value}`);
  }
  return n;
}

/** The highest price per million tokens taken: far above any model's today (a typo guard). */
const MAX_PRICE = 10_000;

/**
 * `--price 0.15/0.60` (input/output) or `--price 2.50/10/1.25` (and cached input), in USD per
 * million tokens, as providers list them.
 *
 * @example parsePrice('0.15/0.60') // { input: 0.15, output: 0.6 }
 * @throws UsageError for anything else.
 */
function parsePrice(value: string): CommandLinePrice {
  const parts = value.split('/');
  const prices = parts.map((p) => (/^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(p) ? Number(p) : Number.NaN));
  if ((parts.length !== 2 && parts.length !== 3) || prices.some((n) => !(n >= 0 && n <= MAX_PRICE))) {
    throw new UsageError(`--price takes the model's prices in USD per million tokens as input/output, such as 0.15/0.60, or input/output/cached-input, such as 2.50/10/1.25, got ${value}`);
  }
  const [input, output, cachedInput] = prices as [number, number, number | undefined];
  return { input, output, ...(cachedInput !== undefined ? { cachedInput } : {}) };
}

/** The words `agentbar` takes as a command, for suggestions. */
const COMMANDS = ['serve', 'proxy', 'chat', 'agents', 'sessions', 'sign-in', 'mcp', 'help', 'version'] as const;

/**
 * "Unknown command", with the command meant when the word is a typo or a plural of one.
 *
 * @example describeUnknownCommand('chats') // 'Unknown command: chats (did you mean agentbar chat?)'
 */
function describeUnknownCommand(word: string): string {
  const meant = findClosest(word.toLowerCase(), COMMANDS);
  return `Unknown command: ${word}${meant ? ` (did you mean agentbar ${meant}?)` : ''}`;
}

/**
 * " (did you mean --port?)" for a mistyped option among `options` (names without dashes), else "".
 *
 * @example suggestOption('--prot', ['port', 'host']) // ' (did you mean --port?)'
 */
function suggestOption(flag: string, options: readonly string[]): string {
  if (!flag.startsWith('--')) return '';
  const meant = findClosest(flag.slice(2).split('=')[0]!.toLowerCase(), options);
  return meant ? ` (did you mean --${meant}?)` : '';
}
