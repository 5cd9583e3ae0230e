import { describe, expect, it } from 'vitest';
import { dataUrlBytes, splitDataUrl } from './data-url.ts';

const url = (text: string, mime = 'text/plain') => `data:${mime};base64,${Buffer.from(text).toString('base64')}`;

describe('data URLs', () => {
  it('splits a data URL into its type and payload', () => {
    expect(splitDataUrl('data:text/csv;base64,YSxi')).toEqual({ mimeType: 'text/csv', data: 'YSxi' });
    expect(splitDataUrl('data:text/plain;charset=utf-8;base64,YQ==')).toEqual({ mimeType: 'text/plain', data: 'YQ==' });
  });

  it('gives the exact decoded size, padding or not', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'abcd', 'x'.repeat(1000)]) expect(dataUrlBytes(url(text))).toBe(text.length);
  });
});
