import { useMemo } from 'preact/hooks';
import { parseMarkdown } from '../markdown/parse-blocks.ts';
import { renderBlocks } from '../markdown/render-markdown.tsx';

/**
 * Markdown text as VNodes (never as HTML). Re-parsed only when the text changes, which for a
 * streaming message is once per patch of that message alone.
 */
export function Markdown({ text }: { text: string }) {
  const nodes = useMemo(() => renderBlocks(parseMarkdown(text)), [text]);
  return <div class="ab-md">{nodes}</div>;
}
