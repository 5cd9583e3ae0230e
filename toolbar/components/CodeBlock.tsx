import type { VNode } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { grammarSource, loadGrammar } from '../markdown/grammar-loader.ts';
import { languageOf } from '../markdown/grammar-names.ts';
import { groupLines, splitPlainLines, type LineRun, type PlainLines } from '../markdown/code-lines.ts';
import { highlightGrowing, type HighlightPiece, type HighlightRun } from '../markdown/highlight.ts';
import { CheckIcon, CopyIcon } from './icons.tsx';
import { useCopy } from './use-copy.ts';

/**
 * Whether the language's grammar is there, asking for it the first time: the block shows plain
 * until it arrives, then renders again highlighted (and stays plain if it cannot be loaded).
 */
function useGrammarReady(lang: string): boolean {
  const language = languageOf(lang);
  const ready = language === 'markup' || (language !== null && grammarSource(language) !== undefined);
  const [, setArrived] = useState(false);
  useEffect(() => {
    if (ready || language === null) return;
    let live = true;
    void loadGrammar(language).then((ok) => {
      if (live && ok) setArrived(true);
    });
    return () => {
      live = false;
    };
  }, [language, ready]);
  return ready;
}

/**
 * The code as runs of whole lines (code-lines.ts), each run one block. While the block streams,
 * the highlighter keeps the pieces before the end (`kept`), and the runs made only of those are
 * the same VNodes as in the last render: Preact skips them, and the browser keeps their layout
 * and paint. Plain code (no grammar yet, none at all, or too long) goes by lines the same way.
 */
function useCodeRuns(text: string, lang: string, ready: boolean): VNode[] {
  const highlighted = useRef<HighlightRun | null>(null);
  const plain = useRef<PlainLines | null>(null);
  const runs = useRef<{ runs: LineRun[]; nodes: VNode[] }>({ runs: [], nodes: [] });
  return useMemo(() => {
    highlighted.current = ready ? highlightGrowing(highlighted.current, text, lang) : null;
    let source: { pieces: HighlightPiece[]; kept: number };
    if (highlighted.current) {
      // From plain to highlighted (the grammar arrived) or back: nothing carries over.
      if (plain.current) runs.current = { runs: [], nodes: [] };
      plain.current = null;
      source = highlighted.current;
    } else {
      if (!plain.current) runs.current = { runs: [], nodes: [] };
      plain.current = splitPlainLines(plain.current, text);
      source = plain.current;
    }
    const { runs: next, reused } = groupLines(runs.current.runs, source.pieces, source.kept);
    const nodes = runs.current.nodes.slice(0, reused);
    for (let i = reused; i < next.length; i++) nodes.push(renderRun(next[i]!, i));
    runs.current = { runs: next, nodes };
    return nodes;
  }, [text, lang, ready]);
}

function renderRun(run: LineRun, key: number): VNode {
  return (
    <span key={key} class="ab-code-lines">
      {run.pieces.map((p, i) => (p.kind ? <span key={i} class={`ab-hl-${p.kind}`}>{p.text}</span> : p.text))}
    </span>
  );
}

/** A fenced code block with its language, highlighted when the language is known; copy and wrap buttons. */
export function CodeBlock({ lang, text }: { lang: string; text: string }) {
  const [copied, copy] = useCopy();
  const [wrap, setWrap] = useState(false);
  const ready = useGrammarReady(lang);
  const runs = useCodeRuns(text, lang, ready);

  return (
    <div class="ab-code">
      <div class="ab-code-head">
        <span>{lang || 'text'}</span>
        <span class="ab-spacer" />
        <button type="button" class="ab-icon-btn" aria-pressed={wrap} title={wrap ? 'Do not wrap long lines' : 'Wrap long lines'} onClick={() => setWrap(!wrap)}>
          <span>Wrap</span>
        </button>
        <button type="button" class="ab-icon-btn" aria-label="Copy code" onClick={(e) => copy(text, e.currentTarget)}>
          {copied === 'done' ? <CheckIcon size={12} /> : <CopyIcon size={12} />}
          <span aria-live="polite">{copied === 'done' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}</span>
        </button>
      </div>
      {/* Focusable, so keyboard users can scroll a long or wide block (axe: scrollable-region-focusable). */}
      <pre tabIndex={0} aria-label={`${lang || 'Text'} code`} class={wrap ? 'ab-wrap' : undefined}>
        <code>{runs}</code>
      </pre>
    </div>
  );
}
