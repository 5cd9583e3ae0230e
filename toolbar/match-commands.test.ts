import { describe, expect, it } from 'vitest';
import { MAX_OFFERED_COMMANDS, matchCommands } from './match-commands.ts';

const commands = [
  { name: 'compact', description: 'Free context' },
  { name: 'review', description: 'Review the diff', hint: 'focus' },
  { name: 'pr-review', description: 'Review a pull request' },
  { name: 'Init', description: 'Write CLAUDE.md' },
];
const names = (draft: string) => matchCommands(draft, commands).map((c) => c.name);

describe('matchCommands', () => {
  it('offers every command for a lone slash, in the agent order', () => {
    expect(names('/')).toEqual(['compact', 'review', 'pr-review', 'Init']);
  });

  it('puts names that start with what was typed before names that contain it, ignoring case', () => {
    expect(names('/re')).toEqual(['review', 'pr-review']);
    expect(names('/IN')).toEqual(['Init']);
    expect(names('/zzz')).toEqual([]);
  });

  it('offers nothing once the name is followed by anything, or when the text is not a command', () => {
    expect(names('/review ')).toEqual([]);
    expect(names('/review the tests')).toEqual([]);
    expect(names('hello /re')).toEqual([]);
    expect(names(' /re')).toEqual([]);
    expect(names('')).toEqual([]);
    expect(matchCommands('/', undefined)).toEqual([]);
  });

  it('offers at most MAX_OFFERED_COMMANDS', () => {
    const many = Array.from({ length: 80 }, (_, i) => ({ name: `c${i}`, description: '' }));
    expect(matchCommands('/c', many)).toHaveLength(MAX_OFFERED_COMMANDS);
  });
});
