/**
 * The `context` a skill's front matter may declare: what to fetch into the prompt while the skill
 * is active (skill-context.ts fetches it).
 *
 * ```yaml
 * context:
 *   files: [package.json, src/**\/*.css]   # files or globs in the working folder
 *   page: [get_page_info]                  # page tools called with no input
 *   command: npm test -- --reporter=dot    # run only after the user approves
 * ```
 */
import { readStringList } from './front-matter.ts';

export interface SkillContextSpec {
  files: string[];
  page: string[];
  command?: string;
}

/**
 * `{ context }` when the fields declare one, else `{}`. Throws an Error saying what is wrong.
 *
 * @example readSkillContext({ context: { files: ['package.json'] } }) // { context: { files: ['package.json'], page: [] } }
 */
export function readSkillContext(fields: Record<string, unknown>): { context?: SkillContextSpec } {
  const raw = fields.context;
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error('"context" must be a mapping (files: […], page: […], command: …)');
  const spec: Record<string, unknown> = { ...raw };
  const unknown = Object.keys(spec).filter((k) => !['files', 'page', 'command'].includes(k));
  if (unknown.length) throw new Error(`"context" takes files, page and command, not ${unknown.join(', ')}`);
  const files = readStringList(spec, 'files', 'files or globs');
  if (files.some((f) => f.startsWith('/') || f.split('/').includes('..'))) throw new Error('"context.files" must stay in the working folder (no leading / or ..)');
  const page = readStringList(spec, 'page', 'page tool names');
  if (spec.command !== undefined && (typeof spec.command !== 'string' || !spec.command.trim())) throw new Error('"context.command" must be a command line');
  const command = typeof spec.command === 'string' ? spec.command.trim() : undefined;
  return { context: { files, page, ...(command ? { command } : {}) } };
}
