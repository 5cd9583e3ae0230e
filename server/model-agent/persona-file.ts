/**
 * A persona kept current with its file: cached, and before each reply one `stat`; the file is read
 * again only when its modification time or size changed. An edit that no
 * longer parses is reported with its path once, and the last good version stays in use; so does
 * the last version of a file that is gone (the persona folder's check reports that). Its id and
 * model are fixed while the server runs: the agent was registered, and its model made, with them.
 */
import { stat } from 'node:fs/promises';
import { readPersona, type Persona } from './personas.ts';

export interface PersonaFile {
  /** The persona as its file says now (or its last good version). */
  get(): Promise<Persona>;
}

type Log = (level: 'info' | 'warn' | 'error', message: string) => void;

/** What tells a changed file: its modification time and size; '' when it is missing. */
async function stampOf(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.mtimeMs}:${s.size}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/**
 * @example const personaFile = watchPersonaFile(persona, log); const now = await personaFile.get();
 */
export function watchPersonaFile(persona: Persona, log: Log): PersonaFile {
  let current = persona;
  // Unknown until the first look: the file may have changed since it was loaded.
  let stamp: string | null = null;
  return {
    async get() {
      let now: string;
      try {
        now = await stampOf(persona.file);
      } catch (error) {
        log('error', `Persona not reloaded: ${persona.file}: ${(error as Error).message}; it keeps its last version`);
        return current;
      }
      if (now === stamp || now === '') {
        stamp = now;
        return current;
      }
      const first = stamp === null;
      // Set before reading: a broken edit is reported once, not before every reply.
      stamp = now;
      try {
        const next = await readPersona(persona.file);
        if (next.id !== persona.id) log('warn', `Persona ${persona.file}: its id ${next.id} takes effect after a restart; until then it is ${persona.id}`);
        if (next.model !== persona.model) log('warn', `Persona ${persona.file}: its model takes effect after a restart`);
        current = { ...next, id: persona.id, model: persona.model };
        if (!first) log('info', `Persona reloaded: ${persona.file}`);
      } catch (error) {
        log('error', `Persona not reloaded: ${persona.file}: ${(error as Error).message}; it keeps its last version`);
      }
      return current;
    },
  };
}
