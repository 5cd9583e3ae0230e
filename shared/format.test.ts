import { describe, expect, it } from 'vitest';
import { contextPercent, describeApproval, describeChatCost, describeUsage, formatBytes, formatCost, formatList, formatThinkingTime, formatTokens, sumChatCosts } from './format.ts';

describe('formats', () => {
  it('writes sizes in B, KB and MB', () => {
    expect(formatBytes(123)).toBe('123 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });

  it('writes thinking time in whole seconds, at least one, and minutes from 60', () => {
    expect(formatThinkingTime(200)).toBe('1 s');
    expect(formatThinkingTime(4_400)).toBe('4 s');
    expect(formatThinkingTime(60_000)).toBe('1 min');
    expect(formatThinkingTime(83_000)).toBe('1 min 23 s');
  });
});

describe('formatList', () => {
  it('lists items as a sentence does', () => {
    expect(formatList([])).toBe('');
    expect(formatList(['a.zip'])).toBe('a.zip');
    expect(formatList(['a.zip', 'b.bin'])).toBe('a.zip and b.bin');
    expect(formatList(['a.zip', 'b.bin', 'c.woff2'])).toBe('a.zip, b.bin and c.woff2');
  });
});

describe('context usage', () => {
  it('writes token counts as a glance reads them', () => {
    expect(formatTokens(999)).toBe('999');
    expect(formatTokens(41_250)).toBe('41k');
    expect(formatTokens(1_048_576)).toBe('1M');
    expect(formatTokens(1_250_000)).toBe('1.3M');
  });

  it('writes a cost as money for a currency code, and after the amount for any other unit', () => {
    expect(formatCost({ amount: 0.4213, currency: 'USD' })).toBe('$0.42');
    expect(formatCost({ amount: 12.5, currency: 'EUR' })).toBe('€12.50');
    expect(formatCost({ amount: 0, currency: 'USD' })).toBe('$0.00');
    expect(formatCost({ amount: 0.001, currency: 'USD' })).toBe('<$0.01');
    expect(formatCost({ amount: 12.345, currency: 'credits' })).toBe('12.35 credits');
  });

  it('gives whole percent, a sliver as 1 and past the window as 100', () => {
    expect(contextPercent({ used: 0, size: 200_000 })).toBe(0);
    expect(contextPercent({ used: 1, size: 200_000 })).toBe(1);
    expect(contextPercent({ used: 150_000, size: 200_000 })).toBe(75);
    expect(contextPercent({ used: 9000, size: 8192 })).toBe(100);
  });

  it('says it in words, with the cost when there is one', () => {
    expect(describeUsage({ used: 150_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } })).toBe('150,000 of 200,000 tokens of context used (75%); the session has cost $0.42');
    expect(describeUsage({ used: 512, size: 8192 })).toBe('512 of 8,192 tokens of context used (6%)');
  });
});

describe('describeApproval', () => {
  it('says what was answered, in the agent\'s words where it gave them, and "always" where it held for good', () => {
    expect(describeApproval({ approved: true })).toBe('approved the tool call');
    expect(describeApproval({ approved: false, reason: 'not on prod' })).toBe('rejected the tool call: not on prod');
    expect(describeApproval({ approved: true, always: true })).toBe('always allowed the tool call');
    expect(describeApproval({ approved: false, always: true, reason: 'not that file' })).toBe('always rejected the tool call: not that file');
    // The agent's words say what "always" meant; they are not doubled.
    expect(describeApproval({ approved: true, always: true, label: 'Yes, and auto-accept edits' })).toBe('approved the tool call with “Yes, and auto-accept edits”');
  });
});

describe('sumChatCosts and describeChatCost', () => {
  const usage = (amount: number, currency: string) => ({ used: 1, size: 10, cost: { amount, currency } });

  it("adds the agents' reports by currency, in the order first seen", () => {
    const chat = { usage: { 'acp/claude': usage(0.42, 'USD'), 'model/x': usage(0.08, 'USD'), 'acp/other': usage(12, 'credits'), 'model/free': { used: 5, size: 10 } } };
    expect(sumChatCosts(chat)).toEqual([{ amount: 0.5, currency: 'USD' }, { amount: 12, currency: 'credits' }]);
    expect(describeChatCost(chat)).toBe('$0.50 + 12 credits');
  });

  it('says nothing for a chat no agent reported a cost for', () => {
    expect(sumChatCosts({})).toEqual([]);
    expect(describeChatCost({ usage: { 'model/free': { used: 5, size: 10 } } })).toBeNull();
  });
});
