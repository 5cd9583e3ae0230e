import { describe, expect, it } from 'vitest';
import { describeVersions, findLatestLeaf, findShownPath, readTree, selectShownMessages, type TreeMessage } from './versions.ts';

/** q → a1; a2 is a second version of q's answer; q2 follows a1; e is an edit of q (a new start). */
const CHAT: TreeMessage[] = [{ id: 'q' }, { id: 'a1' }, { id: 'a2', parentId: 'q' }, { id: 'q2', parentId: 'a1' }, { id: 'e', parentId: null }];

describe('versions', () => {
  it('reads a chat that never branched as a line, and gives back the same array', () => {
    const line = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(findShownPath(line)).toEqual([0, 1, 2]);
    expect(selectShownMessages(line)).toBe(line);
    expect(describeVersions(line, readTree(line), [0, 1, 2]).size).toBe(0);
  });

  it('shows the branch that ends at the head, or at the last message without one', () => {
    const ids = (path: number[]) => path.map((i) => CHAT[i]!.id);
    expect(ids(findShownPath(CHAT))).toEqual(['e']);
    expect(ids(findShownPath(CHAT, 'q2'))).toEqual(['q', 'a1', 'q2']);
    expect(ids(findShownPath(CHAT, 'a2'))).toEqual(['q', 'a2']);
    expect(ids(findShownPath(CHAT, 'gone'))).toEqual(['e']);
  });

  it('numbers the versions of each shown message that has others', () => {
    const tree = readTree(CHAT);
    const versions = describeVersions(CHAT, tree, findShownPath(CHAT, 'q2', tree));
    expect(versions.get('q')).toEqual({ n: 1, siblings: ['q', 'e'] });
    expect(versions.get('a1')).toEqual({ n: 1, siblings: ['a1', 'a2'] });
    expect(versions.has('q2')).toBe(false);
  });

  it('picks a version with the newest messages said after it', () => {
    const tree = readTree(CHAT);
    expect(CHAT[findLatestLeaf(tree, 1)]!.id).toBe('q2');
    expect(CHAT[findLatestLeaf(tree, 0)]!.id).toBe('q2');
    expect(CHAT[findLatestLeaf(tree, 2)]!.id).toBe('a2');
  });

  it('reads a parent that is not an earlier message as the one before, so no message is its own ancestor', () => {
    const damaged = [{ id: 'a' }, { id: 'b', parentId: 'c' }, { id: 'c', parentId: 'c' }];
    expect(findShownPath(damaged)).toEqual([0, 1, 2]);
  });
});
