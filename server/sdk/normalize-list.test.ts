import { describe, expect, it } from 'vitest';
import { normalizeList, readKey, readLine } from './normalize-list.ts';

const byId = { pickKey: (fields: Readonly<Record<string, unknown>>) => readKey(fields.id, 8), build: (id: string) => ({ id }) };

describe('normalizeList', () => {
  it('keeps objects with a usable key, each key once, in order, up to the bound', () => {
    expect(normalizeList([{ id: 'a' }, null, 'b', { id: ' a ' }, { id: 'toolongid' }, { id: 'b' }, { id: 'c' }], { ...byId, max: 2 })).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('leaves the key of an entry it did not build free for a later one', () => {
    const build = (id: string, fields: Readonly<Record<string, unknown>>) => (fields.ok ? { id } : null);
    expect(normalizeList([{ id: 'a' }, { id: 'a', ok: true }], { ...byId, build, max: 5 })).toEqual([{ id: 'a' }]);
  });

  it('stops once a budget over the whole list is spent', () => {
    let built = 0;
    const build = (id: string) => (built++, { id });
    expect(normalizeList([{ id: 'a' }, { id: 'b' }, { id: 'c' }], { ...byId, build, max: 5, isFull: () => built >= 2 })).toEqual([{ id: 'a' }, { id: 'b' }]);
  });
});

describe('readKey and readLine', () => {
  it('trim keys within their length, and give text fields as one clipped line', () => {
    expect([readKey(' plan ', 4), readKey('plans', 4), readKey('  ', 4), readKey(7, 4)]).toEqual(['plan', null, null, null]);
    expect([readLine(' a\n  b ', 10), readLine('abcdef', 4), readLine(' ', 4), readLine(7, 4)]).toEqual(['a b', 'abc…', undefined, undefined]);
  });
});
