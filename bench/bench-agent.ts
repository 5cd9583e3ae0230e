/**
 * The bench agent, written with the public SDK: it streams the plan it is sent with
 * `ctx.reply.text(asyncIterable)` and records, per delta index, the time it handed the delta over.
 */
import { defineAgent, type AgentDefinition } from '../server/sdk/agent.ts';
import { nowMs } from './clock.ts';
import { parsePlan, planDeltas, type StreamPlan } from './stream-plan.ts';

export const BENCH_AGENT_ID = 'bench/streamer';

export interface AppendLog {
  /** Append time (clock.ts ms) of each delta of the last run, by index. */
  times: Float64Array;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function* emit(plan: StreamPlan, deltas: string[], log: AppendLog, signal: AbortSignal): AsyncIterable<string> {
  log.times[0] = nowMs();
  yield deltas[0]!;
  await wait(plan.gateMs);
  const interval = 1000 / plan.paceHz;
  const start = nowMs();
  for (let i = 1; i < deltas.length; i++) {
    if (signal.aborted) return;
    if (plan.mode === 'paced') {
      const due = start + (i - 1) * interval - nowMs();
      if (due > 0) await wait(due);
    } else if (plan.mode === 'tick') {
      await nextTurn();
    }
    log.times[i] = nowMs();
    yield deltas[i]!;
  }
  await wait(plan.gateMs);
}

/**
 * @example
 * const log = { times: new Float64Array(0) };
 * await startServer({ agents: [createBenchAgent(log)], port: 0, dataDir });
 */
export function createBenchAgent(log: AppendLog): AgentDefinition {
  return defineAgent({
    id: BENCH_AGENT_ID,
    description: 'Streams a fixed reply for the benchmarks (npm run bench).',
    async run(ctx) {
      const plan = parsePlan(ctx.text);
      if (!plan) {
        await ctx.reply.text('Send a bench plan as JSON: {"mode":"paced","textLength":50000,"deltaSize":4,"deltas":1200,"paceHz":100,"gateMs":300}');
        return;
      }
      const deltas = planDeltas(plan);
      log.times = new Float64Array(deltas.length);
      await ctx.reply.text(emit(plan, deltas, log, ctx.signal));
    },
  });
}
