/**
 * A tool the toolbar declares from the start but whose code comes with `page-tools.js`, loaded the
 * first time an agent calls one of them (`ToolContext.loadPageTools`), so the toolbar's bundle,
 * which every page view loads, does not carry it. The call waits for the code; a load that fails
 * answers the call with what the page must allow.
 */
import type { ToolDefinition } from '../../shared/schemas.ts';
import { toolError, type ToolbarTool } from './tool-context.ts';

/**
 * The tool declared by `definition`, run by its namesake in `page-tools.js`.
 *
 * @example const TOOLS = [GET_PAGE_INFO, GET_ACCESSIBILITY_TREE].map(lazyTool);
 */
export function lazyTool(definition: ToolDefinition): ToolbarTool {
  return {
    ...definition,
    async run(input, ctx, signal) {
      if (!ctx.loadPageTools) return toolError(`This toolbar cannot run ${definition.name}`);
      const loaded = await ctx.loadPageTools();
      if (!loaded.ok) return toolError(`${definition.name} is not available on this page: ${loaded.error}`);
      if (signal.aborted) return toolError('Cancelled');
      return loaded.run(definition.name, input, ctx, signal);
    },
  };
}
