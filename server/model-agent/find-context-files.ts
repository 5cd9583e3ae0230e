/**
 * The files of a working folder that a skill's `context.files` names: plain paths and globs (`*`
 * within a folder, `**` across folders, `?` one character), in the order given, each file once.
 * The walk skips dot folders and node_modules and is bounded, so a huge folder costs little.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Entries looked at in one walk, at most. */
const MAX_WALKED = 5_000;

/**
 * A glob as a regular expression over `/`-separated relative paths.
 *
 * @example globToRegExp('src/**\/*.css').test('src/a/b.css') // true
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` matches no folder or any number of them.
      if (glob[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  const folders = [''];
  while (folders.length && out.length < MAX_WALKED) {
    const rel = folders.shift()!;
    let entries;
    try {
      entries = await readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!e.name.startsWith('.') && e.name !== 'node_modules') folders.push(child);
      } else if (e.isFile()) out.push(child);
    }
  }
  return out;
}

/**
 * The relative paths `patterns` name under `root`, at most `limit`.
 *
 * @example await findContextFiles(process.cwd(), ['package.json', 'src/**\/*.css'], 20)
 */
export async function findContextFiles(root: string, patterns: readonly string[], limit: number): Promise<string[]> {
  const globs = patterns.filter((p) => /[*?]/.test(p));
  const files = globs.length ? await walk(root) : [];
  const found: string[] = [];
  for (const p of patterns) {
    const matches = /[*?]/.test(p) ? files.filter((f) => globToRegExp(p).test(f)) : [p.replace(/^\.\//, '')];
    for (const m of matches) if (!found.includes(m)) found.push(m);
  }
  return found.slice(0, limit);
}
