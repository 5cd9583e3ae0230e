import { useMemo, useRef } from 'preact/hooks';
import { createMarkdownRenderer, type MarkdownRenderer } from '../markdown/incremental-markdown.ts';

/**
 * Markdown text as VNodes (never as HTML). A streaming message grows by appends: only its open
 * tail is parsed again per patch, the blocks before it keep their parsed VNodes.
 *
 * The settled blocks go in one element, the same VNode until another block settles: Preact skips
 * it whole on every streamed patch, and the browser keeps its paint (`.ab-md-settled` is its own
 * paint layer) while the tail under it changes, instead of walking every block again each frame.
 */
export function Markdown({ text }: { text: string }) {
  const renderer = useRef<MarkdownRenderer | null>(null);
  renderer.current ??= createMarkdownRenderer();
  const md = renderer.current;
  const { settled, tail } = useMemo(() => md.renderParts(text), [md, text]);
  // `settled` only grows in place (a new array after an edit), so its length says when it changed.
  const count = settled.length;
  const block = useMemo(
    () => (count > 0 ? <div key="settled" class="ab-md-settled">{settled.slice()}</div> : null),
    [settled, count],
  );
  return (
    <div class="ab-md">
      {block}
      {tail}
    </div>
  );
}
