/**
 * Skills: `<dir>/<name>/SKILL.md`, YAML front matter (`name`, `description`, `tools`: the tools the
 * skill enables) then the prompt the skill adds while it is active. A broken file is reported with
 * its path and what is wrong, and the others still load.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readStringList, splitFrontMatter } from './front-matter.ts';
import { readSkillContext, type SkillContextSpec } from './skill-context-spec.ts';

export interface Skill {
  name: string;
  description: string;
  /** Tools offered only while this skill is active. */
  tools: string[];
  /** Added to the system prompt while active. */
  prompt: string;
  /** The SKILL.md (or the note) it came from. */
  file: string;
  /** What to fetch into the prompt while it is active (skill-context.ts). */
  context?: SkillContextSpec;
}

export interface LoadedSkills {
  skills: Skill[];
  /** One line per file that could not be used: `path: problem`. */
  errors: string[];
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** A SKILL.md larger than this is refused: it goes into every prompt while active. */
const MAX_SKILL_BYTES = 64 * 1024;

/**
 * Parses one SKILL.md. Throws an Error whose message says what is wrong (without the path).
 *
 * @example parseSkill('---\nname: review\ndescription: Reviews a diff\n---\nYou review diffs.', 'review', 'skills/review/SKILL.md')
 */
export function parseSkill(text: string, folderName: string, file: string): Skill {
  const { fields, body } = splitFrontMatter(text);
  const name = fields.name ?? folderName;
  if (typeof name !== 'string' || !NAME.test(name)) throw new Error(`"name" must be lower-case letters, digits, "-" or "_" (got ${JSON.stringify(name)})`);
  if (typeof fields.description !== 'string' || !fields.description.trim()) throw new Error('"description" is missing: say in one line what the skill is for');
  const tools = readStringList(fields, 'tools', 'tool names');
  const prompt = body;
  if (!prompt) throw new Error('the skill has no prompt after its front matter');
  return { name, description: fields.description.trim(), tools, prompt, file, ...readSkillContext(fields) };
}

/**
 * Reads every `<dir>/<name>/SKILL.md`. A missing folder is no skills and no error.
 *
 * @example const { skills, errors } = await loadSkills(path.join(dataDir, 'skills'));
 */
export async function loadSkills(dir: string): Promise<LoadedSkills> {
  const result: LoadedSkills = { skills: [], errors: [] };
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    result.errors.push(`${dir}: ${(error as Error).message}`);
    return result;
  }
  const seen = new Set<string>();
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue;
    const file = path.join(dir, entry.name, 'SKILL.md');
    let text: string;
    try {
      const buffer = await readFile(file);
      if (buffer.length > MAX_SKILL_BYTES) throw new Error(`larger than ${MAX_SKILL_BYTES / 1024} KiB`);
      text = buffer.toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // a folder that is not a skill
      result.errors.push(`${file}: ${(error as Error).message}`);
      continue;
    }
    try {
      const skill = parseSkill(text, entry.name, file);
      if (seen.has(skill.name)) throw new Error(`another skill is already named "${skill.name}"`);
      seen.add(skill.name);
      result.skills.push(skill);
    } catch (error) {
      result.errors.push(`${file}: ${(error as Error).message}`);
    }
  }
  return result;
}
