import * as v from 'valibot';
import { describeIssues } from '../../shared/errors.ts';
import { GET_COMPUTED_STYLES } from '../../shared/page-tool-definitions.ts';
import { summarizeStyles } from '../page/computed-styles.ts';
import { rectOf, selectorOf } from '../page/describe-element.ts';
import { findElement, PickInput, SelectorInput } from './find-element.ts';
import { toolError, type ToolbarTool } from './tool-context.ts';

const InputSchema = v.object({ selector: SelectorInput, pick: PickInput });

/** `get_computed_styles`: how one element is laid out and looks, with its box on screen. */
export const getComputedStylesTool: ToolbarTool = {
  ...GET_COMPUTED_STYLES,
  run(input, ctx) {
    const parsed = v.safeParse(InputSchema, input);
    if (!parsed.success) return toolError(describeIssues(parsed.issues).message);
    const found = findElement(ctx, parsed.output);
    if (!found.ok) return toolError(found.error);
    if (!ctx.getComputedStyle) return toolError('This toolbar cannot read computed styles');
    const el = found.element;
    const parent = el.parentElement;
    return {
      output: {
        element: { tagName: el.localName || el.tagName.toLowerCase(), selector: selectorOf(el), box: rectOf(el) },
        ...(found.matchCount !== null ? { matchCount: found.matchCount } : {}),
        styles: summarizeStyles(ctx.getComputedStyle(el), parent ? ctx.getComputedStyle(parent) : null),
      },
    };
  },
};
