/**
 * The knowledge store: `<dir>/<name>.md` (DATA_DIR/notes), plain Markdown with `#tags` anywhere in
 * the text. Searched by tag and text (ranked, bounded), read by name, and added to without ever
 * replacing a note. Read from disk on each use, so notes written by hand count at once.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { truncateLine, truncateText } from '../../shared/truncate.ts';

export interface Note {
  name: string;
  /** Its first `# heading`, else its name. */
  title: string;
  /** Lower-cased, without `#`, in order of appearance. */
  tags: string[];
  text: string;
  file: string;
}

export interface NoteHit {
  name: string;
  title: string;
  tags: string[];
  score: number;
  excerpt: string;
}

/** The store's bounds: notes read, a note's size, what a search and a read return. */
export const NOTE_LIMITS = { notes: 1_000, noteBytes: 64 * 1024, hits: 10, defaultHits: 5, excerptChars: 240, readChars: 8_000 } as const;
export const NOTE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const TAG = /(?:^|[\s(])#([A-Za-z0-9][\w:/.-]*)/g;

/**
 * The `#tags` of a text, lower-cased, each once.
 *
 * @example readTags('Deploys #ops and #skill:deploy #prompt') // ['ops', 'skill:deploy', 'prompt']
 */
export function readTags(text: string): string[] {
  const tags: string[] = [];
  for (const m of text.matchAll(TAG)) {
    const tag = m[1]!.replace(/[.:/-]+$/, '').toLowerCase();
    if (tag && !tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

function parseNote(text: string, name: string, file: string): Note {
  const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? name;
  return { name, title, tags: readTags(text), text, file };
}

/**
 * Every note of `dir` (none when it is missing), by name; unreadable ones are left out.
 *
 * @example const notes = await loadNotes(path.join(dataDir, 'notes'));
 */
export async function loadNotes(dir: string): Promise<Note[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md') && NOTE_NAME.test(n.slice(0, -3))).sort();
  } catch {
    return [];
  }
  const notes: Note[] = [];
  for (const entry of names.slice(0, NOTE_LIMITS.notes)) {
    const file = path.join(dir, entry);
    try {
      const buffer = await readFile(file);
      if (buffer.length <= NOTE_LIMITS.noteBytes) notes.push(parseNote(buffer.toString('utf8'), entry.slice(0, -3), file));
    } catch {
      // Removed while listed, or not a file: not a note.
    }
  }
  return notes;
}

function countOf(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1 && n < 5; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

function excerptOf(note: Note, terms: readonly string[]): string {
  const lower = note.text.toLowerCase();
  const at = Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0), note.text.length);
  const start = at === note.text.length ? 0 : Math.max(0, at - 60);
  return truncateLine(note.text.slice(start), NOTE_LIMITS.excerptChars);
}

/**
 * The notes with every tag of `tags` that match `query`, best first: a word in the title counts
 * 3, in a tag 2, in the text 1 per use (up to 5); `limit` at most 10.
 *
 * @example searchNotes(notes, { query: 'deploy staging', tags: ['ops'] })
 */
export function searchNotes(notes: readonly Note[], request: { query?: string; tags?: readonly string[]; limit?: number }): NoteHit[] {
  const tags = (request.tags ?? []).map((t) => t.replace(/^#/, '').toLowerCase()).filter(Boolean);
  const terms = [...new Set((request.query ?? '').toLowerCase().split(/[^\p{L}\p{N}_:-]+/u).filter((t) => t.length >= 2))];
  const limit = Math.max(1, Math.min(NOTE_LIMITS.hits, Math.floor(request.limit ?? NOTE_LIMITS.defaultHits)));
  const hits: NoteHit[] = [];
  for (const note of notes) {
    if (!tags.every((t) => note.tags.includes(t))) continue;
    const title = note.title.toLowerCase();
    const text = note.text.toLowerCase();
    let score = tags.length * 10;
    for (const t of terms) score += countOf(title, t) * 3 + note.tags.filter((g) => g.includes(t)).length * 2 + countOf(text, t);
    if (terms.length && score === tags.length * 10) continue;
    hits.push({ name: note.name, title: note.title, tags: note.tags, score, excerpt: excerptOf(note, terms) });
  }
  return hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).slice(0, limit);
}

/**
 * One note's text, clipped; throws when there is none of that name.
 *
 * @example await readNote(dir, 'deploy')
 */
export async function readNote(dir: string, name: string): Promise<string> {
  const stem = name.replace(/\.md$/, '');
  const note = NOTE_NAME.test(stem) ? (await loadNotes(dir)).find((n) => n.name === stem) : undefined;
  if (!note) throw new Error(`No note named "${name}" (search_knowledge lists them)`);
  return truncateText(note.text, NOTE_LIMITS.readChars, '\n… (the rest of the note is cut)');
}

/**
 * Writes a new note `<dir>/<name>.md`, its tags on a last line; never replaces one that exists.
 *
 * @example await addNote(dir, { name: 'deploy', text: '# Deploy\nRun make deploy.', tags: ['ops'] })
 */
export async function addNote(dir: string, note: { name: string; text: string; tags?: readonly string[] }): Promise<string> {
  if (!NOTE_NAME.test(note.name)) throw new Error(`A note's name is lower-case letters, digits, "-" or "_" (got ${JSON.stringify(note.name)})`);
  const missing = (note.tags ?? []).map((t) => t.replace(/^#/, '').trim()).filter((t) => t && !readTags(note.text).includes(t.toLowerCase()));
  const text = `${note.text.trim()}\n${missing.length ? `\n${missing.map((t) => `#${t}`).join(' ')}\n` : ''}`;
  if (Buffer.byteLength(text) > NOTE_LIMITS.noteBytes) throw new Error(`A note is at most ${NOTE_LIMITS.noteBytes / 1024} KiB`);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${note.name}.md`);
  try {
    await writeFile(file, text, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`A note named "${note.name}" exists already; notes are never replaced: choose another name`);
    throw error;
  }
  return `Saved note ${note.name} (${file}).`;
}
