/**
 * The agents one server hosts: lookup by id, the default agent, and the errors PROTOCOL §4 names
 * for an unknown or unimplemented one.
 */
import { ProtocolError } from '../../shared/errors.ts';
import type { AgentCommand, AgentMode, AgentSetting } from '../../shared/schemas.ts';
import { describeAgent, type AgentDefinition } from './agent.ts';

export class AgentRegistry {
  private readonly byId = new Map<string, AgentDefinition>();

  constructor(readonly definitions: readonly AgentDefinition[]) {
    for (const d of definitions) {
      if (!d.id || typeof d.id !== 'string') throw new Error('Every agent needs a string id');
      if (this.byId.has(d.id)) throw new Error(`Two agents share the id ${d.id}`);
      if ((d.implemented ?? d.run !== undefined) && !d.run) throw new Error(`Agent ${d.id} is marked implemented but has no run function`);
      if (d.commands !== undefined && !Array.isArray(d.commands)) throw new Error(`Agent ${d.id}: commands must be an array of { name, description, hint? }`);
      if (d.modes !== undefined && !Array.isArray(d.modes)) throw new Error(`Agent ${d.id}: modes must be an array of { id, name, description? }`);
      if (d.settings !== undefined && !Array.isArray(d.settings)) throw new Error(`Agent ${d.id}: settings must be an array of { id, name, options, defaultValue? }`);
      this.byId.set(d.id, d);
    }
  }

  get(id: string): AgentDefinition | undefined {
    return this.byId.get(id);
  }

  isImplemented(d: AgentDefinition): boolean {
    return (d.implemented ?? d.run !== undefined) && d.run !== undefined;
  }

  /** The first implemented agent, or undefined when there is none. */
  defaultAgent(): AgentDefinition | undefined {
    return this.definitions.find((d) => this.isImplemented(d));
  }

  /**
   * The agent a message goes to: the one asked for, else the chat's last agent (if it still
   * exists), else the first implemented one. Throws `unknown_agent` / `agent_not_implemented`.
   */
  resolve(requested: string | undefined, chatAgent: string | undefined): AgentDefinition {
    let id = requested;
    if (id === undefined && chatAgent !== undefined && this.byId.has(chatAgent)) id = chatAgent;
    const agent = id === undefined ? this.defaultAgent() : this.byId.get(id);
    if (!agent) {
      if (id === undefined) throw new ProtocolError('agent_not_implemented', 'No agent is implemented on this server', 'agent');
      throw new ProtocolError('unknown_agent', `Unknown agent: ${id}`, 'agent');
    }
    if (!this.isImplemented(agent)) throw new ProtocolError('agent_not_implemented', `Agent '${agent.id}' not implemented`, 'agent');
    return agent;
  }

  /**
   * Stops what each agent started (an ACP agent's process); one's failure does not stop the others.
   *
   * @example await registry.disposeAll((agentId, error) => log('warn', `Agent ${agentId} failed to stop: ${describeError(error)}`));
   */
  async disposeAll(onError: (agentId: string, error: unknown) => void): Promise<void> {
    await Promise.all(
      this.definitions.map(async (agent) => {
        try {
          await agent.dispose?.();
        } catch (error) {
          onError(agent.id, error);
        }
      }),
    );
  }

  infos(
    activeSkills: (id: string) => string | null | undefined,
    commands?: (id: string) => readonly AgentCommand[] | undefined,
    modes?: (id: string) => readonly AgentMode[] | undefined,
    settings?: (id: string) => readonly AgentSetting[] | undefined,
  ): ReturnType<typeof describeAgent>[] {
    return this.definitions.map((d) => describeAgent(d, activeSkills(d.id), commands?.(d.id), modes?.(d.id), settings?.(d.id)));
  }
}
