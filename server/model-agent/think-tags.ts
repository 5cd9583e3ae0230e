/**
 * Reasoning written into the answer between `<think>` and `</think>`, as DeepSeek-R1, QwQ, Qwen3
 * and other open models do when the server in front of them (llama.cpp, LM Studio, vLLM without a
 * reasoning parser, older Ollama) passes their output through as plain text. Left alone, the
 * toolbar would show the whole chain of thought, tags and all, as the reply.
 *
 * Only a `<think>` that opens the answer counts (whitespace before it aside): that is where these
 * models put it, and a reply that mentions the tag later, in prose or code, stays as written.
 */

export interface ThinkPiece {
  kind: 'text' | 'reasoning';
  text: string;
}

export interface ThinkSplitter {
  /** The pieces of `delta` that are known now; a possible tag's start waits for the next delta. */
  push(delta: string): ThinkPiece[];
  /** What is still held back, once the answer has ended. */
  end(): ThinkPiece[];
}

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * One splitter per model response (a tool round starts a new one).
 *
 * @example
 * const split = createThinkSplitter();
 * split.push('<think>Plan'); // [{ kind: 'reasoning', text: 'Plan' }]
 * split.push('</think>\n\nDone.'); // [{ kind: 'text', text: 'Done.' }]
 */
export function createThinkSplitter(): ThinkSplitter {
  // before: nothing but whitespace yet; thinking: inside the tag; after: the answer (no more tags);
  // answering: right after </think>, where the blank lines before the answer are dropped.
  let phase: 'before' | 'thinking' | 'answering' | 'after' = 'before';
  let held = '';

  function push(delta: string): ThinkPiece[] {
    held += delta;
    const out: ThinkPiece[] = [];
    for (;;) {
      if (phase === 'before') {
        const start = held.trimStart();
        if (start === '') return out; // only whitespace so far: it may precede the tag
        if (start.startsWith(OPEN)) {
          held = start.slice(OPEN.length);
          phase = 'thinking';
          continue;
        }
        if (OPEN.startsWith(start)) return out; // `<thi`: wait for the rest
        phase = 'after';
        continue;
      }
      if (phase === 'thinking') {
        const close = held.indexOf(CLOSE);
        if (close >= 0) {
          emit(out, 'reasoning', held.slice(0, close));
          held = held.slice(close + CLOSE.length);
          phase = 'answering';
          continue;
        }
        const keep = partialSuffix(held, CLOSE);
        emit(out, 'reasoning', held.slice(0, held.length - keep));
        held = held.slice(held.length - keep);
        return out;
      }
      if (phase === 'answering') {
        held = held.trimStart();
        if (held === '') return out;
        phase = 'after';
        continue;
      }
      emit(out, 'text', held);
      held = '';
      return out;
    }
  }

  function end(): ThinkPiece[] {
    const out: ThinkPiece[] = [];
    // A model cut off mid-thought keeps its thought as reasoning; anything else held is text.
    if (phase === 'thinking') emit(out, 'reasoning', held);
    else if (phase === 'before' && held.trim() !== '') emit(out, 'text', held);
    held = '';
    return out;
  }

  return { push, end };
}

function emit(out: ThinkPiece[], kind: ThinkPiece['kind'], text: string): void {
  if (text) out.push({ kind, text });
}

/** How many characters at the end of `text` could begin `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
