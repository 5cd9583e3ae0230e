/**
 * Every option of every `agentbar` command, each defined once: how `util.parseArgs` reads it, which
 * commands take it, and its lines in their help. parse-args.ts reads a command line against it.
 */

/** The commands that read options (`help` and `version` take none). */
export type CommandName = 'serve' | 'chat' | 'agents' | 'sessions' | 'sign-in' | 'mcp';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** Repeatable: its values are kept in order, not the last one only. */
  multiple?: true;
  commands: readonly CommandName[];
  /** A flag of the `--model` agent: meaningless without `--model`. */
  needsModel?: true;
  /** What its value looks like in the help (`<n>`); none for a switch. */
  value?: string;
  /** Its help, one string a line; per command where they differ. */
  help?: readonly string[] | { readonly [C in CommandName]?: readonly string[] };
}

/** Every command takes the data folder, help, and the agents of `serve` (for a server of its own). */
const EVERY: readonly CommandName[] = ['serve', 'chat', 'agents', 'sessions', 'sign-in', 'mcp'];

/**
 * The table. Its order counts: among names equally close to a mistyped one, "did you mean" offers
 * the first.
 */
export const OPTIONS = {
  port: { type: 'string', commands: ['serve'], value: '<n>', help: ['Port to listen on; 0 picks a free one (default 4477)'] },
  host: { type: 'string', commands: ['serve'], value: '<addr>', help: ['Address to bind (default 127.0.0.1; others need --unsafe-expose)'] },
  'data-dir': { type: 'string', commands: EVERY, value: '<dir>', help: ['Where chats live (default $AGENTBAR_DATA_DIR or ~/.agentbar)'] },
  'allow-origin': { type: 'string', multiple: true, commands: ['serve'], value: '<url>', help: ['Also accept this browser origin (repeatable)'] },
  token: { type: 'string', commands: ['serve'], value: '<value>', help: ['Use this token instead of a new random one (at least 16 characters)'] },
  'unsafe-expose': { type: 'boolean', commands: ['serve'], help: ['Allow a non-loopback --host (anyone who can reach it and learns the token can drive the agent)'] },
  help: { type: 'boolean', short: 'h', commands: EVERY, help: ['Show this help'] },
  proxy: { type: 'string', commands: ['serve'], value: '<url>', help: ['Also run a proxy in front of this dev server that puts the toolbar in its pages'] },
  'proxy-port': { type: 'string', commands: ['serve'], value: '<n>', help: ["The proxy's port; 0 picks a free one (default 4478)"] },
  'insecure-upstream': { type: 'boolean', commands: ['serve'], help: ["Accept the dev server's https certificate unchecked (a self-signed one)"] },
  config: {
    type: 'string',
    commands: EVERY,
    value: '<file>',
    help: ["Read options from a JSON or YAML file (keys are the options' names, e.g.", 'base-url; "profiles" holds named sets); the command line wins'],
  },
  profile: { type: 'string', commands: EVERY, value: '<name>', help: ['Also read the options of this profile of --config'] },

  model: {
    type: 'string',
    multiple: true,
    commands: EVERY,
    value: '<name>',
    help: ['The model, e.g. llama3.2 or gpt-4o-mini; repeat it to offer more models', 'in a Model menu, per chat (the first is the default)'],
  },
  'base-url': { type: 'string', commands: EVERY, needsModel: true, value: '<url>', help: ['Its API, e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1'] },
  'api-key-env': { type: 'string', commands: EVERY, needsModel: true, value: '<VAR>', help: ['Read the key from this environment variable (default OPENAI_API_KEY; none is fine for local servers)'] },
  'agent-id': { type: 'string', commands: EVERY, needsModel: true, value: '<id>', help: ["The agent's id (default model/<name>)"] },
  system: { type: 'string', commands: EVERY, needsModel: true, value: '<text>', help: ['Its personality: the start of its system prompt'] },
  'skills-dir': { type: 'string', commands: EVERY, needsModel: true, value: '<dir>', help: ['Skills: <dir>/<name>/SKILL.md (default DATA_DIR/skills)'] },
  'reload-skills-each-task': { type: 'boolean', commands: EVERY, needsModel: true, help: ['Read the skills again before every reply (for editing them live)'] },
  persona: { type: 'string', commands: EVERY, needsModel: true, value: '<name>', help: ['Be the persona DATA_DIR/agents/<name>.md (id persona/<name>); without it,', 'every persona there is served beside the model agent'] },
  'max-turns': { type: 'string', commands: EVERY, needsModel: true, value: '<n>', help: ['Model steps per reply, each tool round one (default 8)'] },
  'record-soul': {
    type: 'boolean',
    commands: EVERY,
    needsModel: true,
    help: ['After each finished reply, one more model call updates the agent\'s soul', '(DATA_DIR/souls/<agent id>.md, read into its prompt in every chat)'],
  },
  'context-window': {
    type: 'string',
    commands: EVERY,
    needsModel: true,
    value: '<tokens>',
    help: ["The model's context window, e.g. 32768: the toolbar then shows how full", 'it is (the server is asked for token counts, stream_options.include_usage)'],
  },
  price: {
    type: 'string',
    commands: EVERY,
    needsModel: true,
    value: '<in>/<out>[/<cached in>]',
    help: ['Its prices in USD per million tokens, e.g. 0.15/0.60: the toolbar then', 'also shows what each chat has cost (needs --context-window)'],
  },

  acp: { type: 'string', multiple: true, commands: EVERY, value: '"<command> [args]"', help: ['Start this agent on the first message and talk to it over ACP (repeatable)'] },
  'acp-id': { type: 'string', multiple: true, commands: EVERY, value: '<id>', help: ['The id of the --acp before it (default acp/<program>, e.g. acp/gemini)'] },
  cwd: { type: 'string', commands: EVERY, value: '<dir>', help: ['The folder ACP agents work in and may read and write (default: here)'] },

  agent: {
    type: 'string',
    short: 'a',
    commands: ['chat'],
    value: '<id>',
    help: ['The agent to talk to (`agentbar agents` lists them); needed unless one', 'agent is given with --model or --acp'],
  },
  message: { type: 'string', short: 'm', commands: ['chat'], value: '<text>', help: ['The message to send'] },
  session: { type: 'string', commands: ['chat'], value: '<name>', help: ['The chat to use, by title or id (default "default"; created on first use)'] },
  new: { type: 'boolean', commands: ['chat'], help: ['Start that session afresh (deleting it through the agent, which may refuse)'] },
  yes: { type: 'boolean', commands: ['chat'], help: ["Approve the agent's tool calls without asking (needed without a terminal)"] },
  verbose: {
    type: 'boolean',
    commands: ['chat'],
    help: ["Show each tool call's whole input as the agent sent it (its raw JSON), not", 'only its title and the command or file it acts on'],
  },
  'show-progress': { type: 'boolean', commands: ['chat'], help: ['Note tool calls, plans and thinking time on stderr (the default)'] },
  'no-progress': { type: 'boolean', commands: ['chat'], help: ['Leave those notes out: stderr gets the completion line, notices and errors'] },
  'save-files': {
    type: 'string',
    commands: ['chat'],
    value: '<dir>',
    help: ['Write the files a reply carries to <dir> (created if missing; an existing', 'file is never replaced: orders.csv, then orders-1.csv); exits 1 if one fails'],
  },
  attach: {
    type: 'string',
    multiple: true,
    commands: ['chat'],
    value: '<file>',
    help: [
      'Send a file with the -m message (repeatable): images as images, anything',
      'else as a file, as the toolbar sends them (at most 5 MB each); - reads',
      'standard input (git diff | agentbar chat -a … -m "review" --attach -)',
    ],
  },

  delete: { type: 'string', commands: ['sessions'], value: '<name>', help: ['Delete the chat with this title or id (its agent may refuse: the reason is printed)'] },
  export: {
    type: 'string',
    commands: ['sessions'],
    value: '<name>',
    help: [
      'Print the chat with this title or id as Markdown (> chat.md to keep it): who',
      'wrote each message and when, tool calls and their results (cut at 4,000',
      `characters), attachments by name; the toolbar's "Copy chat" gives the same text`,
    ],
  },
  soul: {
    type: 'string',
    commands: ['agents'],
    value: '<id>',
    help: ["Print the agent's soul and the file it is kept in (edit that file to change it)"],
  },
  json: {
    type: 'boolean',
    commands: ['agents', 'sessions'],
    help: {
      agents: ['Print the list as JSON (the AgentInfo objects of GET /agents)'],
      sessions: ['Print the list as JSON (updatedAt in ISO 8601, UTC); with --export, the', "chat's messages as the protocol has them"],
    },
  },

  // Described in the prose of `agentbar mcp`'s help.
  url: { type: 'string', commands: ['mcp'] },
  chat: { type: 'string', commands: ['mcp'] },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

/** What reading an option gives: `true` for a switch, every value of a repeatable one, else the last. */
type ValueOf<S> = S extends { type: 'boolean' } ? true : S extends { multiple: true } ? string[] : string;

/** The options a command line gave, by name. */
export type OptionValues = { [K in OptionName]?: ValueOf<(typeof OPTIONS)[K]> };

const NAMES = Object.keys(OPTIONS) as OptionName[];

/**
 * The options `command` takes, in the table's order.
 *
 * @example optionsOf('sign-in') // ['data-dir', 'help', 'model', 'base-url', …, 'cwd']
 */
export function optionsOf(command: CommandName): OptionName[] {
  return NAMES.filter((name) => specOf(name).commands.includes(command));
}

/** The entry of `name`, as the general OptionSpec (the table's literal types are for OptionValues). */
export function specOf(name: OptionName): OptionSpec {
  return OPTIONS[name];
}

/**
 * The help lines of `names`: the flag, then its text from column `width + 2` (below the flag when
 * the flag is wider), continued lines under the text. `command` picks the text an option has there.
 *
 * @example describeOptions(['port']) // '  --port <n>            Port to listen on; 0 picks a free one (default 4477)'
 */
export function describeOptions(names: readonly OptionName[], width = 22, command?: CommandName): string {
  const indent = ' '.repeat(width + 2);
  return names
    .flatMap((name) => {
      const spec = specOf(name);
      const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`;
      const [first = '', ...more] = helpOf(spec, command);
      const head = flag.length < width ? [`  ${flag.padEnd(width)}${first}`] : [`  ${flag}`, `${indent}${first}`];
      return [...head, ...more.map((line) => `${indent}${line}`)];
    })
    .join('\n');
}

function helpOf(spec: OptionSpec, command: CommandName | undefined): readonly string[] {
  const help = spec.help ?? [];
  if (isLines(help)) return help;
  return command ? (help[command] ?? []) : [];
}

function isLines(help: NonNullable<OptionSpec['help']>): help is readonly string[] {
  return Array.isArray(help);
}

/** The end of the help of every command but `serve`: the options they all take. */
export const COMMON_HELP = `${describeOptions(['data-dir', 'help', 'config', 'profile'])}
With no server running on that folder, the command starts one of its own for as long as it runs,
with the demo agents and, given the flags of \`agentbar serve\` (--model, --base-url, …, --acp,
--acp-id, --cwd), a model agent and your ACP agents.`;

/** `agentbar proxy`'s help. */
export const PROXY_USAGE = `Usage: agentbar proxy <url> [options]

Starts the agent server, as \`agentbar serve\` does (with the same options), and a proxy in front of
the dev server at <url> (http://localhost:3000, https://localhost:5173) that puts the toolbar into
its pages and passes everything else through: its hot reload's WebSocket, server-sent events,
redirects and cookies. Open the sign-in address it prints: it opens your app through the proxy
and keeps that browser signed in. Same as \`agentbar serve --proxy <url>\`.

Options:
${describeOptions(['proxy-port', 'insecure-upstream', 'port', 'data-dir', 'help'])}
and the agents' options of \`agentbar serve\` (agentbar help serve).`;

/** `agentbar serve`'s help, which `agentbar help` prints too. */
export const USAGE = `Usage: agentbar serve [options]
       agentbar proxy <url> [options]                  (serve, and the toolbar in the pages of the dev server at <url>)
       agentbar agents [--json]                        (list the agents)
       agentbar chat -a <agent> [-m <message>] [--session <name>] [--new] [--yes]
       agentbar sessions [--delete|--export <name>] [--json]   (list, delete or export chats)
       agentbar sign-in                                (print a new one-time address for the demo page)
       agentbar mcp [--chat <id>]                      (the page's tools as a stdio MCP server)
       agentbar help [<command>]                       (a command's help; agentbar --version prints the version)
       (each takes --data-dir <dir> and --help)

Starts the agent server with the demo agents and prints a one-time sign-in address for the demo page.

Options:
${describeOptions(['port', 'host', 'data-dir', 'allow-origin', 'token', 'unsafe-expose', 'help', 'config', 'profile'])}

A model agent (any OpenAI-compatible endpoint: OpenAI, Ollama, LM Studio, vLLM, llama.cpp server),
served beside the demo agents:
${describeOptions(['model', 'base-url', 'api-key-env', 'agent-id', 'system', 'skills-dir', 'reload-skills-each-task', 'persona', 'max-turns', 'record-soul', 'context-window', 'price'], 27)}

Your own coding agent, over the Agent Client Protocol (Claude Code's ACP adapter, Gemini CLI, …):
${describeOptions(['acp', 'acp-id', 'cwd'], 27)}`;
