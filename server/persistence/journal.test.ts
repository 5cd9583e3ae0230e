import { describe, expect, it } from 'vitest';
import { encodeJournalLine, findLatestInfo, parseJournal, planTailRepair } from './journal.ts';

const info = (title: string) => ({ id: 'chat_1', title, createdAt: 1, updatedAt: 2, messageCount: 3 });

describe('journal lines', () => {
  const ops = (value: string) => JSON.stringify({ op: 'append', path: '/0/text', value });

  it('replays only lines of the chat file generation', () => {
    const text =
      encodeJournalLine('old', info('Old'), ops('stale')) +
      encodeJournalLine('new', undefined, ops('a')) +
      encodeJournalLine('new', info('New'), ops('b'));
    const parsed = parseJournal(text, 'new');
    expect(parsed.batches).toEqual([[{ op: 'append', path: '/0/text', value: 'a' }], [{ op: 'append', path: '/0/text', value: 'b' }]]);
    expect(parsed).toMatchObject({ info: info('New'), stale: 1, damaged: 0, tornTail: false });
  });

  it('ignores a torn last line but keeps a whole one that lost only its newline', () => {
    const whole = encodeJournalLine('g', undefined, ops('a'));
    expect(parseJournal(whole + whole.slice(0, 20), 'g')).toMatchObject({ tornTail: true, damaged: 0 });
    expect(parseJournal(whole + whole.slice(0, 20), 'g').batches).toHaveLength(1);
    expect(parseJournal(whole + whole.slice(0, -1), 'g').batches).toHaveLength(2);
  });

  it('stops at a damaged line in the middle', () => {
    const line = encodeJournalLine('g', undefined, ops('a'));
    const parsed = parseJournal(line + '{"broken\n' + line, 'g');
    expect(parsed.batches).toHaveLength(1);
    expect(parsed.damaged).toBe(2);
  });

  it('plans the repair of a torn tail', () => {
    const line = encodeJournalLine('g', undefined, ops('a'));
    expect(planTailRepair(Buffer.from(line))).toBeNull();
    expect(planTailRepair(Buffer.from(''))).toBeNull();
    expect(planTailRepair(Buffer.from(line + line.slice(0, -1)))).toBe('newline');
    expect(planTailRepair(Buffer.from(line + '{"g":"g","op'))).toBe(Buffer.byteLength(line));
    expect(planTailRepair(Buffer.from('é{"g"'))).toBe(0);
  });

  it('finds the latest info of the generation, skipping ops lines and torn ones', () => {
    const text =
      encodeJournalLine('g', info('First'), undefined) +
      encodeJournalLine('g', info('Second'), ops('x')) +
      encodeJournalLine('g', undefined, ops('y')) +
      encodeJournalLine('h', info('Other generation'), undefined) +
      encodeJournalLine('g', info('Torn'), undefined).slice(0, 30);
    expect(findLatestInfo(text, 'g')?.title).toBe('Second');
    expect(findLatestInfo(encodeJournalLine('g', undefined, ops('y')), 'g')).toBeNull();
  });
});
