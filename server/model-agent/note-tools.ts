/**
 * The knowledge tools a model agent with a notes folder offers: `search_knowledge` (by tag and
 * text, ranked, bounded), `read_note`, and `add_note`, which asks the user every time, as switching
 * a skill on does (a note outlives the chat), and never replaces a note.
 */
import type { ModelAgentTool } from './create-model-agent.ts';
import { addNote, loadNotes, NOTE_LIMITS, readNote, searchNotes } from './knowledge-notes.ts';
import { SKILL_TOOLS } from './skill-source.ts';

export const NOTE_TOOLS = { search: 'search_knowledge', read: 'read_note', add: 'add_note' } as const;

/** Tools that ask the user each time, with no "Always allow in this chat". */
export const ASKS_EVERY_TIME: ReadonlySet<string> = new Set([SKILL_TOOLS.activate, NOTE_TOOLS.add]);

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The three tools over the notes of `dir`.
 *
 * @example const tools = createNoteTools(path.join(dataDir, 'notes'));
 */
export function createNoteTools(dir: string): ModelAgentTool[] {
  return [
    {
      name: NOTE_TOOLS.search,
      description: `Searches your knowledge notes by #tag and text; the best ${NOTE_LIMITS.defaultHits} (at most ${NOTE_LIMITS.hits}) first, each with an excerpt. Read one whole with ${NOTE_TOOLS.read}.`,
      type: 'deterministic',
      runtime: 'cli',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for' },
          tags: { type: 'array', items: { type: 'string' }, description: 'Tags every note found must have, without #' },
          limit: { type: 'integer', minimum: 1, maximum: NOTE_LIMITS.hits },
        },
        additionalProperties: false,
      },
      execute: async (input) => {
        const hits = searchNotes(await loadNotes(dir), {
          ...(typeof input.query === 'string' ? { query: input.query } : {}),
          tags: stringList(input.tags),
          ...(typeof input.limit === 'number' ? { limit: input.limit } : {}),
        });
        return hits.length ? hits : 'No note matches.';
      },
    },
    {
      name: NOTE_TOOLS.read,
      description: 'Reads one knowledge note by its name.',
      type: 'deterministic',
      runtime: 'cli',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
      execute: (input) => readNote(dir, typeof input.name === 'string' ? input.name : ''),
    },
    {
      name: NOTE_TOOLS.add,
      description: 'Saves a new knowledge note for later sessions (the user is asked first; an existing note is never replaced).',
      type: 'decision',
      runtime: 'cli',
      requiresApproval: true,
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'lower-case letters, digits, - or _' },
          text: { type: 'string', description: 'Markdown; a first line "# Title" names it' },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['name', 'text'],
        additionalProperties: false,
      },
      execute: (input) => addNote(dir, { name: typeof input.name === 'string' ? input.name : '', text: typeof input.text === 'string' ? input.text : '', tags: stringList(input.tags) }),
    },
  ];
}
