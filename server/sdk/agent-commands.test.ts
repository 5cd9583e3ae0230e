import { describe, expect, it } from 'vitest';
import { MAX_AGENT_COMMANDS, normalizeCommands } from './agent-commands.ts';

describe('normalizeCommands', () => {
  it('keeps names without their slash, each once, with one-line descriptions and hints', () => {
    expect(
      normalizeCommands([
        { name: '/review', description: 'Review\n  the diff', hint: ' branch ' },
        { name: 'review', description: 'a second review' },
        { name: 'mcp__github__pr', description: 'From an MCP server', hint: '' },
        { name: 'speckit.plan', description: 42 },
      ]),
    ).toEqual([
      { name: 'review', description: 'Review the diff', hint: 'branch' },
      { name: 'mcp__github__pr', description: 'From an MCP server' },
      { name: 'speckit.plan', description: '' },
    ]);
  });

  it('leaves out entries a user could not type as one word, and anything that is not a command', () => {
    expect(normalizeCommands([null, 'review', { description: 'no name' }, { name: 'two words', description: '' }, { name: '/', description: '' }, { name: 'x'.repeat(65), description: '' }])).toEqual([]);
  });

  it('bounds what it keeps: the count, and long descriptions and hints', () => {
    const many = Array.from({ length: MAX_AGENT_COMMANDS + 50 }, (_, i) => ({ name: `c${i}`, description: 'd'.repeat(1_000), hint: 'h'.repeat(1_000) }));
    const kept = normalizeCommands(many);
    expect(kept).toHaveLength(MAX_AGENT_COMMANDS);
    expect(kept[0]!.description).toHaveLength(300);
    expect(kept[0]!.description.endsWith('…')).toBe(true);
    expect(kept[0]!.hint).toHaveLength(200);
  });
});
