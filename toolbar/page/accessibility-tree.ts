/**
 * The page (or one element) as an accessibility tree, the way assistive technology sees it: roles,
 * names, values and states, with the generic containers folded away and the text in between kept
 * as strings. Hidden subtrees, the toolbar itself and non-content tags are left out; the tree is
 * bounded in nodes, depth and the elements the walk looks at.
 */
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { collapseWhitespace, truncateText } from '../../shared/truncate.ts';
import { accessibleName, isHiddenSubtree, statesOf, valueOf, type AccessibleStates, type StyleOf } from './accessible-name.ts';
import { LEAF_ROLES, NAME_FROM_CONTENT, roleOf } from './aria-roles.ts';

export interface AccessibilityNode extends AccessibleStates {
  role: string;
  name?: string;
  /** A heading's level, or `aria-level`. */
  level?: number;
  value?: string;
  children?: (AccessibilityNode | string)[];
  /** Children left out: the tree reached its depth bound here. */
  childrenOmitted?: true;
}

export interface TreeOptions {
  isOwnNode(el: Element): boolean;
  styleOf: StyleOf;
  maxNodes: number;
}

export interface AccessibilityTree {
  tree: AccessibilityNode;
  /** Nodes and text strings in `tree`. */
  nodes: number;
  /** True when a bound cut the tree short: ask for a part of the page with a selector. */
  truncated: boolean;
}

/** Never content: skipped with everything inside. */
const SKIPPED_TAGS = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'base']);

/** Elements nested in one another, generic ones included, before the walk stops going down. */
const MAX_ELEMENT_NESTING = 512;

interface Walk {
  options: TreeOptions;
  nodes: number;
  visited: number;
  /** Elements the walk is inside now. */
  nesting: number;
  truncated: boolean;
}

type Child = AccessibilityNode | string;

/** Joins text to the text before it, when there is some: adjacent strings read as one. */
function joinText(out: Child[], text: string): boolean {
  const last = out[out.length - 1];
  if (typeof last !== 'string') return false;
  out[out.length - 1] = truncateText(`${last} ${text}`, PAGE_TOOL_LIMITS.treeTextChars);
  return true;
}

/** Adds a text node of the page, as a new string (one more node) or joined to the one before. */
function addText(walk: Walk, out: Child[], text: string): void {
  if (joinText(out, text)) return;
  if (walk.nodes >= walk.options.maxNodes) {
    walk.truncated = true;
    return;
  }
  walk.nodes++;
  out.push(truncateText(text, PAGE_TOOL_LIMITS.treeTextChars));
}

/** Adds what a folded-away element gave, already counted: a string joined to the one before counts once. */
function addWalked(walk: Walk, out: Child[], child: Child): void {
  if (typeof child === 'string' && joinText(out, child)) walk.nodes--;
  else out.push(child);
}

/** What the element renders: its open shadow root's nodes, a slot's assigned nodes, else its own. */
function renderedChildren(el: Element): Node[] {
  const shadow: unknown = Reflect.get(el, 'shadowRoot');
  if (shadow && typeof shadow === 'object' && 'childNodes' in shadow) return Array.from((shadow as ShadowRoot).childNodes);
  if (el.localName === 'slot' && typeof Reflect.get(el, 'assignedNodes') === 'function') {
    const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
    if (assigned.length > 0) return assigned;
  }
  return Array.from(el.childNodes);
}

function walkChildren(walk: Walk, el: Element, depth: number, withText: boolean): Child[] {
  const out: Child[] = [];
  for (const node of renderedChildren(el)) {
    if (walk.truncated) break;
    if (node.nodeType === 3) {
      const text = collapseWhitespace(node.nodeValue ?? '');
      if (text && withText) addText(walk, out, text);
    } else if (node.nodeType === 1) {
      for (const child of walkElement(walk, node as Element, depth, withText)) addWalked(walk, out, child);
    }
  }
  return out;
}

