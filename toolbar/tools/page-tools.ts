/**
 * The page tools' code, which the toolbar does not need until an agent calls one. Built into
 * `dist/page-tools.js` (page-tools-entry.ts), which the toolbar loads on first use; the toolbar
 * itself holds only their declarations (lazy-tool.ts).
 */
import { getAccessibilityTreeTool } from './get-accessibility-tree.ts';
import { getComputedStylesTool } from './get-computed-styles.ts';
import { getConsoleMessagesTool } from './get-console-messages.ts';
import { getNetworkFailuresTool } from './get-network-failures.ts';
import { getPageErrorsTool } from './get-page-errors.ts';
import { getPageInfoTool } from './get-page-info.ts';
import { getSelectedElementsTool } from './get-selected-elements.ts';
import { highlightElementTool } from './highlight-element.ts';
import type { RunPageTool } from './page-tools-api.ts';
import { querySelectorTool } from './query-selector.ts';
import { takeScreenshotTool } from './take-screenshot.ts';
import { toolError, type ToolbarTool } from './tool-context.ts';

export const PAGE_TOOLS: readonly ToolbarTool[] = [
  getPageInfoTool,
  getSelectedElementsTool,
  querySelectorTool,
  highlightElementTool,
  takeScreenshotTool,
  getConsoleMessagesTool,
  getPageErrorsTool,
  getNetworkFailuresTool,
  getAccessibilityTreeTool,
  getComputedStylesTool,
];

/**
 * Runs one of PAGE_TOOLS; a name it does not know comes only from a toolbar.js of another version
 * than this page-tools.js (a stale cache), and gets an error outcome.
 *
 * @example await runPageTool('get_accessibility_tree', { maxNodes: 50 }, ctx, signal)
 */
export const runPageTool: RunPageTool = (name, input, ctx, signal) => {
  const tool = PAGE_TOOLS.find((t) => t.name === name);
  return tool ? tool.run(input, ctx, signal) : toolError(`This page's agentbar tools have no ${name}: reload the page`);
};
