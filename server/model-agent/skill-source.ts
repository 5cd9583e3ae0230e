/**
 * Where a model agent's skills come from: the folder read once and cached, or again before every
 * run (`reloadEachTask`, for people editing skills live). Broken files are logged with their path.
 */
import { loadSkills, type Skill } from './skills.ts';

export const SKILL_TOOLS = { activate: 'activate_skill', deactivate: 'deactivate_skill' } as const;

export interface SkillSource {
  readonly dir: string | null;
  get(): Promise<Skill[]>;
  /** Called before each run: reloads when asked to. */
  beforeRun(): Promise<void>;
}

export function createSkillSource(
  options: { dir: string; reloadEachTask?: boolean } | undefined,
  log: (level: 'info' | 'warn' | 'error', message: string) => void,
): SkillSource {
  let loaded: Promise<Skill[]> | null = null;
  const load = () =>
    (loaded = options
      ? loadSkills(options.dir).then(({ skills, errors }) => {
          for (const e of errors) log('error', `Skill not loaded: ${e}`);
          return skills;
        })
      : Promise.resolve([]));
  // Read once at start, so a broken file is reported when the server starts, not at first use.
  if (options) void load();
  return {
    dir: options?.dir ?? null,
    get: () => loaded ?? load(),
    async beforeRun() {
      if (options?.reloadEachTask) await load();
    },
  };
}
