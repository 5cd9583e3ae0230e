import * as v from 'valibot';
import { describeIssues } from '../../shared/errors.ts';
import { LIMITS, SCREENSHOT_LIMITS } from '../../shared/limits.ts';
import { TAKE_SCREENSHOT } from '../../shared/page-tool-definitions.ts';
import { selectorOf } from '../page/describe-element.ts';
import { queryPage } from './query-page.ts';
import { toolError, type ToolbarTool, type ToolContext, type ToolOutcome } from './tool-context.ts';

const InputSchema = v.object({
  selector: v.optional(v.pipe(v.string(), v.minLength(1, 'selector must not be empty'), v.maxLength(LIMITS.maxSelectorLength))),
  pick: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMITS.maxSelectedElements))),
});

/** The element the input names: by selector, by pick number, or null for the viewport; a string says why none. */
function findTarget(ctx: ToolContext, input: v.InferOutput<typeof InputSchema>): Element | null | string {
  if (input.selector !== undefined && input.pick !== undefined) return 'Give a selector or a pick, not both';
  if (input.selector !== undefined) {
    const found = queryPage(ctx, input.selector, 1);
    if (!found.ok) return found.error;
    return found.first[0] ?? `No element matches '${input.selector}'`;
  }
  if (input.pick === undefined) return null;
  const picked = ctx.getPickedNodes?.() ?? [];
  if (input.pick > picked.length) return `The developer has ${picked.length} element(s) picked, so there is no pick ${input.pick}`;
  return picked[input.pick - 1] ?? `Pick ${input.pick} is no longer on the page`;
}

/** `take_screenshot`: a picture of the viewport or of one element, as a data URL the agent can look at. */
export const takeScreenshotTool: ToolbarTool = {
  ...TAKE_SCREENSHOT,
  async run(input, ctx): Promise<ToolOutcome> {
    const parsed = v.safeParse(InputSchema, input);
    if (!parsed.success) return toolError(describeIssues(parsed.issues).message);
    const target = findTarget(ctx, parsed.output);
    if (typeof target === 'string') return toolError(target);
    if (!ctx.takePicture) return toolError('This toolbar cannot take pictures of the page');
    try {
      const picture = await ctx.takePicture(target, SCREENSHOT_LIMITS.toolTimeoutMs);
      return {
        output: {
          image: picture.dataUrl,
          mimeType: picture.mimeType,
          width: picture.width,
          height: picture.height,
          shows: target ? { tagName: target.localName || target.tagName.toLowerCase(), selector: selectorOf(target), area: picture.area } : { viewport: picture.area },
        },
      };
    } catch (err) {
      return toolError(`No picture of the ${target ? 'element' : 'viewport'}: ${err instanceof Error ? err.message : String(err)}`);
    }
  },
};
