import { describe, expect, it } from 'vitest';
import { formatBytes, formatList, formatThinkingTime } from './format.ts';

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
