/**
 * Section 10 (key `markdown`): what the toolbar's Markdown rendering costs while a reply streams.
 * The bench's 50,000-character reply (bench/reply-text.ts: prose, lists, headings, code) arrives in
 * 4-character deltas; each delta is rendered by the toolbar's incremental renderer (only the open
 * tail is lexed again), and, for comparison, a sample of deltas is rendered by lexing the whole
 * text so far (scaled to every delta). The same for a reply that is one paragraph of prose (the
 * browser bench's), where the open tail is the whole text: appended prose is not lexed at all
 * (toolbar/markdown/plain-append.ts). The same for one long numbered list, lexed again from its last
 * item only (toolbar/markdown/list-resume.ts). And a long TypeScript code block streaming in: in its fence,
 * where appended code is not lexed either (toolbar/markdown/open-fence.ts), and highlighted as it
 * grows (only its end tokenized again) against highlighted whole on every delta. CPU time in this
 * process; no DOM.
 */
import { registerGrammar } from '../toolbar/markdown/grammar-loader.ts';
import { GRAMMAR_SOURCES } from '../toolbar/markdown/grammar-sources.ts';
import { highlight, highlightGrowing, MAX_HIGHLIGHT_CHARS, type HighlightRun } from '../toolbar/markdown/highlight.ts';
import { createMarkdownRenderer } from '../toolbar/markdown/incremental-markdown.ts';
import { lexMarkdown } from '../toolbar/markdown/lex-markdown.ts';
import { renderTokens } from '../toolbar/markdown/render-tokens.tsx';
import type { BenchConfig } from './config.ts';
import { joinParts, makePlainText, makePlanText, makeReplyText } from './reply-text.ts';
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
  /** The code block of `code`, in an open fence, rendered as Markdown (not highlighted). */
  fence: StreamCost;
  /** One long numbered list, a paragraph and a code block in each item. */
  list: StreamCost;
  /** A code block streaming in, highlighted. */
  code: HighlightCost;
  /** An HTML block of about the same length, highlighted (markup keeps a state: inside a tag or not). */
  markup: HighlightCost;
}

export interface HighlightCost {
  chars: number;
  deltas: number;
  /** Highlighted as it grows (the toolbar's CodeBlock). */
  growingMs: number;
  /** Highlighted whole on every delta (sampled, scaled). */
  wholeMs: number;
}

/** What issue 12 measured for the hand-written renderer this one replaced, on this machine. */
const PREVIOUS_RENDERER_MS = 1_100;

export function measureMarkdown(config: BenchConfig, progress: (what: string) => void): MarkdownCost {
  const reply = measureStream(makeReplyText(config.textLength), 'markdown', config, progress);
  const code = makeCode(MAX_HIGHLIGHT_CHARS - 1_000);
  return {
    ...reply,
    prose: measureStream(makePlainText(config.textLength), 'prose', config, progress),
    fence: measureStream('```ts\n' + code, 'code in a fence', config, progress),
    list: measureStream(makePlanText(10_000), 'one long list', config, progress),
    code: measureHighlight(code, 'ts', config, progress),
    markup: measureHighlight(makeMarkup(code.length), 'html', config, progress),
  };
}

/** TypeScript of about `length` characters: keywords, strings, numbers, comments on every line. */
function makeCode(length: number): string {
  return joinParts(length, '\n', (i) => `  const value${i} = await load("items/${i}", { limit: ${i * 3}, strict: ${i % 2 === 0} }); // step ${i}`).slice(0, length);
}

/** HTML of about `length` characters: tags, attributes, quoted values, text and comments. */
function makeMarkup(length: number): string {
  return joinParts(length, '\n', (i) => `  <li class="item-${i}" data-n='${i}'><a href="/items/${i}">Item ${i}</a> <!-- n ${i} --></li>`).slice(0, length);
}

function measureHighlight(code: string, lang: 'ts' | 'html', config: BenchConfig, progress: (what: string) => void): HighlightCost {
  registerGrammar('js', GRAMMAR_SOURCES.js);
  const timed = timeGrowingText(code, config, {
    incremental: () => {
      let run: HighlightRun | null = null;
      return (prefix) => {
        run = highlightGrowing(run, prefix, lang);
      };
    },
    whole: (prefix) => highlight(prefix, lang),
    sampleEvery: config.smoke ? 200 : 50,
    progress: (what) => progress(`${lang} code block: ${what}`),
    names: ['highlighted as it grows', 'highlighted whole per delta (sampled)'],
  });
  return { chars: code.length, deltas: timed.deltas, growingMs: timed.incrementalMs, wholeMs: timed.wholeMs };
}

