import { describe, expect, it } from 'vitest';
import { findLineChange } from './line-change.ts';

describe('findLineChange', () => {
  it('keeps the lines both sides share at the start and the end as context', () => {
    expect(findLineChange('a\nb\nc\nd', 'a\nB\nB2\nd')).toEqual({ head: 1, removed: ['b', 'c'], added: ['B', 'B2'] });
  });

  it('shows a new file as all added, and an emptied one as all removed', () => {
    expect(findLineChange(null, 'x\ny')).toEqual({ head: 0, removed: [], added: ['x', 'y'] });
    expect(findLineChange('x\ny', '')).toEqual({ head: 0, removed: ['x', 'y'], added: [''] });
  });

  it('finds a line added between equal ones, and nothing for the same text', () => {
    expect(findLineChange('a\na', 'a\na\na')).toEqual({ head: 2, removed: [], added: ['a'] });
    expect(findLineChange('same\ntext', 'same\ntext')).toEqual({ head: 2, removed: [], added: [] });
  });
});
