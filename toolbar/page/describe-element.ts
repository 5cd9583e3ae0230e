/**
 * Describes a page element for the agent as a `SelectedElement`: where it is (xpath, a CSS
 * selector), what it is (tag, bounded attributes, truncated text) and where it sits on screen.
 * Every string respects the protocol limits, so a description never gets a message refused.
 */
import { LIMITS } from '../../shared/limits.ts';
import type { SelectedElement } from '../../shared/schemas.ts';
import { truncateLine, truncateText } from '../../shared/truncate.ts';
import { COMPONENT_ATTRIBUTE, SOURCE_ATTRIBUTE, readComponentChain } from './component-chain.ts';

type Rect = SelectedElement['boundingClientRect'];

/**
 * Escapes a string for use as a CSS identifier (the CSSOM `CSS.escape` algorithm, which Node lacks).
 *
 * @example
 * cssEscape('1a.b') // '\\31 a\\.b'
 */
export function cssEscape(value: string): string {
  let out = '';
  const first = value.charCodeAt(0);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0) out += '\uFFFD';
    else if (
      (c >= 0x01 && c <= 0x1f) ||
      c === 0x7f ||
      (i === 0 && c >= 0x30 && c <= 0x39) ||
      (i === 1 && c >= 0x30 && c <= 0x39 && first === 0x2d)
    )
      out += '\\' + c.toString(16) + ' ';
    else if (i === 0 && value.length === 1 && c === 0x2d) out += '\\-';
    else if (
      c >= 0x80 ||
      c === 0x2d ||
      c === 0x5f ||
      (c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a)
    )
      out += value.charAt(i);
    else out += '\\' + value.charAt(i);
  }
  return out;
}

const XHTML = 'http://www.w3.org/1999/xhtml';

/**
 * The element's name as a selector or an XPath step matches it: lower case for HTML, as written for
 * SVG and MathML, whose names keep their case (`foreignObject`, `linearGradient`) in both.
 */
function localName(el: Element): string {
  const name = el.localName || el.tagName || '';
  return !el.namespaceURI || el.namespaceURI === XHTML ? name.toLowerCase() : name;
}

/** 1-based position among same-named element siblings, and whether there are several. */
function positionAmongSiblings(el: Element): { index: number; count: number } {
  const parent = el.parentElement;
  if (!parent) return { index: 1, count: 1 };
  const name = localName(el);
  let index = 0;
  let count = 0;
  for (let sib = parent.firstElementChild; sib; sib = sib.nextElementSibling) {
    if (localName(sib) !== name) continue;
    count++;
    if (sib === el) index = count;
  }
  return { index: index || 1, count: Math.max(count, 1) };
}

/**
 * An absolute XPath such as `/html/body/div[2]/p`; the index appears only where siblings share a tag.
 *
 * @example
 * xpathOf(document.querySelector('li:nth-child(2)')!) // '/html/body/ul/li[2]'
 */
export function xpathOf(el: Element): string {
  const steps: string[] = [];
  for (let node: Element | null = el; node; node = node.parentElement) {
    const { index, count } = positionAmongSiblings(node);
    const name = localName(node);
    // SVG and MathML live in other namespaces, where a bare name step would not match.
    const step = node.namespaceURI && node.namespaceURI !== XHTML ? `*[local-name()='${name}']` : name;
    steps.push(count > 1 ? `${step}[${index}]` : step);
  }
  return '/' + steps.reverse().join('/');
}

function isUniqueId(el: Element): boolean {
  const id = el.id;
  if (!id) return false;
  try {
    return (el.ownerDocument?.querySelectorAll('#' + cssEscape(id)).length ?? 0) === 1;
  } catch {
    return false;
  }
}

/**
 * A CSS selector that finds `el`: `#id` when the id is unique, else a `>` path of
 * `tag:nth-of-type(n)` steps from the nearest ancestor with a unique id (or from `html`).
 *
 * @example
 * selectorOf(el) // '#app > ul > li:nth-of-type(2)'
 */
export function selectorOf(el: Element): string {
  const steps: string[] = [];
  for (let node: Element | null = el; node; node = node.parentElement) {
    if (isUniqueId(node)) {
      steps.push('#' + cssEscape(node.id));
      break;
    }
    const { index, count } = positionAmongSiblings(node);
    const name = cssEscape(localName(node));
    steps.push(count > 1 ? `${name}:nth-of-type(${index})` : name);
  }
  return steps.reverse().join(' > ');
}

/**
 * At most `LIMITS.maxAttributes` attributes, names and values cut to their limits. The dev plugin's
 * source marks are left out: `components` says what they say, once.
 */
export function boundedAttributes(el: Element, max: number = LIMITS.maxAttributes): Record<string, string> {
  const out: Record<string, string> = {};
  const attrs = el.attributes;
  let seen = 0;
  for (let i = 0; i < (attrs?.length ?? 0) && seen < max; i++) {
    const attr = attrs[i];
    if (!attr || attr.name === SOURCE_ATTRIBUTE || attr.name === COMPONENT_ATTRIBUTE) continue;
    seen++;
    if (attr.name.length > LIMITS.maxAttributeNameLength) continue;
    out[attr.name] = truncateText(attr.value, LIMITS.maxAttributeValueLength);
  }
  return out;
}

/** The element's box in CSS pixels, rounded to 0.1 px. */
export function rectOf(el: Element): Rect {
  const r = el.getBoundingClientRect();
  const round = (n: number) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : 0);
  return { x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height) };
}

/**
 * The protocol's description of one element.
 *
 * @example
 * describeElement(document.querySelector('button')!)
 * // { tagName: 'button', xpath: '/html/body/button', selector: 'button', attributes: {…}, … }
 */
export function describeElement(el: Element): SelectedElement {
  const parentEl = el.parentElement;
  const selector = selectorOf(el);
  const described: SelectedElement = {
    tagName: truncateText(localName(el), LIMITS.maxTagNameLength),
    xpath: truncateText(xpathOf(el), LIMITS.maxXpathLength),
    attributes: boundedAttributes(el),
    textContent: truncateLine(el.textContent ?? '', LIMITS.maxElementTextLength),
    boundingClientRect: rectOf(el),
    parent: parentEl
      ? {
          tagName: truncateText(localName(parentEl), LIMITS.maxTagNameLength),
          xpath: truncateText(xpathOf(parentEl), LIMITS.maxXpathLength),
          attributes: boundedAttributes(parentEl),
        }
      : null,
  };
  // A cut selector would select something else: leave it out instead.
  if (selector.length <= LIMITS.maxSelectorLength) described.selector = selector;
  const components = readComponentChain(el);
  if (components) described.components = components;
  return described;
}
