/**
 * A chat's mode and settings kept in step with its ACP session: the session's config options
 * (model, reasoning level…), models and modes become the agent's, a session is given what the
 * chat shows as it opens, a pick changes an open session at once, and the chat shows what the
 * session took.
 */
import type { ClientContext, SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import type { AgentStateAccess, ChatDecision, RunContext, SettingRequest } from '../sdk/agent.ts';
import { describeError } from '../sync/describe-error.ts';
import { readDefaults } from './acp-agent-state.ts';
import { describeAcpError } from './describe-acp-error.ts';
import { LatestBySession } from './latest-by-session.ts';
import { requestMode, requestModel, requestSetting } from './session-requests.ts';
import { hasModeOption, isBooleanOption, readCurrentValues, toAgentSettings, usesSessionModels, withSessionModels, type SessionModels } from './session-settings.ts';

export interface SessionChoicesOptions {
  /** The agent's id, in what the log says. */
  id: string;
  log: (level: 'info' | 'warn', message: string) => void;
}

export class SessionChoices {
  /** Each open session's config options as the agent last gave them (it may change them between turns). */
  private readonly configs = new LatestBySession<SessionConfigOption[]>();
  /** Each open session's models, for an agent that gives them as ACP's `models` (Gemini CLI): shown as one more option. */
  private readonly models = new LatestBySession<SessionModels>();
  /** Each session's mode as the agent last changed it itself (a turn shows it; between turns, the next turn does). */
  private readonly modesNow = new LatestBySession<string>();

  constructor(private readonly o: SessionChoicesOptions) {}

  /**
   * The agent gave a session's config options anew, in a turn or between turns: the agent's
   * settings follow at once (when its state is known), each chat's value at its next turn.
   *
   * @example choices.noteOptions(agentState, 'sess_1', update.configOptions);
   */
  noteOptions(state: AgentStateAccess | null, sessionId: string, options: SessionConfigOption[]): void {
    this.keepOptions(sessionId, options);
    if (state) this.publish(state, this.optionsOf(sessionId));
  }

  /**
   * The agent changed a session's mode itself: the chat shows it at the session's next turn.
   *
   * @example choices.noteMode('sess_1', 'default');
   */
  noteMode(sessionId: string, modeId: string): void {
    this.modesNow.keep(sessionId, modeId);
  }

  /**
   * A session just opened: its config options and models when it has them, else its modes (ACP's
   * older form of the same choice), become the agent's, and the session is given what the chat shows.
   *
   * @example await choices.applyOnOpen(ctx, agent, created.sessionId, created.modes, created.configOptions, readSessionModels(created));
   */
  async applyOnOpen(ctx: RunContext, agent: ClientContext, sessionId: string, modes: SessionModeState | null | undefined, options: SessionConfigOption[] | null | undefined, models: SessionModels | null = null): Promise<void> {
    // What the session says now is newer than a change it reported before it was (re)opened.
    this.modesNow.take(sessionId);
    if (models) this.models.keep(sessionId, models);
    else this.models.take(sessionId);
    await this.applySettings(ctx, agent, sessionId, options);
    if (!options || !hasModeOption(options)) await this.applyMode(ctx, agent, sessionId, modes);
  }

  /**
   * A turn starts: the chat shows the options and mode the agent changed since the last turn
   * (another option followed a pick, or it moved one itself).
   *
   * @example choices.showChangesSinceLastTurn(ctx, sessionId);
   */
  showChangesSinceLastTurn(ctx: RunContext, sessionId: string): void {
    this.showSessionValues(ctx, this.optionsOf(sessionId));
    const modeNow = this.modesNow.take(sessionId);
    if (modeNow !== undefined && modeNow !== ctx.mode) {
      try {
        ctx.setMode(modeNow);
      } catch {
        // a mode it never announced: the chat keeps the one it shows
      }
    }
  }

  /**
   * The agent changed its config options during a turn (it may move its own model or mode): the
   * agent's settings and the chat follow at once.
   *
   * @example turn.onConfigOptions = (options) => choices.followTurn(ctx, sessionId, options);
   */
  followTurn(ctx: RunContext, sessionId: string, options: SessionConfigOption[]): void {
    this.keepOptions(sessionId, options);
    const latest = this.optionsOf(sessionId);
    this.publish(ctx.state, latest);
    this.showSessionValues(ctx, latest);
  }

  /**
   * The user picked a mode for a chat whose session is open: the session changes at once, or the
   * pick is refused with the agent's reason.
   *
   * @example return choices.changeMode(agent, sessionId, 'plan');
   */
  async changeMode(agent: ClientContext, sessionId: string, mode: string): Promise<ChatDecision> {
    try {
      await requestMode(agent, sessionId, mode);
    } catch (error) {
      return { reject: `${this.o.id} did not change its mode: ${describeAcpError(error)}` };
    }
    // The user's pick is newer than a change the agent made itself before it.
    this.modesNow.keep(sessionId, mode);
  }

  /**
   * Like a mode, a setting picked for a chat whose session is open changes at once; the
   * session's answer may change other options too, which the agent's settings then show.
   *
   * @example return choices.changeSetting(agent, sessionId, { setting: 'model', value: 'opus', state }, agentState);
   */
  async changeSetting(agent: ClientContext, sessionId: string, request: Pick<SettingRequest, 'setting' | 'value' | 'state'>, agentState: AgentStateAccess | null): Promise<ChatDecision> {
    const { setting, value, state } = request;
    let changed;
    try {
      // The session's options say how the agent takes the value; the settings shown say it as well, should those be forgotten.
      const isBoolean = isBooleanOption(this.configs.get(sessionId), setting) ?? state.agents.find((a) => a.id === this.o.id)?.settings?.find((s) => s.id === setting)?.type === 'boolean';
      changed = await this.requestChange(agent, sessionId, setting, value, isBoolean);
    } catch (error) {
      return { reject: `${this.o.id} did not change ${setting}: ${describeAcpError(error)}` };
    }
    if (changed && agentState) this.publish(agentState, this.optionsOf(sessionId));
  }

  /**
   * Changes one of the session's settings: its model by `session/set_model` when its `models` carry
   * it, else the config option. True when the options kept changed with it.
   */
  private async requestChange(agent: ClientContext, sessionId: string, setting: string, value: string, isBoolean: boolean): Promise<boolean> {
    const models = this.models.get(sessionId);
    if (models && usesSessionModels(this.configs.get(sessionId), models, setting)) {
      await requestModel(agent, sessionId, value);
      this.models.keep(sessionId, { ...models, currentModelId: value });
      return true;
    }
    const answer = await requestSetting(agent, sessionId, setting, value, isBoolean);
    if (!Array.isArray(answer?.configOptions)) return false;
    this.keepOptions(sessionId, answer.configOptions);
    return true;
  }

  private keepOptions(sessionId: string, options: readonly SessionConfigOption[] | null | undefined): void {
    if (Array.isArray(options)) this.configs.keep(sessionId, [...options]);
  }

  /** The session's options as last given, with its models as one more. */
  private optionsOf(sessionId: string): SessionConfigOption[] {
    return withSessionModels(this.configs.get(sessionId), this.models.get(sessionId));
  }

  /** The session's options become the agent's settings (and its `mode` option replaces ACP's older modes). */
  private publish(state: Pick<AgentStateAccess, 'setSettings' | 'setModes' | 'get'>, options: readonly SessionConfigOption[]): void {
    try {
      state.setSettings(toAgentSettings(options, readDefaults(state)));
      if (hasModeOption(options)) state.setModes([]);
    } catch (error) {
      this.o.log('warn', `${this.o.id} announced settings agentbar could not keep: ${describeError(error)}`);
    }
  }

  /** The chat shows the values the session really has (the agent refused a pick, or changed one as another changed). */
  private showSessionValues(ctx: RunContext, options: readonly SessionConfigOption[]): void {
    const shown = ctx.settings;
    for (const [setting, value] of Object.entries(readCurrentValues(options))) {
      if (shown[setting] === undefined || shown[setting] === value) continue;
      try {
        ctx.setSetting(setting, value);
      } catch {
        // a value agentbar could not keep (too long, say): the chat keeps what it shows
      }
    }
  }

  /**
   * The session's options become the agent's settings, the session is given each value the chat
   * shows (which the user may have picked before it existed), and the chat then shows what the
   * session took.
   */
  private async applySettings(ctx: RunContext, agent: ClientContext, sessionId: string, options: readonly SessionConfigOption[] | null | undefined): Promise<void> {
    this.keepOptions(sessionId, options);
    let latest: readonly SessionConfigOption[] = withSessionModels(options, this.models.get(sessionId));
    if (latest.length === 0) return;
    this.publish(ctx.state, latest);
    for (const setting of Object.keys(readCurrentValues(latest))) {
      const wanted = ctx.settings[setting];
      // Read again each time: setting one option (the model) may have changed another (the reasoning level).
      if (wanted === undefined || wanted === readCurrentValues(latest)[setting]) continue;
      try {
        if (await this.requestChange(agent, sessionId, setting, wanted, isBooleanOption(latest, setting) === true)) {
          latest = this.optionsOf(sessionId);
          this.publish(ctx.state, latest);
        }
      } catch (error) {
        this.o.log('warn', `${this.o.id} did not set ${setting} to ${wanted} in session ${sessionId}: ${describeAcpError(error)}`);
      }
    }
    this.showSessionValues(ctx, latest);
  }

  /**
   * The session's modes become the agent's, and it is put in the mode the chat shows (the one the
   * user chose, else the first), which the user may have picked before it existed.
   */
  private async applyMode(ctx: RunContext, agent: ClientContext, sessionId: string, modes: SessionModeState | null | undefined): Promise<void> {
    if (!modes?.availableModes?.length) return;
    try {
      ctx.state.setModes(modes.availableModes.map((m) => ({ id: m.id, name: m.name, ...(m.description ? { description: m.description } : {}) })));
    } catch (error) {
      this.o.log('warn', `${this.o.id} announced modes agentbar could not keep: ${describeError(error)}`);
      return;
    }
    const wanted = ctx.mode;
    if (wanted === undefined || wanted === modes.currentModeId) return;
    try {
      await requestMode(agent, sessionId, wanted);
    } catch (error) {
      // The session works on in its own mode: the chat says which, rather than a mode it is not in.
      this.o.log('warn', `${this.o.id} did not switch session ${sessionId} to mode ${wanted}: ${describeAcpError(error)}`);
      if (modes.availableModes.some((m) => m.id === modes.currentModeId)) ctx.setMode(modes.currentModeId);
    }
  }
}
