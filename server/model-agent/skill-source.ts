/**
 * Where a model agent's skills come from: the folder read once and cached, or again before every
 * run (`reloadEachTask`, for people editing skills live). Broken files are logged with their path.
 */
import { loadNoteSkills } from './note-skills.ts';
import { loadSkills, type Skill } from './skills.ts';

export const SKILL_TOOLS = { activate: 'activate_skill', deactivate: 'deactivate_skill' } as const;

export interface SkillSource {
  readonly dir: string | null;
  get(): Promise<Skill[]>;
  /** Called before each run: reloads when asked to. */
  beforeRun(): Promise<void>;
}

/** Where skills are read: a skills folder, notes tagged `#skill:<name> #prompt`, and the ones a persona may use. */
export interface SkillSourceOptions {
  dir?: string;
  reloadEachTask?: boolean;
  notesDir?: string;
  /** Only these skills (a persona's `skills`, read before each use: it may be edited); undefined: all. */
  allowed?: () => readonly string[] | undefined;
}

/**
 * @example const skills = createSkillSource({ dir: path.join(dataDir, 'skills') }, log);
 */
export function createSkillSource(options: SkillSourceOptions | undefined, log: (level: 'info' | 'warn' | 'error', message: string) => void): SkillSource {
  let loaded: Promise<Skill[]> | null = null;
  const readAll = async (): Promise<Skill[]> => {
    const { skills, errors } = options?.dir ? await loadSkills(options.dir) : { skills: [], errors: [] };
    for (const e of errors) log('error', `Skill not loaded: ${e}`);
    for (const s of options?.notesDir ? await loadNoteSkills(options.notesDir) : []) {
      if (skills.some((k) => k.name === s.name)) log('warn', `Skill not loaded: ${s.file}: another skill is already named "${s.name}"`);
      else skills.push(s);
    }
    return skills;
  };
  const only = (skills: Skill[]): Skill[] => {
    const allowed = options?.allowed?.();
    return allowed ? skills.filter((s) => allowed.includes(s.name)) : skills;
  };
  const load = () => (loaded = options ? readAll() : Promise.resolve([]));
  // Read once at start, so a broken file is reported when the server starts, not at first use.
  if (options) void load();
  return {
    dir: options?.dir ?? null,
    get: async () => only(await (loaded ?? load())),
    async beforeRun() {
      if (options?.reloadEachTask) await load();
    },
  };
}
