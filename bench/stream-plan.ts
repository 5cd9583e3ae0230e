/**
 * What one bench stream is: which prefix of the reply, cut how, emitted how fast. The parent sends
 * it as the user message's text (JSON), so the bench agent needs no side channel to learn it.
 */
import { makePlainText, makePlanText, makeReplyText, splitDeltas } from './reply-text.ts';

export type EmitMode =
  /** One delta every 1/paceHz s, on an absolute schedule (no drift). */
  | 'paced'
  /** As fast as possible, each delta in its own event-loop turn (setImmediate), as deltas read from a model's HTTP stream arrive. */
  | 'tick'
  /** As fast as possible, the whole rest of the reply within one turn (microtasks only). */
  | 'sync';

export interface StreamPlan {
  mode: EmitMode;
  /** Length of the whole reply the deltas are cut from. */
  textLength: number;
  deltaSize: number;
  /** How many deltas of the reply to stream (a prefix when fewer than the reply has). */
  deltas: number;
  paceHz: number;
  /**
   * Quiet time after delta 0 and after the last delta: the run's start and end frames then sit
   * outside the measured window, which holds exactly deltas 1..n-1.
   */
  gateMs: number;
  /**
   * `plain`: prose without markdown (makePlainText) for the browser bench; `plan`: one numbered
   * list with code in every item (makePlanText). Default markdown.
   */
  style?: 'markdown' | 'plain' | 'plan';
}

const cache = new Map<string, string[]>();

/** The deltas of a plan, computed once per (length, size). */
export function planDeltas(plan: Pick<StreamPlan, 'textLength' | 'deltaSize' | 'deltas' | 'style'>): string[] {
  const key = `${plan.style ?? 'markdown'}/${plan.textLength}/${plan.deltaSize}`;
  let all = cache.get(key);
  if (!all) {
    const text = plan.style === 'plain' ? makePlainText(plan.textLength) : plan.style === 'plan' ? makePlanText(plan.textLength) : makeReplyText(plan.textLength);
    all = splitDeltas(text, plan.deltaSize);
    cache.set(key, all);
  }
  return plan.deltas >= all.length ? all : all.slice(0, plan.deltas);
}

/** Reads a plan from a message text; null when the text is not one. */
export function parsePlan(text: string): StreamPlan | null {
  try {
    const raw = JSON.parse(text) as Partial<StreamPlan>;
    if (raw.mode !== 'paced' && raw.mode !== 'tick' && raw.mode !== 'sync') return null;
    for (const key of ['textLength', 'deltaSize', 'deltas', 'paceHz', 'gateMs'] as const) {
      if (typeof raw[key] !== 'number' || !Number.isFinite(raw[key]) || raw[key]! < 0) return null;
    }
    if (raw.deltaSize! < 1 || raw.deltas! < 2) return null;
    if (raw.style !== undefined && raw.style !== 'markdown' && raw.style !== 'plain' && raw.style !== 'plan') return null;
    return raw as StreamPlan;
  } catch {
    return null;
  }
}
