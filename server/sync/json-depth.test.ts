import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from './json-depth.ts';

describe('exceedsJsonDepth', () => {
  it('counts arrays and objects nested in each other', () => {
    expect(exceedsJsonDepth('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(exceedsJsonDepth('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(exceedsJsonDepth('[[],[],[],[]]', 2)).toBe(false);
    expect(exceedsJsonDepth('1', 0)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth('{"text":"[[[[{{{{"}', 1)).toBe(false);
    expect(exceedsJsonDepth('{"text":"say \\"[[[[\\" and \\\\"}', 1)).toBe(false);
    expect(exceedsJsonDepth('{"text":"a\\\\","x":[[1]]}', 2)).toBe(true);
  });

  it('finds the depth of a deep frame wrapped in a long string', () => {
    const deep = `{"type":"message.send","pad":"${'x'.repeat(100_000)}","v":${'['.repeat(100)}${']'.repeat(100)}}`;
    expect(exceedsJsonDepth(deep, 64)).toBe(true);
    expect(exceedsJsonDepth(deep, 101)).toBe(false);
  });

  it('leaves invalid text to JSON.parse', () => {
    expect(exceedsJsonDepth('{"open', 1)).toBe(false);
    expect(exceedsJsonDepth(']]]][[', 1)).toBe(false);
  });
});
