import { useMemo, useRef } from 'preact/hooks';
import { createMarkdownRenderer, type MarkdownRenderer } from '../markdown/incremental-markdown.ts';

/**
 * Markdown text as VNodes (never as HTML). A streaming message grows by appends: only its open
 * tail is parsed again per patch, the blocks before it keep their parsed VNodes.
 */
export function Markdown({ text }: { text: string }) {
  const renderer = useRef<MarkdownRenderer | null>(null);
  renderer.current ??= createMarkdownRenderer();
  const md = renderer.current;
  const nodes = useMemo(() => md.render(text), [md, text]);
  return <div class="ab-md">{nodes}</div>;
}
