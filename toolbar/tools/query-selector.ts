import * as v from 'valibot';
import { describeIssues } from '../../shared/errors.ts';
import { LIMITS } from '../../shared/limits.ts';
import { boundedAttributes, rectOf, selectorOf } from '../page/describe-element.ts';
import { truncateLine, truncateText } from '../../shared/truncate.ts';
import { QUERY_DEFAULT_LIMIT, QUERY_MAX_LIMIT, QUERY_SELECTOR } from '../../shared/page-tool-definitions.ts';
import { queryPage } from './query-page.ts';
import { toolError, type ToolbarTool } from './tool-context.ts';

const TEXT_EXCERPT = 200;
const ATTRIBUTE_VALUE_EXCERPT = 200;
/** Attributes worth the agent's attention, in this order; others are left out of the summary. */
const USEFUL_ATTRIBUTES = [
  'id', 'class', 'name', 'type', 'role', 'href', 'src', 'alt', 'title', 'aria-label',
  'placeholder', 'value', 'for', 'data-testid', 'disabled', 'hidden',
];

const InputSchema = v.object({
  selector: v.pipe(v.string(), v.minLength(1, 'selector must not be empty'), v.maxLength(LIMITS.maxSelectorLength)),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(QUERY_MAX_LIMIT))),
});

function summarizeAttributes(el: Element): Record<string, string> {
  const all = boundedAttributes(el);
  const out: Record<string, string> = {};
  for (const name of USEFUL_ATTRIBUTES) {
    const value = all[name];
    if (value !== undefined) out[name] = truncateText(value, ATTRIBUTE_VALUE_EXCERPT);
  }
  return out;
}

/** `query_selector`: how many elements match, and a bounded summary of the first few. */
export const querySelectorTool: ToolbarTool = {
  ...QUERY_SELECTOR,
  run(input, ctx) {
    const parsed = v.safeParse(InputSchema, input);
    if (!parsed.success) return toolError(describeIssues(parsed.issues).message);
    const { selector, limit = QUERY_DEFAULT_LIMIT } = parsed.output;
    const found = queryPage(ctx, selector, limit);
    if (!found.ok) return toolError(found.error);
    return {
      output: {
        selector,
        count: found.count,
        shown: found.first.length,
        matches: found.first.map((el, index) => ({
          index,
          tagName: el.localName || el.tagName.toLowerCase(),
          selector: selectorOf(el),
          text: truncateLine(el.textContent ?? '', TEXT_EXCERPT),
          attributes: summarizeAttributes(el),
          rect: rectOf(el),
        })),
      },
    };
  },
};
