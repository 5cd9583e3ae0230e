/**
 * Versions of answers and questions (PROTOCOL extension): a chat's messages form a tree kept in
 * one append-only array. A message's parent is the message before it in the array unless it says
 * otherwise with `parentId` (`null`: it starts the chat). A regenerated answer is a new child of
 * its question, an edited question a new child of the question's parent; siblings are the
 * versions. `ChatInfo.head` names the message the shown branch ends at (absent: the last one).
 * Server and clients compute the same branch from the same messages with these functions.
 */

/** The fields of a message that place it in the tree. */
export interface TreeMessage {
  id: string;
  parentId?: string | null | undefined;
}

/** The versions a shown message is one of: its siblings' ids in order, and which one it is. */
export interface VersionInfo {
  /** 1-based position of this message among its versions. */
  n: number;
  /** The ids of every version, oldest first. */
  siblings: string[];
}

/** A chat's tree, read once: each message's parent and children, by array index. */
export interface MessageTree {
  /** The parent's index, or -1 for a message that starts the chat. */
  parents: Int32Array;
  /** The children's indexes, oldest first, by parent index; `roots` for the starting messages. */
  children: Map<number, number[]>;
  roots: number[];
  index: Map<string, number>;
}

/**
 * Reads the tree. A `parentId` that names no earlier message counts as absent, so a damaged
 * chat still reads as a line, and no message can be its own ancestor.
 *
 * @example readTree([{ id: 'q' }, { id: 'a1' }, { id: 'a2', parentId: 'q' }]).children.get(0) // [1, 2]
 */
export function readTree(messages: readonly TreeMessage[]): MessageTree {
  const parents = new Int32Array(messages.length);
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  const index = new Map<string, number>();
  messages.forEach((m, i) => {
    let parent = i - 1;
    if (m.parentId === null) parent = -1;
    else if (m.parentId !== undefined) parent = index.get(m.parentId) ?? i - 1;
    parents[i] = parent;
    if (parent < 0) roots.push(i);
    else {
      const list = children.get(parent);
      if (list) list.push(i);
      else children.set(parent, [i]);
    }
    index.set(m.id, i);
  });
  return { parents, children, roots, index };
}

/** Whether any message leaves the line (then the shown branch may be shorter than the array). */
export function hasBranches(messages: readonly TreeMessage[]): boolean {
  return messages.some((m) => m.parentId !== undefined);
}

/**
 * The indexes of the shown branch, from the chat's start to `head` (absent or unknown: the last
 * message), in order.
 *
 * @example findShownPath([{ id: 'q' }, { id: 'a1' }, { id: 'a2', parentId: 'q' }], 'a1') // [0, 1]
 */
export function findShownPath(messages: readonly TreeMessage[], head?: string | null, tree: MessageTree = readTree(messages)): number[] {
  const path: number[] = [];
  let at = head ? (tree.index.get(head) ?? messages.length - 1) : messages.length - 1;
  for (; at >= 0; at = tree.parents[at]!) path.push(at);
  return path.reverse();
}

/**
 * The newest message of the branches through message `at` (itself when nothing follows it): where
 * `version.set` moves the head, so a version shows with the latest said after it.
 *
 * @example findLatestLeaf(readTree([{ id: 'q' }, { id: 'a1' }, { id: 'a2', parentId: 'q' }]), 0) // 2
 */
export function findLatestLeaf(tree: MessageTree, at: number): number {
  // A parent always comes before its children, so one pass forward finds every descendant.
  const inside = new Uint8Array(tree.parents.length);
  inside[at] = 1;
  let latest = at;
  for (let i = at + 1; i < tree.parents.length; i++) {
    const parent = tree.parents[i]!;
    if (parent >= 0 && inside[parent]) {
      inside[i] = 1;
      latest = i;
    }
  }
  return latest;
}

/** The indexes of the versions message `at` is one of (itself included), oldest first. */
export function findSiblings(tree: MessageTree, at: number): number[] {
  const parent = tree.parents[at]!;
  return parent < 0 ? tree.roots : (tree.children.get(parent) ?? [at]);
}

/**
 * The version of each shown message that has others, by its id: what a client's ‹ n/m › shows.
 *
 * @example describeVersions(messages, tree, path).get('a2') // { n: 2, siblings: ['a1', 'a2'] }
 */
export function describeVersions(messages: readonly TreeMessage[], tree: MessageTree, path: readonly number[]): Map<string, VersionInfo> {
  const versions = new Map<string, VersionInfo>();
  for (const at of path) {
    const siblings = findSiblings(tree, at);
    if (siblings.length < 2) continue;
    versions.set(messages[at]!.id, { n: siblings.indexOf(at) + 1, siblings: siblings.map((i) => messages[i]!.id) });
  }
  return versions;
}

/**
 * The messages of the shown branch: what the agent is given as the chat's history, and what a
 * client shows. The same array when nothing branches.
 *
 * @example selectShownMessages(messages, chatInfo.head)
 */
export function selectShownMessages<T extends TreeMessage>(messages: readonly T[], head?: string | null): readonly T[] {
  if (!head && !hasBranches(messages)) return messages;
  return findShownPath(messages, head).map((i) => messages[i]!);
}