function headingLevel(el: Element): number | undefined {
  const aria = Number(el.getAttribute('aria-level'));
  if (Number.isInteger(aria) && aria > 0) return aria;
  const m = /^h([1-6])$/.exec(el.localName);
  return m ? Number(m[1]) : undefined;
}

function describeNode(el: Element, role: string, styleOf: StyleOf): AccessibilityNode {
  const node: AccessibilityNode = { role };
  const name = accessibleName(el, role, styleOf);
  if (name) node.name = name;
  if (role === 'heading') {
    const level = headingLevel(el);
    if (level) node.level = level;
  }
  const value = valueOf(el, role);
  if (value) node.value = value;
  return Object.assign(node, statesOf(el, role));
}

/**
 * The element as tree nodes: one node, or (for a generic or invisible element) its children.
 * `withText` is false inside an element named by its text, which the name already holds.
 */
function walkElement(walk: Walk, el: Element, depth: number, withText: boolean): Child[] {
  if (++walk.visited > PAGE_TOOL_LIMITS.treeVisitedElements || walk.nesting >= MAX_ELEMENT_NESTING) {
    walk.truncated = true;
    return [];
  }
  walk.nesting++;
  try {
    return describeElement(walk, el, depth, withText);
  } finally {
    walk.nesting--;
  }
}

function describeElement(walk: Walk, el: Element, depth: number, withText: boolean): Child[] {
  if (SKIPPED_TAGS.has(el.localName) || walk.options.isOwnNode(el) || isHiddenSubtree(el, walk.options.styleOf)) return [];
  const role = roleOf(el);
  // An svg without a name is decoration (an icon): its shapes say nothing.
  if (!role && el.localName === 'svg') return [];
  const visibility = walk.options.styleOf(el)?.getPropertyValue('visibility');
  const invisible = visibility === 'hidden' || visibility === 'collapse';
  // Invisible itself, its children may still show (`visibility` is inherited but can be reset).
  if (!role || invisible) return walkChildren(walk, el, depth, withText && !invisible);
  if (walk.nodes >= walk.options.maxNodes) {
    walk.truncated = true;
    return [];
  }
  walk.nodes++;
  const node = describeNode(el, role, walk.options.styleOf);
  if (LEAF_ROLES.has(role)) return [node];
  if (depth + 1 >= PAGE_TOOL_LIMITS.treeDepth) {
    if (el.children.length > 0) {
      node.childrenOmitted = true;
      walk.truncated = true;
    }
    return [node];
  }
  const children = walkChildren(walk, el, depth + 1, !NAME_FROM_CONTENT.has(role) || !node.name);
  if (children.length > 0) node.children = children;
  return [node];
}

/**
 * The tree under `root`: a `document` node named `title` for the whole page's `<body>`, else the
 * root element's own node (`generic` when it has no role).
 *
 * @example
 * buildAccessibilityTree(document.body, { isOwnNode, styleOf: (el) => getComputedStyle(el), maxNodes: 200 }, document.title)
 * // { tree: { role: 'document', name: 'Shop', children: [{ role: 'banner', children: [...] }, …] }, nodes: 57, truncated: false }
 */
export function buildAccessibilityTree(root: Element, options: TreeOptions, pageTitle?: string): AccessibilityTree {
  const walk: Walk = { options, nodes: 1, visited: 0, nesting: 0, truncated: false };
  let tree: AccessibilityNode;
  if (pageTitle !== undefined) {
    tree = { role: 'document' };
    if (pageTitle.trim()) tree.name = truncateText(collapseWhitespace(pageTitle), PAGE_TOOL_LIMITS.treeTextChars);
    const children = walkChildren(walk, root, 1, true);
    if (children.length > 0) tree.children = children;
  } else {
    walk.nodes = 0;
    const nodes = walkElement(walk, root, 0, true);
    const only = nodes[0];
    if (nodes.length === 1 && only && typeof only !== 'string') tree = only;
    else {
      walk.nodes++;
      tree = { role: 'generic' };
      if (nodes.length > 0) tree.children = nodes;
    }
  }
  return { tree, nodes: walk.nodes, truncated: walk.truncated };
}
