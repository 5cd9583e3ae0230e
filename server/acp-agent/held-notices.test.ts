import { describe, expect, it } from 'vitest';
import { HeldNotices, type NoticeUpdate } from './held-notices.ts';

const notice = (title: string): NoticeUpdate => ({ sessionUpdate: 'notice', severity: 'warning', title });

describe('HeldNotices', () => {
  it("gives a session's notices to its next turn once, oldest first, and none of another session's", () => {
    const held = new HeldNotices();
    held.hold('a', notice('first'));
    held.hold('b', notice('other'));
    held.hold('a', notice('second'));
    expect(held.take('a').map((n) => n.title)).toEqual(['first', 'second']);
    expect(held.take('a')).toEqual([]);
    expect(held.take('b').map((n) => n.title)).toEqual(['other']);
  });

  it('keeps the latest few per session and a few sessions, and drops notices that are old by the next turn', () => {
    let now = 0;
    const held = new HeldNotices({ maxPerSession: 2, maxSessions: 2, maxAgeMs: 1_000, now: () => now });
    for (const t of ['1', '2', '3']) held.hold('a', notice(t));
    expect(held.take('a').map((n) => n.title)).toEqual(['2', '3']);
    held.hold('a', notice('4'));
    held.hold('b', notice('b'));
    held.hold('c', notice('c'));
    // 'a' got nothing for longest: it gave way to 'c'.
    expect(held.take('a')).toEqual([]);
    now = 500;
    held.hold('b', notice('b2'));
    now = 1_200;
    expect(held.take('b').map((n) => n.title)).toEqual(['b2']);
    expect(held.take('c')).toEqual([]);
  });
});
