/**
 * Renders a Markdown text that grows by appends (a streaming message) without re-parsing it
 * whole on every append: settled blocks (see `settle-blocks.ts`) are parsed and turned into
 * VNodes once and their VNodes reused; only the open tail is parsed again. Reused VNodes also let
 * Preact skip diffing those blocks. The output equals `renderBlocks(parseMarkdown(text))`.
 */
import type { VNode } from 'preact';
import { renderBlocksFrom } from './render-markdown.tsx';
import { splitSettled } from './settle-blocks.ts';

export interface MarkdownRenderer {
  /** VNodes for `text`; cheap when `text` extends the text of the previous call. */
  render(text: string): VNode[];
}

/**
 * A renderer for one text that streams in. Keep one per rendered text (its cache holds VNodes
 * that may be mounted once only).
 *
 * @example
 * const md = createMarkdownRenderer();
 * md.render('# Title\n\nfirst par'); // parses it all
 * md.render('# Title\n\nfirst paragraph\n\n'); // parses from 'first paragraph' on
 */
export function createMarkdownRenderer(): MarkdownRenderer {
  /** Source of the settled blocks: always a prefix of the last text rendered. */
  let settledSource = '';
  let settledNodes: VNode[] = [];

  return {
    render(text) {
      // Anything but an append (an edit, another text) starts over.
      if (!text.startsWith(settledSource)) {
        settledSource = '';
        settledNodes = [];
      }
      const split = splitSettled(settledSource.length === 0 ? text : text.slice(settledSource.length));
      if (split.settled.length > 0) {
        for (const node of renderBlocksFrom(split.settled, settledNodes.length)) settledNodes.push(node);
        settledSource = text.slice(0, settledSource.length + split.settledLength);
      }
      return settledNodes.concat(renderBlocksFrom(split.tail, settledNodes.length));
    },
  };
}
