import type { Plugin } from 'vite';

export interface AgentbarPluginOptions {
  /** The agentbar data directory (default `$AGENTBAR_DATA_DIR` or `~/.agentbar`). */
  dataDir?: string;
  /** The connection file itself, if it lives elsewhere. */
  connectionFile?: string;
  /**
   * Mark each element a project file writes with `data-agentbar-source` and
   * `data-agentbar-component`, so a picked element tells the agent its component and line
   * (default `true`; dev server only).
   */
  sourceAttributes?: boolean;
}
export interface AgentbarConnection {
  url: string;
  http: string;
  token: string;
}
export function connectionFilePath(dataDir?: string): string;
export function readConnection(file: string): { ok: true; connection: AgentbarConnection } | { ok: false; reason: string };
export function readCaptureScript(file?: string | URL): string | null;
export function placeCaptureScript(html: string, script: string): string | null;
export function renderTags(connection: AgentbarConnection): { tag: string; attrs?: Record<string, string | boolean>; children?: string; injectTo: 'body' }[];
/** Injects the agentbar toolbar into the Vite dev server's pages. */
export default function agentbar(options?: AgentbarPluginOptions): Plugin;
