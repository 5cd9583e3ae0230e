/**
 * The tools the toolbar declares in `hello` and runs when the server sends `tool.run`. It holds
 * their declarations only: their code is in `page-tools.js`, loaded the first time an agent calls
 * one (lazy-tool.ts), so the bundle every page view loads does not carry it.
 */
import { PAGE_TOOL_DEFINITIONS } from '../../shared/page-tool-definitions.ts';
import type { ToolDefinition, ToolRunFrame } from '../../shared/schemas.ts';
import { lazyTool } from './lazy-tool.ts';
import { toolError, type ToolbarTool, type ToolContext, type ToolOutcome } from './tool-context.ts';

export const TOOLBAR_TOOLS: readonly ToolbarTool[] = PAGE_TOOL_DEFINITIONS.map(lazyTool);

/** The declarations sent in `hello.tools`. */
export function listToolDefinitions(tools: readonly ToolbarTool[] = TOOLBAR_TOOLS): ToolDefinition[] {
  return tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}

/**
 * Makes the `onToolRun` handler for the sync client: finds the tool, runs it, and turns any
 * failure (unknown tool, bad input, a thrown error, a cancel) into an `isError` outcome.
 *
 * @example
 * createSyncClient({ …, tools: listToolDefinitions(), onToolRun: createToolRunner(ctx) })
 */
export function createToolRunner(
  ctx: ToolContext,
  tools: readonly ToolbarTool[] = TOOLBAR_TOOLS,
): (run: Pick<ToolRunFrame, 'toolName' | 'input'>, signal: AbortSignal) => Promise<ToolOutcome> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return async (run, signal) => {
    const tool = byName.get(run.toolName);
    if (!tool) return toolError(`Unknown toolbar tool: ${run.toolName}`);
    if (signal.aborted) return toolError('Cancelled');
    try {
      return await tool.run(run.input, ctx, signal);
    } catch (err) {
      return toolError(`${run.toolName} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

export type { ToolContext, ToolOutcome, ToolbarTool } from './tool-context.ts';
