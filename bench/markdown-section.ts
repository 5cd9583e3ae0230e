/**
 * Section 10 (key `markdown`): what the toolbar's Markdown rendering costs while a reply streams.
 * The bench's 50,000-character reply (bench/reply-text.ts: prose, lists, headings, code) arrives in
 * 4-character deltas; each delta is rendered by the toolbar's incremental renderer (only the open
 * tail is lexed again), and, for comparison, a sample of deltas is rendered by lexing the whole
 * text so far (scaled to every delta). The same for a reply that is one paragraph of prose (the
 * browser bench's), where the open tail is the whole text: appended prose is not lexed at all
 * (toolbar/markdown/plain-append.ts). CPU time in this process; no DOM.
 */
import { createMarkdownRenderer } from '../toolbar/markdown/incremental-markdown.ts';
import { lexMarkdown } from '../toolbar/markdown/lex-markdown.ts';
import { renderTokens } from '../toolbar/markdown/render-tokens.tsx';
import type { BenchConfig } from './config.ts';
import { makePlainText, makeReplyText } from './reply-text.ts';
import { atMost, judge, type Section } from './report.ts';

export interface StreamCost {
  chars: number;
  deltas: number;
  incrementalMs: number;
  perDeltaUs: number;
  wholeMs: number;
}

export interface MarkdownCost extends StreamCost {
  /** The same stream of one paragraph of prose. */
  prose: StreamCost;
}

/** What issue 12 measured for the hand-written renderer this one replaced, on this machine. */
const PREVIOUS_RENDERER_MS = 1_100;

export function measureMarkdown(config: BenchConfig, progress: (what: string) => void): MarkdownCost {
  const reply = measureStream(makeReplyText(config.textLength), 'markdown', config, progress);
  return { ...reply, prose: measureStream(makePlainText(config.textLength), 'prose', config, progress) };
}

function measureStream(text: string, name: string, config: BenchConfig, progress: (what: string) => void): StreamCost {
  const step = config.deltaSize;
  const deltas = Math.ceil(text.length / step);
  progress(`${name}: ${text.length} characters in ${deltas} deltas, incremental`);
  // One warm-up pass, then the measured one: JIT state should not decide the figure.
  let best = Infinity;
  for (let round = 0; round < 2; round++) {
    const md = createMarkdownRenderer();
    const started = performance.now();
    for (let end = step; ; end = Math.min(end + step, text.length)) {
      md.render(text.slice(0, end));
      if (end === text.length) break;
    }
    best = Math.min(best, performance.now() - started);
  }
  progress(`${name}: the whole text lexed again per delta (sampled)`);
  const sampleEvery = config.smoke ? 400 : 100;
  let sampled = 0;
  const started = performance.now();
  for (let end = step; end < text.length; end += step * sampleEvery) {
    renderTokens(lexMarkdown(text.slice(0, end)));
    sampled++;
  }
  const wholeMs = ((performance.now() - started) / sampled) * deltas;
  return { chars: text.length, deltas, incrementalMs: Math.round(best), perDeltaUs: Math.round((best / deltas) * 1000), wholeMs: Math.round(wholeMs) };
}

export function markdownSection(m: MarkdownCost): Section {
  const target = atMost(PREVIOUS_RENDERER_MS, ' ms');
  return {
    key: 'markdown',
    title: `10. Markdown while a reply streams (${m.chars.toLocaleString('en')} characters, ${m.deltas.toLocaleString('en')} deltas)`,
    columns: ['renderer', 'total ms', 'per delta µs', 'target', ''],
    rows: [
      ['incremental (the toolbar: only the open tail lexed again)', m.incrementalMs, m.perDeltaUs, `${target.text}`, judge(m.incrementalMs, target)],
      ['the whole text lexed again per delta (sampled, scaled)', m.wholeMs, Math.round((m.wholeMs / m.deltas) * 1000), '', ''],
      ['one paragraph of prose: incremental (appended prose not lexed)', m.prose.incrementalMs, m.prose.perDeltaUs, '', ''],
      ['one paragraph of prose: lexed again per delta (sampled, scaled)', m.prose.wholeMs, Math.round((m.prose.wholeMs / m.prose.deltas) * 1000), '', ''],
    ],
    notes: [
      'marked\'s lexer (CommonMark 0.31.2 + GFM) into Preact VNodes, CPU in the bench process, no DOM. The best of two passes.',
      `Target: no more than the hand-written renderer it replaced (about ${PREVIOUS_RENDERER_MS.toLocaleString('en')} ms for this workload on this machine; single passes of both measured 1.8-2.4 s while the machine was busy). The whole-text row shows what the incremental split saves. A reply that is one long paragraph has nothing settled: its open tail is the whole text, which the prose rows show.`,
    ],
    data: m,
  };
}
