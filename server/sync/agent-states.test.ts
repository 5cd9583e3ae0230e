import { describe, expect, it } from 'vitest';
import type { State } from '../../shared/schemas.ts';
import { defineAgent } from '../sdk/agent.ts';
import { AgentRegistry } from '../sdk/agent-registry.ts';
import { AgentStates } from './agent-states.ts';
import { StateStore } from './state-store.ts';

const registry = new AgentRegistry([defineAgent({ id: 'a/one', description: 'One', run: () => {} }), defineAgent({ id: 'a/two', description: 'Two', run: () => {} })]);

/** The kept states over a store that shows them, with a count of saves. */
function setup(stored: Record<string, unknown> = {}) {
  const states = new AgentStates(stored, registry);
  const initial: State = { agents: states.describe(), chats: {}, activeChatId: null, active: null, run: null };
  const store = new StateStore(initial, { schedule: () => {} });
  const saved = { count: 0 };
  const access = states.accessors({ store, save: () => saved.count++, nameChat: () => true });
  return { states, store, saved, access };
}

describe('AgentStates', () => {
  it('keeps the stored entries of known agents, cleaned, and other fields as they are', () => {
    const { states, store } = setup({
      'a/one': { state: { n: 1 }, activeSkill: 42, commands: [{ name: '/review', description: 'Review' }, 'bad'], modes: 'plan', later: true },
      'a/two': null,
      'a/gone': { activeSkill: 'x' },
    });
    expect(states.toJSON()).toEqual({ 'a/one': { state: { n: 1 }, commands: [{ name: 'review', description: 'Review' }], modes: [], later: true } });
    expect(store.state.agents.map((a) => [a.id, a.activeSkill, a.commands])).toEqual([
      ['a/one', null, [{ name: 'review', description: 'Review' }]],
      ['a/two', null, undefined],
    ]);
  });

  it('shows a list only when it changes, and saves it once', () => {
    const { store, saved, access } = setup();
    access('a/two').setModes([{ id: 'plan', name: 'Plan' }]);
    access('a/two').setModes([{ id: 'plan', name: 'Plan' }]);
    expect(store.state.agents[1]!.modes).toEqual([{ id: 'plan', name: 'Plan' }]);
    expect(saved.count).toBe(1);
    access('a/two').setModes([]);
    expect(store.state.agents[1]!.modes).toBeUndefined();
  });

  it('keeps the state as JSON, bounded, and refuses what is not a list or a skill', () => {
    const { access } = setup();
    access('a/one').set({ when: new Date(0) });
    expect(access('a/one').get()).toEqual({ when: '1970-01-01T00:00:00.000Z' });
    expect(() => access('a/one').set('x'.repeat(1024 * 1024))).toThrow(RangeError);
    expect(() => access('a/one').setSettings(JSON.parse('"model"'))).toThrow(TypeError);
    expect(() => access('a/one').setActiveSkill('s'.repeat(201))).toThrow(TypeError);
  });
});
