/**
 * The computed styles that decide how an element is laid out and looks (box model, positioning,
 * flex and grid, type, colour, visibility), as short as CSS would write them: four sides as one
 * shorthand, flex and grid properties only where they apply, initial values left out.
 */
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { truncateText } from '../../shared/truncate.ts';

export type StyleReader = Pick<CSSStyleDeclaration, 'getPropertyValue'>;

const LAYOUT = ['display', 'position', 'top', 'right', 'bottom', 'left', 'z-index', 'float', 'box-sizing', 'width', 'height', 'min-width', 'max-width', 'min-height', 'max-height'];
const LOOK = [
  'color', 'background-color', 'background-image', 'opacity', 'visibility', 'overflow-x', 'overflow-y',
  'font-family', 'font-size', 'font-weight', 'font-style', 'line-height', 'letter-spacing', 'text-align',
  'text-decoration-line', 'text-transform', 'white-space', 'transform', 'box-shadow', 'cursor', 'pointer-events',
];
const FLEX_CONTAINER = ['flex-direction', 'flex-wrap', 'justify-content', 'align-items', 'align-content', 'row-gap', 'column-gap'];
const GRID_CONTAINER = ['grid-template-columns', 'grid-template-rows', 'grid-template-areas', 'grid-auto-flow', 'justify-items', 'align-items', 'justify-content', 'align-content', 'row-gap', 'column-gap'];
const FLEX_ITEM = ['flex-grow', 'flex-shrink', 'flex-basis', 'align-self', 'order'];
const GRID_ITEM = ['grid-column', 'grid-row', 'justify-self', 'align-self'];
const OFFSETS = new Set(['top', 'right', 'bottom', 'left']);

/** Values that say nothing: the property's initial value. */
const INITIAL: Record<string, readonly string[]> = {
  float: ['none'],
  'min-width': ['auto', '0px'],
  'min-height': ['auto', '0px'],
  'max-width': ['none'],
  'max-height': ['none'],
  'background-image': ['none'],
  'letter-spacing': ['normal'],
  'text-decoration-line': ['none'],
  'text-transform': ['none'],
  transform: ['none'],
  'box-shadow': ['none'],
  cursor: ['auto'],
  'pointer-events': ['auto'],
  'grid-template-areas': ['none'],
  order: ['0'],
};

/** `1px 2px 1px 2px` → `1px 2px`: four sides as CSS's shorthand writes them. */
function shorthand([top, right, bottom, left]: string[]): string {
  if (right === left) {
    if (top === bottom) return top === right ? top! : `${top} ${right}`;
    return `${top} ${right} ${bottom}`;
  }
  return `${top} ${right} ${bottom} ${left}`;
}

const SIDES = ['top', 'right', 'bottom', 'left'];

function borders(style: StyleReader, out: Record<string, string>): void {
  const sides = SIDES.map((side) => ['width', 'style', 'color'].map((part) => style.getPropertyValue(`border-${side}-${part}`)).join(' '));
  if (sides.every((s) => s === sides[0])) {
    if (!sides[0]!.startsWith('0px none')) out.border = sides[0]!;
  } else {
    SIDES.forEach((side, i) => {
      if (!sides[i]!.startsWith('0px none')) out[`border-${side}`] = sides[i]!;
    });
  }
  const radius = shorthand(['top-left', 'top-right', 'bottom-right', 'bottom-left'].map((corner) => style.getPropertyValue(`border-${corner}-radius`)));
  if (radius !== '0px') out['border-radius'] = radius;
}

function add(style: StyleReader, names: readonly string[], out: Record<string, string>): void {
  for (const name of names) {
    const value = style.getPropertyValue(name).trim();
    if (!value || INITIAL[name]?.includes(value)) continue;
    out[name] = truncateText(value, PAGE_TOOL_LIMITS.styleValueChars);
  }
}

/**
 * The element's styles that matter for layout, colour and type. `parent` (the parent's computed
 * style) decides whether flex or grid item properties apply.
 *
 * @example
 * summarizeStyles(getComputedStyle(el), getComputedStyle(el.parentElement))
 * // { display: 'flex', position: 'static', …, margin: '0px 0px 16px', padding: '8px 16px', border: '1px solid rgb(227, 230, 234)', … }
 */
export function summarizeStyles(style: StyleReader, parent: StyleReader | null): Record<string, string> {
  const out: Record<string, string> = {};
  const position = style.getPropertyValue('position');
  add(style, position === 'static' ? LAYOUT.filter((name) => !OFFSETS.has(name)) : LAYOUT, out);
  out.margin = shorthand(SIDES.map((side) => style.getPropertyValue(`margin-${side}`)));
  out.padding = shorthand(SIDES.map((side) => style.getPropertyValue(`padding-${side}`)));
  borders(style, out);
  const display = style.getPropertyValue('display');
  if (display.includes('flex')) add(style, FLEX_CONTAINER, out);
  if (display.includes('grid')) add(style, GRID_CONTAINER, out);
  const parentDisplay = parent?.getPropertyValue('display') ?? '';
  if (parentDisplay.includes('flex')) add(style, FLEX_ITEM, out);
  if (parentDisplay.includes('grid')) add(style, GRID_ITEM, out);
  add(style, LOOK, out);
  return out;
}
