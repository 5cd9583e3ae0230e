/**
 * The ARIA role of an element: its `role` attribute, else the role its tag implies (HTML-AAM),
 * or null for the generic containers (`div`, `span`, …) that an accessibility tree leaves out.
 */

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Tags with one implied role whatever their attributes. */
const TAG_ROLES: Record<string, string> = {
  article: 'article',
  aside: 'complementary',
  blockquote: 'blockquote',
  button: 'button',
  caption: 'caption',
  code: 'code',
  datalist: 'listbox',
  dd: 'definition',
  details: 'group',
  dialog: 'dialog',
  dt: 'term',
  fieldset: 'group',
  figure: 'figure',
  form: 'form',
  hr: 'separator',
  iframe: 'iframe',
  li: 'listitem',
  main: 'main',
  math: 'math',
  menu: 'list',
  meter: 'meter',
  nav: 'navigation',
  ol: 'list',
  optgroup: 'group',
  option: 'option',
  output: 'status',
  p: 'paragraph',
  progress: 'progressbar',
  search: 'search',
  summary: 'button',
  table: 'table',
  tbody: 'rowgroup',
  td: 'cell',
  textarea: 'textbox',
  tfoot: 'rowgroup',
  thead: 'rowgroup',
  tr: 'row',
  ul: 'list',
};

const INPUT_ROLES: Record<string, string> = {
  button: 'button',
  checkbox: 'checkbox',
  color: 'button',
  file: 'button',
  image: 'button',
  number: 'spinbutton',
  radio: 'radio',
  range: 'slider',
  reset: 'button',
  search: 'searchbox',
  submit: 'button',
};

/** Roles whose accessible name is their text: the tree shows the name and leaves the text out. */
export const NAME_FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'heading', 'link', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'radio', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem',
]);

/** Roles the tree shows without children: a control's value says what is in it. */
export const LEAF_ROLES = new Set(['img', 'textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton', 'progressbar', 'meter', 'separator', 'iframe', 'math']);

/** `header` and `footer` are landmarks only outside articles, asides, mains, navs and sections. */
function insideSectioning(el: Element): boolean {
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (['article', 'aside', 'main', 'nav', 'section'].includes(p.localName)) return true;
  }
  return false;
}

function hasLabel(el: Element): boolean {
  return !!(el.getAttribute('aria-label')?.trim() || el.getAttribute('aria-labelledby')?.trim() || el.getAttribute('title')?.trim());
}

function inputRole(el: Element): string | null {
  const type = (el.getAttribute('type') ?? 'text').toLowerCase();
  if (type === 'hidden') return null;
  const role = INPUT_ROLES[type];
  if (role) return role;
  return el.getAttribute('list') !== null ? 'combobox' : 'textbox';
}

function selectRole(el: Element): string {
  const size = Number(el.getAttribute('size') ?? '0');
  return el.getAttribute('multiple') !== null || size > 1 ? 'listbox' : 'combobox';
}

/**
 * The role the element's tag implies, or null when it implies none (generic).
 *
 * @example implicitRole(document.createElement('nav')) // 'navigation'
 */
export function implicitRole(el: Element): string | null {
  const tag = el.localName;
  if (HEADINGS.has(tag)) return 'heading';
  const fixed = TAG_ROLES[tag];
  if (fixed) return fixed;
  switch (tag) {
    case 'a':
    case 'area':
      return el.getAttribute('href') !== null ? 'link' : null;
    case 'img':
      return el.getAttribute('alt') === '' && !hasLabel(el) ? null : 'img';
    case 'input':
      return inputRole(el);
    case 'select':
      return selectRole(el);
    case 'th':
      return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
    case 'header':
      return insideSectioning(el) ? null : 'banner';
    case 'footer':
      return insideSectioning(el) ? null : 'contentinfo';
    case 'section':
      return hasLabel(el) ? 'region' : null;
    case 'svg':
      return hasLabel(el) || el.querySelector?.(':scope > title') ? 'img' : null;
    default:
      return null;
  }
}

/**
 * The element's role: the first token of its `role` attribute, else the implied one; null for a
 * generic element and for `none` / `presentation`.
 *
 * @example roleOf(el) // 'button' for <div role="button"> and for <button>
 */
export function roleOf(el: Element): string | null {
  const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0]?.toLowerCase();
  if (explicit === 'none' || explicit === 'presentation' || explicit === 'generic') return null;
  if (explicit) return explicit;
  return implicitRole(el);
}
