import { describe, expect, it } from 'vitest';
import type { ChatInfo } from '../shared/schemas.ts';
import { chatAgents, filterChats } from './filter-chats.ts';

const chat = (id: string, title: string, agents?: string[], agent?: string): ChatInfo => ({ id, title, createdAt: 1, updatedAt: 1, messageCount: 2, agents, agent });
const chats = [chat('c1', 'Fix the login form', ['demo/guide']), chat('c2', 'Header colours', ['demo/historian', 'demo/guide']), chat('c3', 'Old chat', undefined, 'demo/echo')];

describe('filterChats', () => {
  it('keeps every chat, in order, for an empty or blank query', () => {
    expect(filterChats(chats, '')).toBe(chats);
    expect(filterChats(chats, '   ')).toBe(chats);
  });
  it('matches words of the title in any case and order', () => {
    expect(filterChats(chats, 'FORM login').map((c) => c.id)).toEqual(['c1']);
  });
  it('matches the agents that answered, and the agent of an older chat', () => {
    expect(filterChats(chats, 'historian').map((c) => c.id)).toEqual(['c2']);
    expect(filterChats(chats, 'guide').map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(filterChats(chats, 'echo').map((c) => c.id)).toEqual(['c3']);
  });
  it('needs every word to match', () => {
    expect(filterChats(chats, 'login historian')).toEqual([]);
  });
});

describe('chatAgents', () => {
  it('prefers the agents that answered over the agent the chat was made for', () => {
    expect(chatAgents(chats[1]!)).toEqual(['demo/historian', 'demo/guide']);
    expect(chatAgents(chats[2]!)).toEqual(['demo/echo']);
    expect(chatAgents(chat('c4', 'x'))).toEqual([]);
  });
});
