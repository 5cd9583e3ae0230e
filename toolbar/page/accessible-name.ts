/**
 * Accessible names, values and states, after the W3C accessible name computation in the cases
 * pages meet: `aria-labelledby`, `aria-label`, `<label>`, `alt`, button values, legends and
 * captions, an element's own text for the roles named by their content, then `title` and
 * `placeholder`. Every text is one line, bounded.
 */
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { collapseWhitespace, truncateText } from '../../shared/truncate.ts';
import { NAME_FROM_CONTENT } from './aria-roles.ts';

/** Reads computed styles; null when the element has none (it is not rendered). */
export type StyleOf = (el: Element) => Pick<CSSStyleDeclaration, 'getPropertyValue'> | null;

/** Elements whose text is never shown, and fields, whose text is their value (not part of a label's). */
const NEVER_TEXT = new Set(['script', 'style', 'template', 'noscript', 'head', 'input', 'select', 'textarea', 'datalist']);
const FORM_CONTROLS = new Set(['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset']);

function line(text: string): string {
  return truncateText(collapseWhitespace(text), PAGE_TOOL_LIMITS.treeTextChars);
}

/**
 * True when the element and all it holds are out of the accessibility tree: `display: none`,
 * `aria-hidden="true"`, `inert`, or the `hidden` attribute when no style says otherwise.
 *
 * @example isHiddenSubtree(el, (e) => getComputedStyle(e)) // true for <div hidden>
 */
export function isHiddenSubtree(el: Element, styleOf: StyleOf): boolean {
  if (el.getAttribute('aria-hidden') === 'true' || el.getAttribute('inert') !== null) return true;
  const style = styleOf(el);
  if (style) return style.getPropertyValue('display') === 'none';
  return el.getAttribute('hidden') !== null;
}

/** Text as rendered for a name: visible text, `alt` of images, the names its labelled parts give. */
function textOf(el: Element, styleOf: StyleOf, budget: { left: number }): string {
  const parts: string[] = [];
  for (const node of Array.from(el.childNodes)) {
    if (budget.left <= 0) break;
    budget.left--;
    if (node.nodeType === 3) {
      parts.push(node.nodeValue ?? '');
      continue;
    }
    if (node.nodeType !== 1) continue;
    const child = node as Element;
    if (NEVER_TEXT.has(child.localName) || isHiddenSubtree(child, styleOf)) continue;
    const label = child.getAttribute('aria-label')?.trim();
    if (label) parts.push(` ${label} `);
    else if (child.localName === 'img') parts.push(` ${child.getAttribute('alt') ?? ''} `);
    else parts.push(textOf(child, styleOf, budget));
  }
  return parts.join('');
}

function textOfElement(el: Element, styleOf: StyleOf): string {
  return line(textOf(el, styleOf, { left: 2_000 }));
}

function labelledBy(el: Element, styleOf: StyleOf): string {
  const ids = el.getAttribute('aria-labelledby')?.trim();
  if (!ids) return '';
  const doc = el.ownerDocument;
  return line(
    ids
      .split(/\s+/)
      .map((id) => {
        const ref = doc.getElementById(id);
        return ref ? ref.getAttribute('aria-label')?.trim() || textOfElement(ref, styleOf) : '';
      })
      .join(' '),
  );
}

/** The `<label>`s of a form control: the one wrapping it and those pointing at its id. */
function labelsText(el: Element, styleOf: StyleOf): string {
  const labels: Element[] = [];
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (p.localName === 'label') {
      labels.push(p);
      break;
    }
  }
  const id = el.getAttribute('id');
  if (id) {
    for (const label of Array.from(el.ownerDocument.querySelectorAll('label'))) {
      if (label.getAttribute('for') === id && !labels.includes(label)) labels.push(label);
    }
  }
  return line(labels.map((label) => textOfElement(label, styleOf)).join(' '));
}

function firstChildText(el: Element, tag: string, styleOf: StyleOf): string {
  for (const child of Array.from(el.children)) if (child.localName === tag) return textOfElement(child, styleOf);
  return '';
}

function nativeName(el: Element, styleOf: StyleOf): string {
  const tag = el.localName;
  if (tag === 'input') {
    const type = (el.getAttribute('type') ?? 'text').toLowerCase();
    if (type === 'submit' || type === 'reset' || type === 'button') {
      return line(el.getAttribute('value') ?? (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''));
    }
    if (type === 'image') return line(el.getAttribute('alt') ?? 'Submit');
  }
  if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'meter' || tag === 'progress' || tag === 'output') {
    return labelsText(el, styleOf);
  }
  if (tag === 'img' || tag === 'area') return line(el.getAttribute('alt') ?? '');
  if (tag === 'fieldset') return firstChildText(el, 'legend', styleOf);
  if (tag === 'figure') return firstChildText(el, 'figcaption', styleOf);
  if (tag === 'table') return firstChildText(el, 'caption', styleOf);
  if (tag === 'svg') return firstChildText(el, 'title', styleOf);
  return '';
}

