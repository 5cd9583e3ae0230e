/**
 * Markdown with YAML front matter (`---`, a YAML mapping, `---`, then the body), as skills and
 * personas are written. Errors say what is wrong, never where: the caller adds the path.
 */
import { parse as parseYaml } from 'yaml';

/**
 * The front matter's fields and the trimmed body. Throws an Error saying what is wrong.
 *
 * @example splitFrontMatter('---\nname: review\n---\nYou review diffs.') // { fields: { name: 'review' }, body: 'You review diffs.' }
 */
export function splitFrontMatter(text: string): { fields: Record<string, unknown>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text.replace(/^\uFEFF/, ''));
  if (!m) throw new Error('no front matter: the file must start with a line "---", then YAML, then "---"');
  let meta: unknown;
  try {
    meta = parseYaml(m[1]!);
  } catch (error) {
    throw new Error(`front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw new Error('front matter must be a YAML mapping (name: …, description: …)');
  return { fields: { ...meta }, body: m[2]!.trim() };
}

/**
 * A field that must be a list of strings (absent: empty). Throws naming the field.
 *
 * @example readStringList({ tools: ['lint'] }, 'tools') // ['lint']
 */
export function readStringList(fields: Record<string, unknown>, key: string, what = 'names'): string[] {
  const value = fields[key] ?? [];
  if (!Array.isArray(value) || !value.every((t): t is string => typeof t === 'string')) throw new Error(`"${key}" must be a list of ${what}`);
  return value;
}
