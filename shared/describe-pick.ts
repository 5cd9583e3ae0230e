/**
 * A picked element as one line of text: the element, then the components around it with where
 * each is written. The agents' prompts, the Markdown export and the toolbar's chips all name a pick
 * this way, so what the user saw is what the agent is told.
 */
import type { ComponentFrame, SelectedElement } from './schemas.ts';
import { collapseWhitespace, truncateText } from './truncate.ts';

/** Most characters of a pick's line: room for a chain of several components with their files. */
export const MAX_PICK_LINE = 600;
/** Most characters of the element's own label (`button#greet`): an id can be 2 KB long. */
const MAX_LABEL = 60;
const MORE = ' …';

/**
 * The element as its tag and, when it has one, its id, else its first class.
 *
 * @example labelPick({ tagName: 'BUTTON', attributes: { id: 'greet', class: 'primary' } }) // 'button#greet'
 * @example labelPick({ tagName: 'td', attributes: { class: 'name wide' } }) // 'td.name'
 */
export function labelPick(el: Pick<SelectedElement, 'tagName' | 'attributes'>): string {
  const tag = collapseWhitespace(el.tagName).toLowerCase();
  const id = collapseWhitespace(el.attributes.id ?? '');
  const firstClass = collapseWhitespace(el.attributes.class ?? '').split(' ')[0];
  return truncateText(id ? `${tag}#${id}` : firstClass ? `${tag}.${firstClass}` : tag, MAX_LABEL);
}

/**
 * Where a component's element is written, as an editor's `file:line:column` (what is known of it).
 *
 * @example locateComponent({ name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 }) // 'src/Greeting.tsx:4:7'
 * @example locateComponent({ name: 'Greeting' }) // null
 */
export function locateComponent(frame: ComponentFrame): string | null {
  if (!frame.file) return null;
  const line = frame.line !== undefined ? `:${frame.line}${frame.column !== undefined ? `:${frame.column}` : ''}` : '';
  return `${collapseWhitespace(frame.file)}${line}`;
}

/**
 * A component and where it is written.
 *
 * @example describeComponent({ name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 }) // 'Greeting (src/Greeting.tsx:4:7)'
 */
export function describeComponent(frame: ComponentFrame): string {
  const where = locateComponent(frame);
  const name = collapseWhitespace(frame.name);
  return where ? `${name} (${where})` : name;
}

/**
 * A pick as one line of at most `max` characters: `<label>`, then `in` each component of its
 * chain, nearest first. Components that do not fit are left out whole, with ` …` saying so, so a
 * file is never cut into the name of another.
 *
 * @example
 * describePick({ tagName: 'button', attributes: { id: 'greet' }, components: [
 *   { name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 },
 *   { name: 'App', file: 'src/App.tsx', line: 12, column: 5 },
 * ] }) // '<button#greet> in Greeting (src/Greeting.tsx:4:7) in App (src/App.tsx:12:5)'
 * describePick({ tagName: 'td', attributes: {} }) // '<td>'
 */
export function describePick(el: Pick<SelectedElement, 'tagName' | 'attributes' | 'components'>, max = MAX_PICK_LINE): string {
  let line = `<${labelPick(el)}>`;
  const chain = el.components ?? [];
  for (const [i, frame] of chain.entries()) {
    const next = `${line} in ${describeComponent(frame)}`;
    // The last component needs no room for the ellipsis after it.
    if (next.length > (i === chain.length - 1 ? max : max - MORE.length)) return truncateText(`${line}${MORE}`, max);
    line = next;
  }
  return truncateText(line, max);
}