/**
 * The element's accessible name for `role`, one line of at most `treeTextChars` characters.
 *
 * @example accessibleName(button, 'button', styleOf) // 'Save changes'
 */
export function accessibleName(el: Element, role: string, styleOf: StyleOf): string {
  const fromIds = labelledBy(el, styleOf);
  if (fromIds) return fromIds;
  const label = el.getAttribute('aria-label');
  if (label?.trim()) return line(label);
  const native = nativeName(el, styleOf);
  if (native) return native;
  if (NAME_FROM_CONTENT.has(role)) {
    const text = textOfElement(el, styleOf);
    if (text) return text;
  }
  return line(el.getAttribute('title') ?? el.getAttribute('placeholder') ?? '');
}

function property(el: Element, name: string): unknown {
  return Reflect.get(el, name);
}

/**
 * What a control holds, as a screen reader reads it: a field's text (never a password's), the
 * chosen option of a select, the number of a slider or progress bar; '' when there is nothing.
 *
 * @example valueOf(input) // 'ada@example.com'
 */
export function valueOf(el: Element, role: string): string {
  const valueText = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
  if (valueText) return line(valueText);
  const tag = el.localName;
  if (tag === 'input' && (el.getAttribute('type') ?? '').toLowerCase() === 'password') return '';
  if (tag === 'select') {
    const options = Array.from(el.children).flatMap((c) => (c.localName === 'optgroup' ? Array.from(c.children) : [c]));
    const chosen = options.filter((o) => o.localName === 'option' && property(o, 'selected') === true);
    return line(chosen.map((o) => o.textContent ?? '').join(', '));
  }
  if (['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'progressbar', 'meter'].includes(role)) {
    const value = property(el, 'value');
    if (typeof value === 'string' || typeof value === 'number') return line(String(value));
    return line(el.getAttribute('value') ?? '');
  }
  return '';
}

function ariaTristate(value: string | null): boolean | 'mixed' | undefined {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'mixed') return 'mixed';
  return undefined;
}

function isDisabled(el: Element): boolean {
  if (el.getAttribute('aria-disabled') === 'true') return true;
  if (!FORM_CONTROLS.has(el.localName)) return false;
  try {
    return el.matches(':disabled');
  } catch {
    return el.getAttribute('disabled') !== null;
  }
}

function flag(el: Element, name: string, aria: string): boolean {
  const own = property(el, name);
  if (typeof own === 'boolean') return own || el.getAttribute(aria) === 'true';
  return el.getAttribute(name.toLowerCase()) !== null || el.getAttribute(aria) === 'true';
}

export interface AccessibleStates {
  checked?: boolean | 'mixed';
  pressed?: boolean | 'mixed';
  expanded?: boolean;
  selected?: true;
  disabled?: true;
  focused?: true;
  required?: true;
  readonly?: true;
  invalid?: true;
}

const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const EDITABLE = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'listbox']);

/**
 * The states that matter to someone using the element: only those that apply, so a plain
 * paragraph has none.
 *
 * @example statesOf(checkbox, 'checkbox') // { checked: true, focused: true }
 */
export function statesOf(el: Element, role: string): AccessibleStates {
  const states: AccessibleStates = {};
  if (CHECKABLE.has(role)) {
    const native = el.localName === 'input' ? property(el, 'checked') : undefined;
    const mixed = el.localName === 'input' && property(el, 'indeterminate') === true;
    const checked = mixed ? 'mixed' : typeof native === 'boolean' ? native : (ariaTristate(el.getAttribute('aria-checked')) ?? el.getAttribute('checked') !== null);
    states.checked = checked;
  }
  const pressed = ariaTristate(el.getAttribute('aria-pressed'));
  if (pressed !== undefined) states.pressed = pressed;
  const expanded = ariaTristate(el.getAttribute('aria-expanded'));
  if (expanded === true || expanded === false) states.expanded = expanded;
  else if (el.localName === 'summary' && el.parentElement?.localName === 'details') states.expanded = el.parentElement.getAttribute('open') !== null;
  if (el.getAttribute('aria-selected') === 'true' || (el.localName === 'option' && property(el, 'selected') === true)) states.selected = true;
  if (isDisabled(el)) states.disabled = true;
  if (el.ownerDocument.activeElement === el) states.focused = true;
  if (EDITABLE.has(role) || CHECKABLE.has(role)) {
    if (flag(el, 'required', 'aria-required')) states.required = true;
    if (EDITABLE.has(role) && flag(el, 'readOnly', 'aria-readonly')) states.readonly = true;
  }
  if (el.getAttribute('aria-invalid') === 'true') states.invalid = true;
  return states;
}
