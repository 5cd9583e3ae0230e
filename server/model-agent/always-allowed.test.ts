import { describe, expect, it } from 'vitest';
import { addAlwaysAllowed, listAlwaysAllowed, MAX_ALWAYS_CHATS, MAX_ALWAYS_TOOLS, removeAlwaysAllowed } from './always-allowed.ts';

describe('what "Always allow in this chat" keeps', () => {
  it('allows a tool in one chat only, once', () => {
    const once = addAlwaysAllowed(undefined, 'chat_a', 'deploy');
    expect(once).toEqual({ chat_a: ['deploy'] });
    expect(addAlwaysAllowed(once, 'chat_a', 'deploy')).toBe(once);
    const two = addAlwaysAllowed(once, 'chat_a', 'lint');
    expect(listAlwaysAllowed(two, 'chat_a')).toEqual(['deploy', 'lint']);
    expect(listAlwaysAllowed(two, 'chat_b')).toEqual([]);
  });

  it('forgets one chat\'s tools and keeps the others\'', () => {
    const map = addAlwaysAllowed(addAlwaysAllowed(undefined, 'chat_a', 'deploy'), 'chat_b', 'lint');
    expect(removeAlwaysAllowed(map, 'chat_a')).toEqual({ chat_b: ['lint'] });
    expect(removeAlwaysAllowed(undefined, 'chat_a')).toEqual({});
  });

  it('keeps the chats that most recently allowed something, dropping the oldest past the bound', () => {
    let map = addAlwaysAllowed(undefined, 'chat_0', 'deploy');
    for (let i = 1; i < MAX_ALWAYS_CHATS; i++) map = addAlwaysAllowed(map, `chat_${i}`, 'deploy');
    // chat_0 allows another tool: it becomes the most recent, so chat_1 is the one dropped next.
    map = addAlwaysAllowed(map, 'chat_0', 'lint');
    map = addAlwaysAllowed(map, 'chat_new', 'deploy');
    expect(Object.keys(map)).toHaveLength(MAX_ALWAYS_CHATS);
    expect(listAlwaysAllowed(map, 'chat_1')).toEqual([]);
    expect(listAlwaysAllowed(map, 'chat_0')).toEqual(['deploy', 'lint']);
    expect(listAlwaysAllowed(map, 'chat_new')).toEqual(['deploy']);
  });

  it('stops adding tools to a chat at the bound', () => {
    let map = addAlwaysAllowed(undefined, 'chat_a', 't0');
    for (let i = 1; i < MAX_ALWAYS_TOOLS + 5; i++) map = addAlwaysAllowed(map, 'chat_a', `t${i}`);
    expect(listAlwaysAllowed(map, 'chat_a')).toHaveLength(MAX_ALWAYS_TOOLS);
  });

  it('reads a state it did not write (hand-edited, older) as nothing allowed', () => {
    expect(listAlwaysAllowed('yes', 'chat_a')).toEqual([]);
    expect(listAlwaysAllowed({ chat_a: 'deploy' }, 'chat_a')).toEqual([]);
    expect(listAlwaysAllowed({ chat_a: ['deploy', 7] }, 'chat_a')).toEqual(['deploy']);
    expect(listAlwaysAllowed({}, 'constructor')).toEqual([]);
    expect(addAlwaysAllowed(['x'] as never, 'chat_a', 'deploy')).toEqual({ chat_a: ['deploy'] });
  });
});
