/**
 * What the toolbar's tools may touch: the page (read-only, except the overlay the toolbar draws in
 * its own shadow root) and the developer's current element selection. Tests pass a small fake.
 */
import type { SelectedElement } from '../../shared/schemas.ts';
import type { BrowserWindow } from '../page/browser-metadata.ts';
import type { StyleReader } from '../page/computed-styles.ts';
import type { PageLogSource } from '../page/page-log.ts';
import type { PageToolsLoad } from './page-tools-api.ts';
import type { DrawnPicture } from '../screenshot/picture-api.ts';

export interface ToolContext {
  window: BrowserWindow & { scrollX: number; scrollY: number };
  document: Pick<Document, 'querySelectorAll'>;
  /** True for the toolbar's own host element and anything inside it: tools never report those. */
  isOwnNode(node: Element): boolean;
  getSelectedElements(): SelectedElement[];
  /** Outlines `el` for `durationMs` with an overlay inside the toolbar's shadow root. */
  highlight(el: Element, label: string, durationMs: number): void;
  /** The picked elements still on the page, in pick order (null for one that left it). */
  getPickedNodes?(): (Element | null)[];
  /** A picture of `target` with a margin, or of the viewport for null, without the toolbar in it. */
  takePicture?(target: Element | null, timeoutMs: number): Promise<DrawnPicture>;
  /** Where what the page said so far (console, errors, failed requests) is recorded. */
  pageLog?: PageLogSource;
  /** The element's computed style (`getComputedStyle`). */
  getComputedStyle?(el: Element): StyleReader;
  /** The tools' code, `page-tools.js` (lazy-tool.ts), loaded the first time one is called. */
  loadPageTools?(): Promise<PageToolsLoad>;
}

export interface ToolOutcome {
  output: unknown;
  isError?: boolean;
}

export interface ToolbarTool {
  name: string;
  description: string;
  /** JSON Schema declared in `hello`. */
  inputSchema: Record<string, unknown>;
  run(input: Record<string, unknown>, ctx: ToolContext, signal: AbortSignal): ToolOutcome | Promise<ToolOutcome>;
}

/** Builds the error outcome every tool returns for bad input or a failed lookup. */
export function toolError(message: string): ToolOutcome {
  return { output: { error: message }, isError: true };
}
