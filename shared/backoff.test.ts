import { describe, expect, it } from 'vitest';
import { computeBackoffDelay } from './backoff.ts';

const opts = { initialMs: 250, maxMs: 10_000 };

describe('computeBackoffDelay', () => {
  it('doubles the ceiling with every attempt', () => {
    const top = () => 1;
    expect([0, 1, 2, 3, 4].map((a) => computeBackoffDelay(a, opts, top))).toEqual([250, 500, 1000, 2000, 4000]);
  });

  it('never exceeds maxMs, even for huge attempt numbers', () => {
    expect(computeBackoffDelay(6, opts, () => 1)).toBe(10_000);
    expect(computeBackoffDelay(5000, opts, () => 1)).toBe(10_000);
  });

  it('scales the ceiling by random() (full jitter)', () => {
    expect(computeBackoffDelay(2, opts, () => 0)).toBe(0);
    expect(computeBackoffDelay(2, opts, () => 0.25)).toBe(250);
    expect(computeBackoffDelay(2, opts, () => 0.5)).toBe(500);
  });

  it('keeps the delay within bounds when random() misbehaves', () => {
    expect(computeBackoffDelay(0, opts, () => -3)).toBe(0);
    expect(computeBackoffDelay(0, opts, () => Number.NaN)).toBe(0);
    expect(computeBackoffDelay(0, opts, () => 7)).toBe(250);
  });
});
