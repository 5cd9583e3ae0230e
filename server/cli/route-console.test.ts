import { afterEach, describe, expect, it } from 'vitest';
import { routeConsoleTo } from './route-console.ts';

const original = { error: console.error, warn: console.warn };

afterEach(() => {
  console.error = original.error;
  console.warn = original.warn;
});

describe('routeConsoleTo', () => {
  it('sends console.error and console.warn to the note as one formatted line each, then puts them back', () => {
    const notes: string[] = [];
    const restore = routeConsoleTo((line) => notes.push(line));
    console.error('Error handling notification', { method: 'session/update', code: -32602 });
    console.warn('%s left', 'two');
    restore();
    expect(notes).toEqual(["Error handling notification { method: 'session/update', code: -32602 }", 'two left']);
    expect(console.error).toBe(original.error);
    expect(console.warn).toBe(original.warn);
  });
});
