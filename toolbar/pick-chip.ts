/**
 * How a picked element's chip reads: the component that wrote it before the element, labelled as
 * the agent is told it (`Greeting › button#greet`), or the element's words when neither an id nor
 * a component tells it apart (`td “Ada Lovelace”`); in its tooltip, the selector and where each
 * component around it is written.
 */
import { describeComponent, labelPick } from '../shared/describe-pick.ts';
import type { SelectedElement } from '../shared/schemas.ts';
import { truncateLine } from '../shared/truncate.ts';

/** Most characters of the component's name on a chip: the element must stay in view beside it. */
const MAX_CHIP_COMPONENT = 24;
/** Most characters of the element's words on a chip. */
const MAX_CHIP_WORDS = 24;

export interface PickChip {
  /** The nearest component's name, cut short; null when the pick has no component chain. */
  component: string | null;
  /** The element, as the agent is told it: `button#greet`. */
  element: string;
  /** Its words, cut short, when neither an id nor a component tells it apart; else null. */
  words: string | null;
  /** Its name for a screen reader (`button#greet in Greeting`), as the chip's Remove button says it. */
  name: string;
  /** The tooltip: the selector, then `in` each component with its `file:line:column`, one a line. */
  title: string;
}

/**
 * @example
 * describePickChip({ tagName: 'button', attributes: { id: 'greet' }, selector: '#greet', xpath: '/html/body/button',
 *   textContent: 'Hello', components: [{ name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 }] })
 * // { component: 'Greeting', element: 'button#greet', words: null, name: 'button#greet in Greeting',
 * //   title: '#greet\nin Greeting (src/Greeting.tsx:4:7)' }
 * describePickChip({ tagName: 'td', attributes: {}, xpath: '/html/body/table/tr/td', textContent: 'Ada Lovelace' })
 * // { component: null, element: 'td', words: 'Ada Lovelace', name: 'td “Ada Lovelace”', title: '/html/body/table/tr/td' }
 */
export function describePickChip(info: Pick<SelectedElement, 'tagName' | 'attributes' | 'selector' | 'xpath' | 'components' | 'textContent'>): PickChip {
  const nearest = info.components?.[0];
  const element = labelPick(info);
  const words = (!nearest && !info.attributes.id && truncateLine(info.textContent, MAX_CHIP_WORDS)) || null;
  const component = nearest ? truncateLine(nearest.name, MAX_CHIP_COMPONENT) : null;
  const title = [info.selector ?? info.xpath, ...(info.components ?? []).map((c) => `in ${describeComponent(c)}`)].join('\n');
  const name = component ? `${element} in ${component}` : words ? `${element} “${words}”` : element;
  return { component, element, words, name, title };
}
