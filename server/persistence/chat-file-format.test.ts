import { describe, expect, it } from 'vitest';
import { encodeChatFile, parseChatFile, parseHeader } from './chat-file-format.ts';
import { resolveChatPaths } from './chat-paths.ts';
import { InvalidChatIdError } from './chat-repository.ts';
import { migrateMessage } from './migrate.ts';
import { everyPartMessages } from '../../test-support/persistence-fixtures.ts';

const info = { id: 'chat_1', title: 'T', createdAt: 1, updatedAt: 2, messageCount: 4 };

describe('chat file format', () => {
  it('round-trips a header and every message', () => {
    const text = encodeChatFile(info, everyPartMessages(), 'gen1');
    expect(text.split('\n')).toHaveLength(everyPartMessages().length + 2);
    expect(parseChatFile(text, 'chat_1')).toEqual({
      ok: true,
      value: { header: { v: 1, gen: 'gen1', info }, messages: everyPartMessages() },
    });
  });

  it('refuses a header that names another chat', () => {
    expect(parseHeader(JSON.stringify({ v: 1, gen: 'g', info }), 'chat_2')).toMatchObject({ ok: false });
  });

  it('says which line is bad', () => {
    const text = encodeChatFile(info, everyPartMessages(), 'g') + '{"role":"robot"}\n';
    expect(parseChatFile(text, 'chat_1')).toMatchObject({ ok: false, reason: expect.stringMatching(/^line 6/) });
  });

  it('marks a newer format as such rather than as damage', () => {
    expect(parseHeader('{"v":9}', 'chat_1')).toMatchObject({ ok: false, newer: true });
  });
});

describe('migration', () => {
  it('names the agent of an assistant message written before agents had names', () => {
    const old = { id: 'm1', role: 'assistant', content: [], status: 'done', createdAt: 1 };
    expect(migrateMessage(old)).toEqual({ ...old, agent: 'unknown' });
  });

  it('leaves current messages untouched', () => {
    for (const message of everyPartMessages()) expect(migrateMessage(message)).toBe(message);
  });

  it('reads a version-0 header (info only)', () => {
    expect(parseHeader(JSON.stringify({ info }), 'chat_1')).toEqual({ ok: true, value: { v: 1, gen: '', info } });
  });
});

describe('chat paths', () => {
  it('keeps chat files inside the chats folder', () => {
    expect(resolveChatPaths('/data/chats', 'chat_a-B_1')).toEqual({
      chat: '/data/chats/chat_a-B_1.jsonl',
      journal: '/data/chats/chat_a-B_1.journal',
    });
    for (const id of ['../x', 'a/b', '', '..', '.', 'a\\b', '%2e%2e', 'x'.repeat(65), null, 7]) {
      expect(() => resolveChatPaths('/data/chats', id)).toThrow(InvalidChatIdError);
    }
  });
});