function measureStream(text: string, name: string, config: BenchConfig, progress: (what: string) => void): StreamCost {
  const timed = timeGrowingText(text, config, {
    incremental: () => {
      const md = createMarkdownRenderer();
      return (prefix) => md.render(prefix);
    },
    whole: (prefix) => renderTokens(lexMarkdown(prefix)),
    sampleEvery: config.smoke ? 400 : 100,
    progress: (what) => progress(`${name}: ${what}`),
    names: ['incremental', 'the whole text lexed again per delta (sampled)'],
  });
  return { chars: text.length, ...timed, perDeltaUs: Math.round((timed.incrementalMs / timed.deltas) * 1000) };
}

/**
 * CPU time for `text` arriving in deltas of `config.deltaSize`: `incremental()` makes a renderer
 * fed every prefix in turn (best of two passes: JIT state should not decide the figure), and
 * `whole` is run on a sample of prefixes and scaled to every delta.
 */
function timeGrowingText(
  text: string,
  config: BenchConfig,
  how: {
    incremental: () => (prefix: string) => unknown;
    whole: (prefix: string) => unknown;
    sampleEvery: number;
    progress: (what: string) => void;
    names: [incremental: string, whole: string];
  },
): { deltas: number; incrementalMs: number; wholeMs: number } {
  const step = config.deltaSize;
  const deltas = Math.ceil(text.length / step);
  how.progress(`${text.length} characters in ${deltas} deltas, ${how.names[0]}`);
  let best = Infinity;
  for (let round = 0; round < 2; round++) {
    const render = how.incremental();
    const started = performance.now();
    for (let end = step; ; end = Math.min(end + step, text.length)) {
      render(text.slice(0, end));
      if (end === text.length) break;
    }
    best = Math.min(best, performance.now() - started);
  }
  how.progress(how.names[1]);
  let sampled = 0;
  const started = performance.now();
  for (let end = step; end < text.length; end += step * how.sampleEvery) {
    how.whole(text.slice(0, end));
    sampled++;
  }
  const wholeMs = ((performance.now() - started) / sampled) * deltas;
  return { deltas, incrementalMs: Math.round(best), wholeMs: Math.round(wholeMs) };
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
      [`a ${m.list.chars.toLocaleString('en')}-character numbered list, code in every item: incremental (only its last item lexed and rendered again)`, m.list.incrementalMs, m.list.perDeltaUs, '', ''],
      ['the same list: lexed again per delta (sampled, scaled)', m.list.wholeMs, Math.round((m.list.wholeMs / m.list.deltas) * 1000), '', ''],
      [`a ${m.code.chars.toLocaleString('en')}-character code block in an open fence: incremental (appended code not lexed)`, m.fence.incrementalMs, m.fence.perDeltaUs, '', ''],
      ['the same fence: lexed again per delta (sampled, scaled)', m.fence.wholeMs, Math.round((m.fence.wholeMs / m.fence.deltas) * 1000), '', ''],
      [`the same code block: highlighted as it grows`, m.code.growingMs, Math.round((m.code.growingMs / m.code.deltas) * 1000), '', ''],
      ['the same code block: highlighted whole per delta (sampled, scaled)', m.code.wholeMs, Math.round((m.code.wholeMs / m.code.deltas) * 1000), '', ''],
      [`a ${m.markup.chars.toLocaleString('en')}-character HTML block: highlighted as it grows`, m.markup.growingMs, Math.round((m.markup.growingMs / m.markup.deltas) * 1000), '', ''],
      ['the same HTML block: highlighted whole per delta (sampled, scaled)', m.markup.wholeMs, Math.round((m.markup.wholeMs / m.markup.deltas) * 1000), '', ''],
    ],
    notes: [
      'marked\'s lexer (CommonMark 0.31.2 + GFM) into Preact VNodes, CPU in the bench process, no DOM. The best of two passes.',
      `Target: no more than the hand-written renderer it replaced (about ${PREVIOUS_RENDERER_MS.toLocaleString('en')} ms for this workload on this machine; single passes of both measured 1.8-2.4 s while the machine was busy). The whole-text row shows what the incremental split saves. A reply that is one long paragraph has nothing settled: its open tail is the whole text, which the prose rows show.`,
      'A list does not settle until a block after it starts: the list rows stream one long plan (a paragraph and a code block in every item), where the renderer lexes the list again from its last item only (toolbar/markdown/list-resume.ts) and keeps the VNodes of the items before it.',
      'The fence rows render the code block as Markdown (VNodes, not highlighted): while no line of it starts like a fence, appended code extends the block without lexing it again.',
      `The highlighted rows are the highlighter alone (toolbar/markdown/highlight.ts), on a TypeScript block, and an HTML one, just under the ${MAX_HIGHLIGHT_CHARS.toLocaleString('en')} characters past which code shows plain; the toolbar highlights a streaming block as it grows, tokenizing only its end again (markup from where its last kept piece left it, inside a tag or not).`,
    ],
    data: m,
  };
}
