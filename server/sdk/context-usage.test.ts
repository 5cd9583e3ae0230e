import { describe, expect, it } from 'vitest';
import { isSameUsage, normalizeUsage } from './context-usage.ts';

describe('normalizeUsage', () => {
  it('keeps whole token counts and a trimmed currency; no cost when none is given', () => {
    expect(normalizeUsage({ used: 41_250.6, size: 200_000, cost: { amount: 0.4213, currency: ' USD ' } })).toEqual({ used: 41_251, size: 200_000, cost: { amount: 0.4213, currency: 'USD' } });
    expect(normalizeUsage({ used: 0, size: 8192, cost: null })).toEqual({ used: 0, size: 8192 });
    // More than the window happens (an estimate past the limit): shown as full, not refused.
    expect(normalizeUsage({ used: 9000, size: 8192 })).toEqual({ used: 9000, size: 8192 });
  });

  it('refuses what is not a usage, naming the field', () => {
    expect(() => normalizeUsage(null as never)).toThrow('setUsage takes { used, size, cost? }, not null');
    expect(() => normalizeUsage({ used: Infinity, size: 10 })).toThrow('usage.used must be a number of tokens, 0 or more, not Infinity');
    expect(() => normalizeUsage({ used: 1, size: 0.4 })).toThrow("usage.size must be the context window's size in tokens, 1 or more, not 0.4");
    expect(() => normalizeUsage({ used: 1, size: 10, cost: { amount: -1, currency: 'USD' } })).toThrow('usage.cost.amount must be a number, 0 or more, not -1');
    expect(() => normalizeUsage({ used: 1, size: 10, cost: { amount: 1, currency: '  ' } })).toThrow('usage.cost.currency must be a code such as USD (1 to 16 characters), not "  "');
  });
});

describe('isSameUsage', () => {
  it('compares counts and cost', () => {
    const usage = { used: 1, size: 10, cost: { amount: 0.1, currency: 'USD' } };
    expect(isSameUsage(undefined, usage)).toBe(false);
    expect(isSameUsage({ ...usage }, usage)).toBe(true);
    expect(isSameUsage({ used: 1, size: 10 }, usage)).toBe(false);
    expect(isSameUsage({ ...usage, cost: { amount: 0.1, currency: 'EUR' } }, usage)).toBe(false);
  });
});
