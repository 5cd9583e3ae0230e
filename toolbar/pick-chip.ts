/**
 * How a picked element's chip reads: the component that wrote it before the element
 * (`Greeting › button#greet`), and, in its tooltip, the selector and where each component around it
 * is written.
 */
import { describeComponent } from '../shared/describe-pick.ts';
import type { SelectedElement } from '../shared/schemas.ts';
import { truncateLine } from '../shared/truncate.ts';
import { labelElement } from './page/picker.ts';

/** Most characters of the component's name on a chip: the element must stay in view beside it. */
const MAX_CHIP_COMPONENT = 24;

export interface PickChip {
  /** The nearest component's name, cut short; null when the pick has no component chain. */
  component: string | null;
  /** The element: `button#greet.primary`. */
  element: string;
  /** Its name for a screen reader (`button#greet in Greeting`), as the chip's Remove button says it. */
  name: string;
  /** The tooltip: the selector, then `in` each component with its `file:line:column`, one a line. */
  title: string;
}

/**
 * @example
 * describePickChip({ tagName: 'button', attributes: { id: 'greet' }, selector: '#greet', xpath: '/html/body/button',
 *   components: [{ name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 }] })
 * // { component: 'Greeting', element: 'button#greet', name: 'button#greet in Greeting',
 * //   title: '#greet\nin Greeting (src/Greeting.tsx:4:7)' }
 */
export function describePickChip(info: Pick<SelectedElement, 'tagName' | 'attributes' | 'selector' | 'xpath' | 'components'>): PickChip {
  const element = labelElement(info);
  const nearest = info.components?.[0];
  const component = nearest ? truncateLine(nearest.name, MAX_CHIP_COMPONENT) : null;
  const title = [info.selector ?? info.xpath, ...(info.components ?? []).map((c) => `in ${describeComponent(c)}`)].join('\n');
  return { component, element, name: component ? `${element} in ${component}` : element, title };
}
