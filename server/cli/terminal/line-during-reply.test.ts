import { describe, expect, it } from 'vitest';
import { readLineDuringReply } from './line-during-reply.ts';

describe('readLineDuringReply', () => {
  it('stops the reply on /stop, with or without words after it', () => {
    expect(readLineDuringReply('/stop')).toBe('stop');
    expect(readLineDuringReply('  /stop now ')).toBe('stop');
  });

  it('answers a command that only reads at once', () => {
    for (const line of ['/help', '/chats', '/agents', '/usage', '/mode', '/set', '/attach']) expect(readLineDuringReply(line)).toBe('answer-now');
  });

  it('queues messages and commands that change something, as a message typed then would be', () => {
    for (const line of ['fix the header', '/set model opus', '/mode plan', '/attach notes.md', '/new', '/quit', '//stop', '/review the tests']) expect(readLineDuringReply(line)).toBe('queue');
  });
});
