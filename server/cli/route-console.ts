/**
 * What libraries print with `console.error` and `console.warn` (ACP's SDK complains that way about
 * an update it could not read), sent through a command's own notes: in `agentbar chat` a note starts
 * a line of its own, where a bare write to stderr landed in the middle of the reply's text.
 */
import { formatWithOptions } from 'node:util';

/**
 * Routes `console.error` and `console.warn` to `note` until the returned function puts them back.
 *
 * @example const restore = routeConsoleTo(out.note); try { await chat(); } finally { restore(); }
 */
export function routeConsoleTo(note: (line: string) => void): () => void {
  const { error, warn } = console;
  const route = (...args: unknown[]) => note(formatWithOptions({ colors: false }, ...args));
  console.error = route;
  console.warn = route;
  return () => {
    console.error = error;
    console.warn = warn;
  };
}
