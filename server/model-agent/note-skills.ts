/**
 * Skills written as knowledge notes: a note tagged `#skill:<name>` and `#prompt` is the skill
 * `<name>`, its title the description and its text, lines of tags only left out, the prompt.
 */
import { loadNotes, type Note } from './knowledge-notes.ts';
import type { Skill } from './skills.ts';

const SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The skill a note is, or null.
 *
 * @example noteToSkill(note) // { name: 'deploy', description: 'Deploying', tools: [], prompt: 'Run make deploy.', file }
 */
export function noteToSkill(note: Note): Skill | null {
  if (!note.tags.includes('prompt')) return null;
  const name = note.tags.find((t) => t.startsWith('skill:'))?.slice('skill:'.length);
  if (!name || !SKILL_NAME.test(name)) return null;
  const prompt = note.text
    .split('\n')
    .filter((line) => !/^\s*(#[^\s#]\S*\s*)+$/.test(line) && !/^#\s/.test(line))
    .join('\n')
    .trim();
  return prompt ? { name, description: note.title, tools: [], prompt, file: note.file } : null;
}

/**
 * The skills among the notes of `dir`.
 *
 * @example const skills = await loadNoteSkills(path.join(dataDir, 'notes'));
 */
export async function loadNoteSkills(dir: string): Promise<Skill[]> {
  return (await loadNotes(dir)).map(noteToSkill).filter((s): s is Skill => s !== null);
}
