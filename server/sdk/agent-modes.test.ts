import { describe, expect, it } from 'vitest';
import { findCurrentMode } from '../../shared/agent-mode.ts';
import { MAX_AGENT_MODES, normalizeModes } from './agent-modes.ts';

describe('normalizeModes', () => {
  it('keeps each id once, trimmed, with one-line names (the id when there is none) and descriptions', () => {
    expect(
      normalizeModes([
        { id: ' plan ', name: 'Plan\n  Mode', description: ' Read only ' },
        { id: 'plan', name: 'again' },
        { id: 'acceptEdits', name: 42 },
        { id: 'default', name: 'Default', description: '' },
      ]),
    ).toEqual([
      { id: 'plan', name: 'Plan Mode', description: 'Read only' },
      { id: 'acceptEdits', name: 'acceptEdits' },
      { id: 'default', name: 'Default' },
    ]);
  });

  it('leaves out entries without a usable id', () => {
    expect(normalizeModes([null, 'plan', { name: 'no id' }, { id: '  ', name: 'blank' }, { id: 'x'.repeat(129), name: 'too long' }])).toEqual([]);
  });

  it('bounds the count and the length of names and descriptions', () => {
    const kept = normalizeModes(Array.from({ length: MAX_AGENT_MODES + 10 }, (_, i) => ({ id: `m${i}`, name: 'n'.repeat(500), description: 'd'.repeat(500) })));
    expect(kept).toHaveLength(MAX_AGENT_MODES);
    expect(kept[0]!.name).toHaveLength(100);
    expect(kept[0]!.description).toHaveLength(300);
  });
});

describe('findCurrentMode', () => {
  const agents = [
    { id: 'a/modal', description: '', implemented: true, tools: [], workflows: [], modes: [{ id: 'ask', name: 'Ask' }, { id: 'plan', name: 'Plan' }] },
    { id: 'a/plain', description: '', implemented: true, tools: [], workflows: [] },
  ];
  const chat = (modes?: Record<string, string>) => ({ c1: { id: 'c1', title: 'T', createdAt: 0, updatedAt: 0, messageCount: 0, ...(modes ? { modes } : {}) } });

  it("is the chat's choice, else the agent's first mode, and nothing for an agent without modes", () => {
    expect(findCurrentMode({ agents, chats: chat({ 'a/modal': 'plan' }) }, 'c1', 'a/modal')).toBe('plan');
    expect(findCurrentMode({ agents, chats: chat() }, 'c1', 'a/modal')).toBe('ask');
    expect(findCurrentMode({ agents, chats: chat() }, null, 'a/modal')).toBe('ask');
    expect(findCurrentMode({ agents, chats: chat({ 'a/plain': 'plan' }) }, 'c1', 'a/plain')).toBeUndefined();
  });

  it('falls back to the first mode when the chat chose one the agent no longer offers', () => {
    expect(findCurrentMode({ agents, chats: chat({ 'a/modal': 'gone' }) }, 'c1', 'a/modal')).toBe('ask');
  });
});
