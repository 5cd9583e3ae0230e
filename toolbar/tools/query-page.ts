import { LIMITS } from '../../shared/limits.ts';
import type { ToolContext } from './tool-context.ts';

export type QueryResult = { ok: true; count: number; first: Element[] } | { ok: false; error: string };

/**
 * Runs `selector` on the page, leaving out the toolbar itself; returns the match count and the
 * first `keep` matches. An invalid selector is an error result, never an exception.
 *
 * @example
 * queryPage(ctx, 'button', 5) // { ok: true, count: 12, first: [<button>, …5] }
 */
export function queryPage(ctx: ToolContext, selector: string, keep: number): QueryResult {
  if (!selector.trim()) return { ok: false, error: 'selector must not be empty' };
  if (selector.length > LIMITS.maxSelectorLength) {
    return { ok: false, error: `selector is longer than ${LIMITS.maxSelectorLength} characters` };
  }
  let list: ArrayLike<Element>;
  try {
    list = ctx.document.querySelectorAll(selector);
  } catch (err) {
    const detail = err instanceof Error && err.message ? `: ${err.message}` : '';
    return { ok: false, error: `Invalid CSS selector '${selector}'${detail}` };
  }
  let count = 0;
  const first: Element[] = [];
  for (let i = 0; i < list.length; i++) {
    const el = list[i]!;
    if (ctx.isOwnNode(el)) continue;
    count++;
    if (first.length < keep) first.push(el);
  }
  return { ok: true, count, first };
}
