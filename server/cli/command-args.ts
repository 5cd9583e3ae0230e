/**
 * Arguments of `agentbar agents | chat | sessions | sign-in`, with Node's `util.parseArgs`. Each
 * command takes `--data-dir`, `-h/--help`, and the model flags of `serve` (used when no server is
 * running and the command starts one of its own).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { checkModelArgs, collectAcpArgs, defaultModelAgentId, parseAgentId, parseApiKeyEnv, parseBaseUrl, parseContextWindow, parsePrice, suggestOption, UsageError, type AcpArgs, type ModelArgs } from './cli-args.ts';
import { defaultDataDir } from '../server.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

const COMMON: Options = {
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  model: { type: 'string', multiple: true },
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
};

/** The flags that describe the --model agent: meaningless without it. */
const MODEL_FLAGS = new Set(['base-url', 'api-key-env', 'agent-id', 'system', 'skills-dir', 'reload-skills-each-task', 'context-window', 'price']);

export const COMMON_HELP = `  --data-dir <dir>      Where chats live (default $AGENTBAR_DATA_DIR or ~/.agentbar)
  -h, --help            Show this help
With no server running on that folder, the command starts one of its own for as long as it runs,
with the demo agents and, given the flags of \`agentbar serve\` (--model, --base-url, …, --acp,
--acp-id, --cwd), a model agent and your ACP agents.`;

export interface CommonArgs {
  dataDir: string;
  help: boolean;
  model: ModelArgs | null;
  acp: AcpArgs[];
  cwd: string | undefined;
}

/**
 * @example const { values, common } = parseCommandArgs(argv, { json: { type: 'boolean' } });
 * @throws UsageError for an unknown option or a missing value.
 */
export function parseCommandArgs<T extends Options>(argv: string[], options: T): { values: Record<string, string | boolean | string[] | undefined>; common: CommonArgs } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals: false, strict: true, tokens: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '').replace(/^Unexpected argument/, 'Unexpected argument');
    const unknown = /^Unknown option '([^']+)'$/.exec(message)?.[1];
    throw new UsageError(unknown ? `${message}${suggestOption(unknown, Object.keys({ ...COMMON, ...options }))}` : message);
  }
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>;
  let model: ModelArgs | null = null;
  // As for serve: the first --model is the default, the others are offered in its Model menu.
  const [name, ...more] = Array.isArray(v.model) ? [...new Set(v.model)] : [];
  if (name !== undefined) {
    if (typeof v['base-url'] !== 'string') throw new UsageError('--model needs --base-url: http://127.0.0.1:11434/v1 for Ollama, https://api.openai.com/v1 for OpenAI');
    model = {
      name,
      others: more,
      // Checked as serve checks them: a bad URL said now, not as the first reply's failure.
      baseUrl: parseBaseUrl(v['base-url']),
      apiKeyEnv: typeof v['api-key-env'] === 'string' ? parseApiKeyEnv(v['api-key-env']) : 'OPENAI_API_KEY',
      agentId: typeof v['agent-id'] === 'string' ? parseAgentId(v['agent-id']) : defaultModelAgentId(name),
      system: typeof v.system === 'string' ? v.system : undefined,
      skillsDir: typeof v['skills-dir'] === 'string' ? v['skills-dir'] : undefined,
      reloadSkillsEachTask: v['reload-skills-each-task'] === true,
      contextWindow: typeof v['context-window'] === 'string' ? parseContextWindow(v['context-window']) : undefined,
      price: typeof v.price === 'string' ? parsePrice(v.price) : undefined,
    };
    checkModelArgs(model);
  } else {
    const stray = parsed.tokens.find((t) => t.kind === 'option' && MODEL_FLAGS.has(t.name));
    if (stray?.kind === 'option') throw new UsageError(`--${stray.name} needs --model`);
  }
  const acpFlags = parsed.tokens.flatMap((t) => (t.kind === 'option' && (t.name === 'acp' || t.name === 'acp-id') && t.value !== undefined ? [{ flag: t.name as 'acp' | 'acp-id', value: t.value }] : []));
  const acp = collectAcpArgs(acpFlags);
  const cwd = typeof v.cwd === 'string' ? v.cwd : undefined;
  if (cwd !== undefined && acp.length === 0) throw new UsageError('--cwd is the folder of the --acp agents: it needs --acp');
  return { values: v, common: { dataDir: typeof v['data-dir'] === 'string' ? v['data-dir'] : defaultDataDir(), help: v.help === true, model, acp, cwd } };
}
