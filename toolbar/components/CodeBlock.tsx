import type { VNode } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { grammarSource, loadGrammar } from '../markdown/grammar-loader.ts';
import { languageOf } from '../markdown/grammar-names.ts';
import { highlightGrowing, type HighlightPiece, type HighlightRun } from '../markdown/highlight.ts';
import { CheckIcon, CopyIcon } from './icons.tsx';

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

/** Highlighted pieces per rendered chunk. */
const CHUNK = 64;

/**
 * The highlighted code as chunks of pieces, each chunk one VNode. While the block streams, the
 * highlighter keeps the pieces before the end (`kept`), and the chunks made only of those are the
 * same VNodes as in the last render, which Preact skips: an append renders the last chunk or two,
 * not every piece of a long block.
 */
function useHighlightedChunks(text: string, lang: string, ready: boolean): VNode[] | null {
  const run = useRef<HighlightRun | null>(null);
  const chunks = useRef<VNode[]>([]);
  return useMemo(() => {
    run.current = ready ? highlightGrowing(run.current, text, lang) : null;
    const current = run.current;
    if (!current) {
      chunks.current = [];
      return null;
    }
    const { pieces, kept } = current;
    const reused = Math.min(chunks.current.length, Math.floor(kept / CHUNK));
    const next = chunks.current.slice(0, reused);
    for (let start = reused * CHUNK; start < pieces.length; start += CHUNK) next.push(renderChunk(pieces, start));
    chunks.current = next;
    return next;
  }, [text, lang, ready]);
}

function renderChunk(pieces: readonly HighlightPiece[], start: number): VNode {
  const out: (VNode | string)[] = [];
  const end = Math.min(start + CHUNK, pieces.length);
  for (let i = start; i < end; i++) {
    const p = pieces[i]!;
    out.push(p.kind ? <span key={i} class={`ab-hl-${p.kind}`}>{p.text}</span> : p.text);
  }
  return <span key={start}>{out}</span>;
}

/** A fenced code block with its language, highlighted when the language is known; copy and wrap buttons. */
export function CodeBlock({ lang, text }: { lang: string; text: string }) {
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  const [wrap, setWrap] = useState(false);
  const ready = useGrammarReady(lang);
  const chunks = useHighlightedChunks(text, lang, ready);

  useEffect(() => {
    if (copied === 'idle') return;
    const timer = setTimeout(() => setCopied('idle'), 1500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    const clipboard = globalThis.navigator?.clipboard;
    if (!clipboard) {
      setCopied('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => setCopied('done'),
      () => setCopied('failed'),
    );
  };

  return (
    <div class="ab-code">
      <div class="ab-code-head">
        <span>{lang || 'text'}</span>
        <span class="ab-spacer" />
        <button type="button" class="ab-icon-btn" aria-pressed={wrap} title={wrap ? 'Do not wrap long lines' : 'Wrap long lines'} onClick={() => setWrap(!wrap)}>
          <span>Wrap</span>
        </button>
        <button type="button" class="ab-icon-btn" aria-label="Copy code" onClick={copy}>
          {copied === 'done' ? <CheckIcon size={12} /> : <CopyIcon size={12} />}
          <span aria-live="polite">{copied === 'done' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}</span>
        </button>
      </div>
      {/* Focusable, so keyboard users can scroll a long or wide block (axe: scrollable-region-focusable). */}
      <pre tabIndex={0} aria-label={`${lang || 'Text'} code`} class={wrap ? 'ab-wrap' : undefined}>
        <code>{chunks ?? text}</code>
      </pre>
    </div>
  );
}
