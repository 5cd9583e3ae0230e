/**
 * Reads the component chain of a picked element from the attributes the agentbar Vite plugin adds
 * in dev (`data-agentbar-source="src/Greeting.tsx:4:7"`, `data-agentbar-component="Greeting"`):
 * the component that wrote the element, then the components around it, nearest first.
 */
import { LIMITS } from '../../shared/limits.ts';
import type { ComponentFrame } from '../../shared/schemas.ts';

/** Where the element is written: `file:line:column`, the file relative to the project root. */
export const SOURCE_ATTRIBUTE = 'data-agentbar-source';
/** The component whose code writes the element. */
export const COMPONENT_ATTRIBUTE = 'data-agentbar-component';

type SourceLocation = Required<Omit<ComponentFrame, 'name'>>;

/**
 * Splits `file:line:column` (line and column 1-based); null for anything else, and for a file
 * over the protocol's limit, which cut short would name another file.
 *
 * @example
 * parseSourceLocation('src/Greeting.tsx:4:7') // { file: 'src/Greeting.tsx', line: 4, column: 7 }
 */
export function parseSourceLocation(value: string): SourceLocation | null {
  const match = /^(.+):([1-9]\d{0,8}):([1-9]\d{0,8})$/.exec(value);
  if (!match?.[1] || !match[2] || !match[3] || match[1].length > LIMITS.maxSourceFileLength) return null;
  return { file: match[1], line: Number(match[2]), column: Number(match[3]) };
}

/** The entry an element's own attributes make; null when it has none, or a name no entry can hold. */
function frameOf(el: Element): ComponentFrame | null {
  const name = el.getAttribute(COMPONENT_ATTRIBUTE);
  if (!name || name.length > LIMITS.maxComponentNameLength) return null;
  const source = el.getAttribute(SOURCE_ATTRIBUTE);
  const location = source ? parseSourceLocation(source) : null;
  return location ? { name, ...location } : { name };
}

/**
 * The component chain of `el`, at most `LIMITS.maxComponents` entries: first the component that
 * wrote `el` and where, then each enclosing component with the place, in its own file, of the
 * element that holds the previous one. Ancestors of one component and file count once. Undefined
 * when `el` itself carries no mark (no dev plugin, a production build, an element from
 * node_modules): the chain is left out rather than started at some other element.
 *
 * @example
 * readComponentChain(document.querySelector('h1')!)
 * // [{ name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 },
 * //  { name: 'App', file: 'src/App.tsx', line: 9, column: 5 }]
 */
export function readComponentChain(el: Element): ComponentFrame[] | undefined {
  const first = frameOf(el);
  if (!first) return undefined;
  const chain = [first];
  for (let node = el.parentElement; node && chain.length < LIMITS.maxComponents; node = node.parentElement) {
    const frame = frameOf(node);
    const last = chain[chain.length - 1];
    if (!frame || (last && frame.name === last.name && frame.file === last.file)) continue;
    chain.push(frame);
  }
  return chain;
}
