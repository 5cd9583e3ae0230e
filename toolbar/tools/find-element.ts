import * as v from 'valibot';
import { LIMITS } from '../../shared/limits.ts';
import { queryPage, type QueryResult } from './query-page.ts';
import type { ToolContext } from './tool-context.ts';

/** The `selector` input of a tool about one element (or one part of the page). */
export const SelectorInput = v.optional(v.pipe(v.string(), v.minLength(1, 'selector must not be empty'), v.maxLength(LIMITS.maxSelectorLength)));
/** The `pick` input: a picked element's number, 1 for the first. */
export const PickInput = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMITS.maxSelectedElements)));

export type FoundElement = { ok: true; element: Element; matchCount: number | null } | { ok: false; error: string };

/**
 * The one element a tool is about: the first match of `selector` (with how many matched), or the
 * developer's pick number `pick` (1 for the first). Exactly one of the two must be given.
 *
 * @example findElement(ctx, { pick: 1 }) // { ok: true, element: <button>, matchCount: null }
 */
export function findElement(ctx: ToolContext, target: { selector?: string | undefined; pick?: number | undefined }): FoundElement {
  const { selector, pick } = target;
  if (selector !== undefined && pick !== undefined) return { ok: false, error: 'Give a selector or a pick, not both' };
  if (pick === undefined) {
    if (selector === undefined) return { ok: false, error: 'Give a selector or a pick' };
    const found: QueryResult = queryPage(ctx, selector, 1);
    if (!found.ok) return found;
    const first = found.first[0];
    return first ? { ok: true, element: first, matchCount: found.count } : { ok: false, error: `No element matches '${selector}'` };
  }
  const nodes = ctx.getPickedNodes?.() ?? [];
  const node = nodes[pick - 1];
  if (pick > nodes.length) return { ok: false, error: `Only ${nodes.length} element(s) are picked, so there is no pick ${pick}` };
  return node ? { ok: true, element: node, matchCount: null } : { ok: false, error: `Pick ${pick} has left the page` };
}
