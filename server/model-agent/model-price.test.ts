import { describe, expect, it } from 'vitest';
import { checkPrice, costOfCall } from './model-price.ts';

describe('checkPrice', () => {
  it('takes prices per million tokens, in USD unless told, and nothing for no price', () => {
    expect(checkPrice({ input: 0.15, output: 0.6 }, 'price')).toEqual({ input: 0.15, output: 0.6, currency: 'USD' });
    expect(checkPrice({ input: 2.5, output: 10, cachedInput: 1.25, currency: ' EUR ' }, 'price')).toEqual({ input: 2.5, output: 10, cachedInput: 1.25, currency: 'EUR' });
    expect(checkPrice({ input: 0, output: 0, currency: 'credits' }, 'price')).toEqual({ input: 0, output: 0, currency: 'credits' });
    expect(checkPrice(undefined, 'price')).toBeUndefined();
  });

  it.each([
    [{ input: -1, output: 1 }, 'price.input must be a price per million tokens, 0 or more, not -1'],
    [{ input: 1, output: Number.NaN }, 'price.output must be a price per million tokens, 0 or more, not NaN'],
    [{ input: 1 } as never, 'price.output must be a price per million tokens, 0 or more, not undefined'],
    [{ input: 1, output: 2, cachedInput: '0.5' } as never, 'price.cachedInput must be a price per million tokens, 0 or more, not "0.5"'],
    [{ input: 1, output: 2, currency: '  ' }, 'price.currency must be a code such as USD (1 to 16 characters), not "  "'],
    [{ input: 1, output: 2, currency: 'x'.repeat(17) }, `price.currency must be a code such as USD (1 to 16 characters), not "${'x'.repeat(17)}"`],
    ['0.15/0.60' as never, 'price must be { input, output } in a currency per million tokens'],
  ])('refuses %j, naming the option', (price, message) => {
    expect(() => checkPrice(price, 'price')).toThrow(new TypeError(message));
  });
});

describe('costOfCall', () => {
  const price = { input: 2, output: 8 };

  it('prices the input and the output per million tokens', () => {
    expect(costOfCall({ inputTokens: 1000, outputTokens: 100 }, price)).toBeCloseTo(0.0028, 12);
    expect(costOfCall({ inputTokens: 1_000_000, outputTokens: 0 }, price)).toBe(2);
  });

  it('prices input read from the cache at the cached price, and at the input price without one', () => {
    const tokens = { inputTokens: 1000, outputTokens: 0, inputTokenDetails: { cacheReadTokens: 800 } };
    expect(costOfCall(tokens, { ...price, cachedInput: 0.5 })).toBeCloseTo((200 * 2 + 800 * 0.5) / 1e6, 12);
    expect(costOfCall(tokens, price)).toBeCloseTo(0.002, 12);
    // A cache count above the input (a server's slip) is not priced as more input than there was.
    expect(costOfCall({ inputTokens: 100, outputTokens: 0, inputTokenDetails: { cacheReadTokens: 900 } }, { ...price, cachedInput: 0 })).toBe(0);
  });

  it('knows nothing of a call that came back without an input count, and prices a missing output as none', () => {
    expect(costOfCall({ inputTokens: undefined, outputTokens: 50 }, price)).toBeNull();
    expect(costOfCall({ inputTokens: Number.NaN, outputTokens: 50 }, price)).toBeNull();
    expect(costOfCall({ inputTokens: 500, outputTokens: undefined }, price)).toBeCloseTo(0.001, 12);
  });
});
