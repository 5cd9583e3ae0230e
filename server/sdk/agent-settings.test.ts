import { describe, expect, it } from 'vitest';
import { findChatSettings } from '../../shared/agent-setting.ts';
import { MAX_AGENT_SETTINGS, MAX_SETTING_OPTIONS, MAX_SETTING_OPTIONS_TOTAL, normalizeSettings } from './agent-settings.ts';

describe('normalizeSettings', () => {
  it('keeps each setting and value once, trimmed, with one-line names (the id when there is none), and a default among the values', () => {
    expect(
      normalizeSettings([
        {
          id: ' model ',
          name: 'Model\n  to use',
          description: ' Which model answers ',
          category: 'model',
          defaultValue: 'sonnet',
          options: [{ value: ' opus ', name: 'Opus', group: ' Claude ' }, { value: 'opus', name: 'again' }, { value: 'sonnet', name: 42, description: '' }],
        },
        { id: 'model', name: 'again', options: [{ value: 'x', name: 'X' }] },
        { id: 'effort', name: 'Effort', defaultValue: 'max', options: [{ value: 'low', name: 'Low' }, { value: 'high', name: 'High' }] },
      ]),
    ).toEqual([
      {
        id: 'model',
        name: 'Model to use',
        description: 'Which model answers',
        category: 'model',
        defaultValue: 'sonnet',
        options: [{ value: 'opus', name: 'Opus', group: 'Claude' }, { value: 'sonnet', name: 'sonnet' }],
      },
      { id: 'effort', name: 'Effort', defaultValue: 'low', options: [{ value: 'low', name: 'Low' }, { value: 'high', name: 'High' }] },
    ]);
  });

  it('gives a boolean setting the values On and Off, whatever options it names, and Off by default unless it says otherwise', () => {
    const onOff = [
      { value: 'true', name: 'On' },
      { value: 'false', name: 'Off' },
    ];
    expect(
      normalizeSettings([
        { id: 'fast', name: 'Fast mode', type: 'boolean' },
        { id: 'web', name: 'Web search', type: 'boolean', defaultValue: true, options: [{ value: 'maybe', name: 'Maybe' }] },
        { id: 'plan', name: 'Plan first', type: 'boolean', defaultValue: 'yes' },
        { id: 'model', name: 'Model', type: 'radio', options: [{ value: 'a', name: 'A' }] },
      ]),
    ).toEqual([
      { id: 'fast', name: 'Fast mode', type: 'boolean', defaultValue: 'false', options: onOff },
      { id: 'web', name: 'Web search', type: 'boolean', defaultValue: 'true', options: onOff },
      { id: 'plan', name: 'Plan first', type: 'boolean', defaultValue: 'false', options: onOff },
      // A type agentbar does not know is a menu.
      { id: 'model', name: 'Model', defaultValue: 'a', options: [{ value: 'a', name: 'A' }] },
    ]);
  });

  it('leaves out entries without a usable id, values without one, and settings left with no value', () => {
    expect(
      normalizeSettings([
        null,
        'model',
        { name: 'no id', options: [{ value: 'a', name: 'A' }] },
        { id: 'x'.repeat(129), name: 'too long', options: [{ value: 'a', name: 'A' }] },
        { id: 'empty', name: 'Empty', options: [] },
        { id: 'bad', name: 'Bad values', options: [null, { value: '  ' }, { value: 'v'.repeat(129) }, { name: 'no value' }] },
        { id: 'none', name: 'No options' },
      ]),
    ).toEqual([]);
  });

  it('bounds the count of settings and values and the length of names and descriptions', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `v${i}`, name: 'n'.repeat(500), description: 'd'.repeat(500) }));
    const many = normalizeSettings(Array.from({ length: MAX_AGENT_SETTINGS + 5 }, (_, i) => ({ id: `s${i}`, name: 'S', options: values(2) })));
    expect(many).toHaveLength(MAX_AGENT_SETTINGS);
    const [wide] = normalizeSettings([{ id: 'model', name: 'Model', options: values(MAX_SETTING_OPTIONS + 50) }]);
    expect(wide!.options).toHaveLength(MAX_SETTING_OPTIONS);
    expect(wide!.options[0]!.name).toHaveLength(100);
    expect(wide!.options[0]!.description).toHaveLength(300);
    const all = normalizeSettings(Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, name: 'S', options: values(MAX_SETTING_OPTIONS) })));
    expect(all.reduce((n, s) => n + s.options.length, 0)).toBe(MAX_SETTING_OPTIONS_TOTAL);
  });
});

describe('findChatSettings', () => {
  const agents = [
    {
      id: 'a/set',
      description: '',
      implemented: true,
      tools: [],
      workflows: [],
      settings: [{ id: 'model', name: 'Model', defaultValue: 'b', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] }],
    },
    { id: 'a/plain', description: '', implemented: true, tools: [], workflows: [] },
  ];
  const chat = (settings?: Record<string, Record<string, string>>) => ({ c1: { id: 'c1', title: 'T', createdAt: 0, updatedAt: 0, messageCount: 0, ...(settings ? { settings } : {}) } });

  it("is the chat's choice, else the default, and nothing for an agent without settings", () => {
    expect(findChatSettings({ agents, chats: chat({ 'a/set': { model: 'a' } }) }, 'c1', 'a/set')).toEqual({ model: 'a' });
    expect(findChatSettings({ agents, chats: chat() }, 'c1', 'a/set')).toEqual({ model: 'b' });
    expect(findChatSettings({ agents, chats: chat() }, null, 'a/set')).toEqual({ model: 'b' });
    expect(findChatSettings({ agents, chats: chat({ 'a/plain': { model: 'a' } }) }, 'c1', 'a/plain')).toEqual({});
  });

  it('falls back to the default when the chat chose a value the agent no longer offers', () => {
    expect(findChatSettings({ agents, chats: chat({ 'a/set': { model: 'gone' } }) }, 'c1', 'a/set')).toEqual({ model: 'b' });
  });
});
