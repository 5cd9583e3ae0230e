/**
 * Personas: `<dir>/<name>.md` (DATA_DIR/agents), each a model agent of its own. Front matter:
 * `description`, and optionally `id` (default `persona/<name>`), `model` (one the endpoint serves),
 * `skills` (the only skills it may switch on) and `personality` (the seed of its soul until it has
 * one); the body is its prompt. A broken file is reported with its path and the others still load.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readStringList, splitFrontMatter } from './front-matter.ts';

export interface Persona {
  /** The file's name without `.md`. */
  name: string;
  /** Its agent id: `persona/<name>` unless the file gives one. */
  id: string;
  description: string;
  /** A model name at the same endpoint; absent: the default model. */
  model?: string;
  /** The skills it may switch on; absent: all. */
  skills?: string[];
  /** The seed of its soul, shown until it has recorded one. */
  personality?: string;
  /** Its system prompt. */
  prompt: string;
  /** The file it came from. */
  file: string;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const AGENT_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
const MAX_PERSONA_BYTES = 64 * 1024;

function optionalText(fields: Record<string, unknown>, key: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !value.trim()) throw new Error(`"${key}" must be text`);
  return value.trim();
}

/**
 * Parses one persona file. Throws an Error whose message says what is wrong (without the path).
 *
 * @example parsePersona('---\ndescription: Reviews diffs\n---\nYou review diffs.', 'reviewer', 'agents/reviewer.md')
 */
export function parsePersona(text: string, name: string, file: string): Persona {
  if (!NAME.test(name)) throw new Error('the file name must be lower-case letters, digits, "-" or "_", then .md');
  const { fields, body } = splitFrontMatter(text);
  const description = optionalText(fields, 'description');
  if (!description) throw new Error('"description" is missing: say in one line who the persona is');
  const id = optionalText(fields, 'id') ?? `persona/${name}`;
  if (!AGENT_ID.test(id) || id.length > 128) throw new Error(`"id" must be a path such as persona/${name} (got ${JSON.stringify(id)})`);
  if (!body) throw new Error('the persona has no prompt after its front matter');
  const model = optionalText(fields, 'model');
  const personality = optionalText(fields, 'personality');
  const skills = fields.skills === undefined ? undefined : readStringList(fields, 'skills', 'skill names');
  return { name, id, description, prompt: body, file, ...(model ? { model } : {}), ...(skills ? { skills } : {}), ...(personality ? { personality } : {}) };
}

/**
 * Reads and parses one persona file, named by its file name. Throws an Error that says what is wrong (without the path).
 *
 * @example const persona = await readPersona(path.join(dataDir, 'agents', 'reviewer.md'));
 */
export async function readPersona(file: string): Promise<Persona> {
  const buffer = await readFile(file);
  if (buffer.length > MAX_PERSONA_BYTES) throw new Error(`larger than ${MAX_PERSONA_BYTES / 1024} KiB`);
  return parsePersona(buffer.toString('utf8'), path.basename(file, '.md'), file);
}

/**
 * Reads every `<dir>/<name>.md`. A missing folder is no personas and no error.
 *
 * @example const { personas, errors } = await loadPersonas(path.join(dataDir, 'agents'));
 */
export async function loadPersonas(dir: string): Promise<{ personas: Persona[]; errors: string[] }> {
  const result = { personas: [] as Persona[], errors: [] as string[] };
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') result.errors.push(`${dir}: ${(error as Error).message}`);
    return result;
  }
  const ids = new Set<string>();
  for (const entry of names) {
    const file = path.join(dir, entry);
    try {
      const persona = await readPersona(file);
      if (ids.has(persona.id)) throw new Error(`another persona is already ${persona.id}`);
      ids.add(persona.id);
      result.personas.push(persona);
    } catch (error) {
      result.errors.push(`${file}: ${(error as Error).message}`);
    }
  }
  return result;
}
