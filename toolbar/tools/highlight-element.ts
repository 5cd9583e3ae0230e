import * as v from 'valibot';
import { describeIssues } from '../../shared/errors.ts';
import { LIMITS } from '../../shared/limits.ts';
import { HIGHLIGHT_ELEMENT, HIGHLIGHT_MS } from '../../shared/page-tool-definitions.ts';
import { rectOf, selectorOf } from '../page/describe-element.ts';
import { queryPage } from './query-page.ts';
import { toolError, type ToolbarTool } from './tool-context.ts';

const InputSchema = v.object({
  selector: v.pipe(v.string(), v.minLength(1, 'selector must not be empty'), v.maxLength(LIMITS.maxSelectorLength)),
});

/** `highlight_element`: shows the developer an element by outlining it for a few seconds. */
export const highlightElementTool: ToolbarTool = {
  ...HIGHLIGHT_ELEMENT,
  run(input, ctx) {
    const parsed = v.safeParse(InputSchema, input);
    if (!parsed.success) return toolError(describeIssues(parsed.issues).message);
    const { selector } = parsed.output;
    const found = queryPage(ctx, selector, 1);
    if (!found.ok) return toolError(found.error);
    const el = found.first[0];
    if (!el) return toolError(`No element matches '${selector}'`);
    ctx.highlight(el, selector, HIGHLIGHT_MS);
    return {
      output: {
        highlighted: true,
        matchCount: found.count,
        element: { tagName: el.localName || el.tagName.toLowerCase(), selector: selectorOf(el), rect: rectOf(el) },
        durationMs: HIGHLIGHT_MS,
      },
    };
  },
};
