import * as v from 'valibot';
import { describeIssues } from '../../shared/errors.ts';
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { GET_ACCESSIBILITY_TREE } from '../../shared/page-tool-definitions.ts';
import { buildAccessibilityTree } from '../page/accessibility-tree.ts';
import { findElement, SelectorInput } from './find-element.ts';
import { toolError, type ToolbarTool } from './tool-context.ts';

const InputSchema = v.object({
  selector: SelectorInput,
  maxNodes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(PAGE_TOOL_LIMITS.treeNodes))),
});

/** `get_accessibility_tree`: roles, names and states of the page or one part of it. */
export const getAccessibilityTreeTool: ToolbarTool = {
  ...GET_ACCESSIBILITY_TREE,
  run(input, ctx) {
    const parsed = v.safeParse(InputSchema, input);
    if (!parsed.success) return toolError(describeIssues(parsed.issues).message);
    const { selector, maxNodes = PAGE_TOOL_LIMITS.treeNodesDefault } = parsed.output;
    const getStyle = ctx.getComputedStyle;
    const options = { isOwnNode: ctx.isOwnNode, styleOf: (el: Element) => (getStyle ? getStyle(el) : null), maxNodes };
    if (selector === undefined) {
      const body = ctx.document.querySelectorAll('body')[0];
      if (!body) return toolError('The page has no body');
      const { tree, nodes, truncated } = buildAccessibilityTree(body, options, ctx.window.document.title ?? '');
      return { output: { root: 'document', nodes, truncated, tree } };
    }
    const found = findElement(ctx, { selector });
    if (!found.ok) return toolError(found.error);
    const { tree, nodes, truncated } = buildAccessibilityTree(found.element, options);
    return { output: { root: selector, matchCount: found.matchCount, nodes, truncated, tree } };
  },
};
