import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../shared/errors.ts';
import type { AgentDefinition } from './agent.ts';
import { AgentRegistry } from './agent-registry.ts';

const run = async () => {};

const concierge: AgentDefinition = {
  id: 'wisp/concierge',
  description: 'Answers questions',
  tools: [{ name: 'get_page_info', type: 'deterministic' }, { name: 'pick_color', type: 'decision' }, { name: 'plain' }],
  workflows: ['triage'],
  run,
};
const reviewer: AgentDefinition = { id: 'acme/reviewer', description: 'Reviews', run };
const planned: AgentDefinition = { id: 'acme/planned', description: 'Coming soon' };
const disabled: AgentDefinition = { id: 'acme/disabled', description: 'Switched off', implemented: false, run };

/** The ProtocolError `fn` throws (fails the test when it does not throw one). */
function protocolError(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError);
    return error as ProtocolError;
  }
  throw new Error('nothing was thrown');
}

describe('new AgentRegistry', () => {
  it('refuses two agents with the same id', () => {
    expect(() => new AgentRegistry([reviewer, { ...reviewer, description: 'Again' }])).toThrow(
      'Two agents share the id acme/reviewer',
    );
  });

  it('refuses an agent marked implemented without a run function', () => {
    expect(() => new AgentRegistry([{ id: 'acme/broken', description: 'x', implemented: true }])).toThrow(
      'Agent acme/broken is marked implemented but has no run function',
    );
  });

  it('refuses commands that are not a list, and shows a list without what no one could type', () => {
    expect(() => new AgentRegistry([{ id: 'acme/odd', description: 'x', run, commands: 'review' as never }])).toThrow(
      'Agent acme/odd: commands must be an array of { name, description, hint? }',
    );
    const registry = new AgentRegistry([{ id: 'acme/cmd', description: 'x', run, commands: [{ name: '/review', description: 'Review' }, { name: 'two words', description: '' }] }]);
    expect(registry.infos(() => undefined)[0]!.commands).toEqual([{ name: 'review', description: 'Review' }]);
  });

  it('refuses an agent without an id', () => {
    expect(() => new AgentRegistry([{ id: '', description: 'x', run }])).toThrow('Every agent needs a string id');
  });

  it('accepts an agent that is not implemented yet, with or without run', () => {
    const registry = new AgentRegistry([planned, disabled]);
    expect(registry.get('acme/planned')).toBe(planned);
    expect(registry.isImplemented(planned)).toBe(false);
    expect(registry.isImplemented(disabled)).toBe(false);
  });
});

describe('AgentRegistry.resolve', () => {
  const registry = new AgentRegistry([planned, concierge, disabled, reviewer]);

  it('defaults to the first implemented agent', () => {
    expect(registry.resolve(undefined, undefined)).toBe(concierge);
    expect(registry.defaultAgent()).toBe(concierge);
  });

  it("prefers the chat's last agent over the default", () => {
    expect(registry.resolve(undefined, 'acme/reviewer')).toBe(reviewer);
  });

  it("falls back to the default when the chat's last agent no longer exists", () => {
    expect(registry.resolve(undefined, 'gone/agent')).toBe(concierge);
  });

  it('takes the requested agent over the chat agent', () => {
    expect(registry.resolve('acme/reviewer', 'wisp/concierge')).toBe(reviewer);
  });

  it('refuses an unknown requested agent', () => {
    const error = protocolError(() => registry.resolve('nobody/here', 'wisp/concierge'));
    expect(error.code).toBe('unknown_agent');
    expect(error.message).toBe('Unknown agent: nobody/here');
    expect(error.toInfo()).toEqual({ code: 'unknown_agent', message: 'Unknown agent: nobody/here', path: 'agent' });
  });

  it.each(['acme/planned', 'acme/disabled'])('refuses the unimplemented agent %s', (id) => {
    const error = protocolError(() => registry.resolve(id, undefined));
    expect(error.code).toBe('agent_not_implemented');
    expect(error.message).toBe(`Agent '${id}' not implemented`);
  });

  it("refuses a chat's last agent that is no longer implemented", () => {
    const error = protocolError(() => registry.resolve(undefined, 'acme/planned'));
    expect(error.code).toBe('agent_not_implemented');
    expect(error.message).toBe("Agent 'acme/planned' not implemented");
  });

  it('says so when no agent is implemented at all', () => {
    const empty = new AgentRegistry([planned]);
    expect(empty.defaultAgent()).toBeUndefined();
    const error = protocolError(() => empty.resolve(undefined, undefined));
    expect(error.code).toBe('agent_not_implemented');
    expect(error.message).toBe('No agent is implemented on this server');
  });

  it('does not treat inherited property names as agents', () => {
    expect(protocolError(() => registry.resolve('constructor', undefined)).code).toBe('unknown_agent');
    expect(protocolError(() => registry.resolve('__proto__', undefined)).code).toBe('unknown_agent');
  });
});

describe('AgentRegistry.infos', () => {
  it('describes every agent in order, with tool types and the active skill', () => {
    const registry = new AgentRegistry([concierge, planned]);
    const infos = registry.infos((id) => (id === 'wisp/concierge' ? 'triage' : undefined));
    expect(infos).toEqual([
      {
        id: 'wisp/concierge',
        description: 'Answers questions',
        implemented: true,
        tools: [
          { name: 'get_page_info', type: 'deterministic' },
          { name: 'pick_color', type: 'decision' },
          { name: 'plain', type: 'deterministic' },
        ],
        workflows: ['triage'],
        activeSkill: 'triage',
      },
      { id: 'acme/planned', description: 'Coming soon', implemented: false, tools: [], workflows: [] },
    ]);
  });

  it('reports a disabled agent with a run function as not implemented', () => {
    const registry = new AgentRegistry([disabled]);
    expect(registry.infos(() => undefined)[0]!.implemented).toBe(false);
  });
});
