/**
 * `--config FILE [--profile NAME]`: options kept in a JSON or YAML file, as the command line would
 * give them, with named profiles. The file's keys are the options' names; an option the command
 * line gives wins over the file's, a profile's over the file's top level.
 *
 * ```yaml
 * model: llama3.2
 * base-url: http://127.0.0.1:11434/v1
 * max-turns: 12
 * profiles:
 *   openai: { model: gpt-4o-mini, base-url: https://api.openai.com/v1 }
 * ```
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { findClosest } from './closest-word.ts';
import { optionsOf, specOf, type CommandName, type OptionName } from './options.ts';

/** The value of `--name VALUE` / `--name=VALUE` in argv (the last one), before any `--`. */
function findValue(argv: readonly string[], name: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === `--${name}`) found = argv[++i];
    else if (a.startsWith(`--${name}=`)) found = a.slice(name.length + 3);
  }
  return found;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readConfig(file: string, read: (file: string) => string): Record<string, unknown> {
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    throw new Error(`--config ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    // YAML reads JSON as well; a .json file is held to JSON.
    parsed = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new Error(`--config ${file}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isMapping(parsed)) throw new Error(`--config ${file}: the file must hold a mapping of option names to values`);
  return parsed;
}

/** `--name=value` for each value of one option of the file. */
function toFlags(file: string, command: CommandName, key: string, value: unknown): string[] {
  const names: OptionName[] = optionsOf(command).filter((n) => n !== 'config' && n !== 'profile' && n !== 'help');
  const name = names.find((n) => n === key);
  if (!name) {
    const meant = findClosest(key, names);
    throw new Error(`--config ${file}: agentbar ${command} takes no option "${key}"${meant ? ` (did you mean ${meant}?)` : ''}`);
  }
  const spec = specOf(name);
  if (value === false || value === null) return [];
  if (spec.type === 'boolean') {
    if (value !== true) throw new Error(`--config ${file}: "${key}" is a switch: true or false`);
    return [`--${name}`];
  }
  const values = Array.isArray(value) && spec.multiple ? value : [value];
  return values.map((v) => {
    if (typeof v !== 'string' && typeof v !== 'number') throw new Error(`--config ${file}: "${key}" takes ${spec.multiple ? 'a value or a list of values' : 'one value'}`);
    return `--${name}=${v}`;
  });
}

/**
 * argv with the options of `--config` (and its `--profile`) in front of it, both taken out.
 * Throws an Error saying what is wrong with the file.
 *
 * @example expandConfigArgs('serve', ['--config', 'agentbar.yaml', '--port', '0']) // ['--model=llama3.2', '--base-url=…', '--port', '0']
 */
export function expandConfigArgs(command: CommandName, argv: readonly string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  const file = findValue(argv, 'config');
  const profile = findValue(argv, 'profile');
  if (file === undefined) {
    if (profile !== undefined) throw new Error('--profile names a profile of --config FILE: it needs --config');
    return [...argv];
  }
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (a === '--config' || a === '--profile') i++;
    else if (!a.startsWith('--config=') && !a.startsWith('--profile=')) rest.push(a);
  }
  const { profiles, ...top } = readConfig(file, read);
  let chosen: Record<string, unknown> = {};
  if (profile !== undefined) {
    const all = isMapping(profiles) ? profiles : {};
    const found = all[profile];
    if (!isMapping(found)) throw new Error(`--profile ${profile}: ${file} has no such profile${Object.keys(all).length ? ` (its profiles: ${Object.keys(all).join(', ')})` : ''}`);
    chosen = found;
  }
  const given = new Set(rest.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]));
  const flags = Object.entries({ ...top, ...chosen })
    .filter(([key]) => !given.has(key))
    .flatMap(([key, value]) => toFlags(file, command, key, value));
  return [...flags, ...rest];
}
