/**
 * What the server keeps per agent across restarts, in meta.json beside the active chat: the
 * agent's own state, its active skill, and the commands, modes and settings it set at run time.
 * Read once at start, shown in each `AgentInfo`, and changed through the `ctx.state` of its runs.
 */
import { LIMITS } from '../../shared/limits.ts';
import type { AgentCommand, AgentInfo, AgentMode, AgentSetting } from '../../shared/schemas.ts';
import type { AgentStateAccess } from '../sdk/agent.ts';
import { normalizeCommands } from '../sdk/agent-commands.ts';
import { normalizeModes } from '../sdk/agent-modes.ts';
import type { AgentRegistry } from '../sdk/agent-registry.ts';
import { normalizeSettings } from '../sdk/agent-settings.ts';
import { titleFromText } from './chat-title.ts';
import { statePath } from './state-paths.ts';
import type { StateStore } from './state-store.ts';

/** One agent's entry in meta.json. */
export interface AgentMeta {
  state?: unknown;
  activeSkill?: string | null;
  commands?: AgentCommand[];
  modes?: AgentMode[];
  settings?: AgentSetting[];
}

/** What the `ctx.state` of a run changes besides the entries: the state clients see, the file, a chat's title. */
export interface AgentStateHost {
  store: StateStore;
  /** Writes meta.json with every agent's entry. */
  save(): void;
  /** Names a chat as its agent would (`ChatManager.nameByAgent`): false when the user named it. */
  nameChat(chatId: string, title: string): boolean;
}

/** The JSON of an agent's state is bounded: it is written to meta.json with every change. */
const MAX_STATE_JSON_LENGTH = 1024 * 1024;
const MAX_SKILL_LENGTH = 200;

const LISTS = {
  commands: { normalize: normalizeCommands, path: statePath.agentCommands },
  modes: { normalize: normalizeModes, path: statePath.agentModes },
  settings: { normalize: normalizeSettings, path: statePath.agentSettings },
} as const;
type ListKey = keyof typeof LISTS;

/**
 * An entry as meta.json holds it, or undefined when it is no object. The file is ours, but a hand
 * edit or an older version must not put a bad skill or list in the state; other fields are kept.
 */
function readMeta(stored: unknown): AgentMeta | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const { activeSkill, commands, modes, settings, ...other }: Record<string, unknown> = { ...stored };
  const meta: AgentMeta = { ...other };
  if (typeof activeSkill === 'string' || activeSkill === null) meta.activeSkill = activeSkill;
  if (commands !== undefined) meta.commands = Array.isArray(commands) ? normalizeCommands(commands) : [];
  if (modes !== undefined) meta.modes = Array.isArray(modes) ? normalizeModes(modes) : [];
  if (settings !== undefined) meta.settings = Array.isArray(settings) ? normalizeSettings(settings) : [];
  return meta;
}

/**
 * Every registered agent's kept entry.
 *
 * @example
 * const agentStates = new AgentStates(index.agentState, registry);
 * const store = new StateStore({ agents: agentStates.describe(), … });
 * const agentState = agentStates.accessors({ store, save: saveMeta, nameChat: (id, title) => chats.nameByAgent(id, title) });
 */
export class AgentStates {
  private readonly meta = new Map<string, AgentMeta>();

  /** Keeps the stored entries of the agents in `registry`; the entries of agents gone are dropped. */
  constructor(
    stored: Readonly<Record<string, unknown>>,
    private readonly registry: AgentRegistry,
  ) {
    for (const [agentId, value] of Object.entries(stored)) {
      const meta = registry.get(agentId) ? readMeta(value) : undefined;
      if (meta) this.meta.set(agentId, meta);
    }
  }

  /** The agents as the state shows them, with what they set in earlier runs. */
  describe(): AgentInfo[] {
    return this.registry.infos(
      (id) => this.meta.get(id)?.activeSkill ?? null,
      (id) => this.meta.get(id)?.commands,
      (id) => this.meta.get(id)?.modes,
      (id) => this.meta.get(id)?.settings,
    );
  }

  /** The entries as meta.json keeps them, by agent id. */
  toJSON(): Record<string, AgentMeta> {
    return Object.fromEntries(this.meta);
  }

  /**
   * The `ctx.state` a run of an agent gets: each change is kept in the entry, saved, and shown to
   * every client when the state holds it.
   */
  accessors(host: AgentStateHost): (agentId: string) => AgentStateAccess {
    return (agentId) => ({
      get: <T>() => this.meta.get(agentId)?.state as T | undefined,
      set: (value) => {
        // JSON, because it goes to meta.json; a value JSON cannot hold fails here, in the agent's code.
        const text = JSON.stringify(value);
        if (text !== undefined && text.length > MAX_STATE_JSON_LENGTH) throw new RangeError('Agent state is limited to 1 MiB of JSON');
        this.meta.set(agentId, { ...this.meta.get(agentId), state: text === undefined ? undefined : JSON.parse(text) });
        host.save();
      },
      setActiveSkill: (skill) => {
        if (skill !== null && (typeof skill !== 'string' || skill.length > MAX_SKILL_LENGTH)) {
          throw new TypeError('setActiveSkill takes a string of at most 200 characters, or null');
        }
        this.meta.set(agentId, { ...this.meta.get(agentId), activeSkill: skill });
        const i = host.store.state.agents.findIndex((a) => a.id === agentId);
        if (i >= 0) host.store.change([{ op: 'add', path: statePath.agentActiveSkill(i), value: skill }]);
        host.save();
      },
      setCommands: (commands) => {
        if (!Array.isArray(commands)) throw new TypeError('setCommands takes an array of { name, description, hint? }');
        this.replaceList(host, agentId, 'commands', commands);
      },
      setModes: (modes) => {
        if (!Array.isArray(modes)) throw new TypeError('setModes takes an array of { id, name, description? }');
        this.replaceList(host, agentId, 'modes', modes);
      },
      setSettings: (settings) => {
        if (!Array.isArray(settings)) throw new TypeError('setSettings takes an array of { id, name, options: [{ value, name }], defaultValue? }');
        this.replaceList(host, agentId, 'settings', settings);
      },
      setChatTitle: (chatId, title) => {
        const words = typeof title === 'string' ? titleFromText(title, LIMITS.maxTitleLength) : null;
        if (words === null) throw new TypeError(`setChatTitle takes a title with words in it, not ${JSON.stringify(title)}`);
        return typeof chatId === 'string' && host.nameChat(chatId, words);
      },
    });
  }

  /** An agent's commands, modes or settings, set at run time: kept in meta.json, shown when they change. */
  private replaceList(host: AgentStateHost, agentId: string, key: ListKey, given: readonly unknown[]): void {
    const next = LISTS[key].normalize(given);
    const i = host.store.state.agents.findIndex((a) => a.id === agentId);
    const meta = this.meta.get(agentId);
    // Agents announce these again with every session: only a change reaches the clients.
    const same = JSON.stringify(next) === JSON.stringify(host.store.state.agents[i]?.[key] ?? []);
    if (same && meta?.[key]) return;
    this.meta.set(agentId, { ...meta, [key]: next });
    const path = LISTS[key].path(i);
    if (!same && i >= 0) host.store.change([next.length ? { op: 'add', path, value: next } : { op: 'remove', path }]);
    host.save();
  }
}
