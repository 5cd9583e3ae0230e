/**
 * A tool call in a line of terminal text: what it is (its title) and what it acts on (the command
 * it runs, the file it touches), never the agent's raw input. An ACP agent's raw input is its own
 * bookkeeping (Codex sends call, process and turn ids); `--verbose` adds it for whoever debugs one.
 */
import type { ToolCallPart } from '../../../shared/schemas.ts';
import { truncateLine, truncateText } from '../../../shared/truncate.ts';

export interface DescribeOptions {
  /** Add the call's whole input as JSON (`agentbar chat --verbose`). */
  verbose?: boolean;
}

/** The input fields that name the file a call reads or writes, as the agents we know call them. */
const PATH_FIELDS = ['path', 'file_path', 'abs_path'] as const;
/** The input fields that say why the agent asks, where its call carries no text to show. */
const WORD_FIELDS = ['reason', 'description', 'message'] as const;
const MAX_TARGET = 160;
const MAX_ARGUMENTS = 120;
const MAX_WORDS = 600;
const MAX_VERBOSE = 4_000;
const SHOWN_LOCATIONS = 3;

/**
 * A call on one line. A call with a title (an ACP agent's) is its title plus the command or file
 * it acts on, where the title does not already say it; one without (a tool of agentbar's own
 * agents) is its name and its arguments, which its tool defines.
 *
 * @example describeToolCall({ ...call, title: 'Run rm -f hello.txt', input: { call_id: 'c1', command: ['bash', '-lc', 'rm -f hello.txt'] } }) // 'Run rm -f hello.txt'
 * describeToolCall({ ...call, title: 'Terminal', input: { command: 'ls src' } }) // 'Terminal · ls src'
 * describeToolCall({ ...call, toolName: 'search_docs', input: { query: 'diffs' } }) // 'search_docs({"query":"diffs"})'
 */
export function describeToolCall(call: ToolCallPart, options: DescribeOptions = {}): string {
  const input = JSON.stringify(call.input);
  if (!call.title) {
    if (input === '{}') return call.toolName;
    return `${call.toolName}(${options.verbose ? truncateText(input, MAX_VERBOSE) : truncateText(input, MAX_ARGUMENTS)})`;
  }
  const target = describeToolTarget(call);
  const label = target && !call.title.includes(target) ? `${call.title} · ${truncateLine(target, MAX_TARGET)}` : call.title;
  return options.verbose && input !== '{}' ? `${label} ${truncateText(input, MAX_VERBOSE)}` : label;
}

/**
 * What a call acts on: the command it runs (`command` or `cmd`, a string or its words; a shell's
 * `-c` script alone), else the file its input names, else the files it reports (`locations`).
 *
 * @example describeToolTarget({ ...call, input: { command: ['/bin/bash', '-lc', 'npm test'] } }) // 'npm test'
 */
export function describeToolTarget(call: Pick<ToolCallPart, 'input' | 'locations'>): string | undefined {
  const command = commandOf(call.input.command ?? call.input.cmd);
  if (command) return command;
  const path = PATH_FIELDS.map((field) => call.input[field]).find((value): value is string => typeof value === 'string' && value !== '');
  if (path) return path;
  return describeLocations(call.locations ?? []);
}

/**
 * What the agent says about the call it asks for: the first text it shows with the call (Codex's
 * "Do you want me to…?", Claude Code's description of a command, a plan to approve), else a
 * `reason`, `description` or `message` of its input; undefined when it says nothing beyond its title.
 *
 * @example describeAgentWords({ ...call, display: [{ type: 'text', text: 'Do you want me to delete hello.txt?' }] }) // 'Do you want me to delete hello.txt?'
 */
export function describeAgentWords(call: Pick<ToolCallPart, 'input' | 'display' | 'title'>): string | undefined {
  const shown = call.display?.find((item) => item.type === 'text')?.text;
  const field = WORD_FIELDS.map((name) => call.input[name]).find((value): value is string => typeof value === 'string');
  const words = (shown ?? field)?.trim();
  if (!words || words === call.title) return undefined;
  return truncateText(words, MAX_WORDS);
}

/** A command as its words, or as the script a shell is given with `-c` (`bash -lc "npm test"`: `npm test`). */
function commandOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const words = value.filter((word): word is string => typeof word === 'string');
  if (words.length !== value.length) return undefined;
  const [shell = '', flag = '', script] = words;
  if (words.length === 3 && script && /(^|\/)(ba|z|da)?sh$/.test(shell) && /^-[a-z]*c$/.test(flag)) return script;
  return words.map(quoteWord).join(' ');
}

/** A word as a shell would need it typed: quoted when it holds anything but plain characters. */
function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function describeLocations(locations: readonly { path: string }[]): string | undefined {
  if (locations.length === 0) return undefined;
  const shown = locations.slice(0, SHOWN_LOCATIONS).map((l) => l.path).join(', ');
  const more = locations.length - SHOWN_LOCATIONS;
  return more > 0 ? `${shown} and ${more} more` : shown;
}
