/**
 * What `page-tools.js` hands the toolbar: one function that runs the tools whose code is loaded
 * the first time an agent calls one (page-tools.ts). The symbol and the types only, so the
 * toolbar's bundle holds none of their code.
 */
import type { ToolContext, ToolOutcome } from './tool-context.ts';

/** Where the script finds the toolbar's register function on `window`. */
export const PAGE_TOOLS_REGISTER = Symbol.for('agentbar.pageTools');

/** Runs the page tool named `name`, as `ToolbarTool.run` does. */
export type RunPageTool = (name: string, input: Record<string, unknown>, ctx: ToolContext, signal: AbortSignal) => ToolOutcome | Promise<ToolOutcome>;

/** The code of the tools `page-tools.js` brings, or why it could not be loaded, in words for the agent. */
export type PageToolsLoad = { ok: true; run: RunPageTool } | { ok: false; error: string };
