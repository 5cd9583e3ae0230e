/**
 * One measured stream: a new chat, the bench agent streaming a plan into it, every client
 * following the reply. Returns per-client wire figures over the window that holds exactly deltas
 * 1..n-1 (delta 0 and the run's start/end frames are kept out by the plan's quiet gates), the
 * per-delta latencies (agent append → client state holds it) and the server's CPU time.
 */
import { type BenchClient, waitUntil } from './bench-client.ts';
import { sleep } from './clock.ts';
import { BENCH_AGENT_ID } from './bench-agent.ts';
import type { BenchServer } from './server-handle.ts';
import { planDeltas, type StreamPlan } from './stream-plan.ts';

export interface ClientWindow {
  bytes: number;
  frames: number;
  payloadBytes: number;
}

export interface StreamResult {
  plan: StreamPlan;
  /** Deltas inside the window (n − 1). */
  windowDeltas: number;
  /** Text characters (= UTF-8 bytes, the text is ASCII) inside the window. */
  windowTextBytes: number;
  windows: ClientWindow[];
  /** Append → apply, ms, every client's deltas 1..n-1. */
  latencies: Float64Array;
  /** Append → the frame carrying it left the server's store for the sockets, deltas 1..n-1. */
  serverLatencies: Float64Array;
  /** That frame leaving the store → its first TCP bytes reaching the client (per client × delta). */
  sendLatencies: Float64Array;
  /** Those bytes arriving → the client's state holding the delta (per client × delta). */
  clientLatencies: Float64Array;
  appendTimes: Float64Array;
  /** Per client: when it held the whole reply. */
  doneTimes: number[];
  /** Server CPU ms from the send to the end of the run. */
  serverCpuMs: number;
  warnings: string[];
}

/** Sends the plan and measures it; the clients must be connected. */
export async function runStream(server: BenchServer, clients: readonly BenchClient[], plan: StreamPlan, timeoutMs: number): Promise<StreamResult> {
  const deltas = planDeltas(plan);
  const lead = clients[0]!;
  const { chatId } = await lead.sync.request('chat.create', { title: `bench ${plan.mode} ×${deltas.length}` });
  await waitUntil(() => clients.every((c) => c.sync.getSnapshot().state?.activeChatId === chatId), 10_000, 'the new chat in every client');
  const tracks = clients.map((c) => c.follow(deltas.map((d) => d.length)));

  await server.ask('frames'); // forget frames before this run
  const cpuBefore = await server.cpuMs();
  await lead.sync.request('message.send', {
    chatId,
    agent: BENCH_AGENT_ID,
    content: [{ type: 'text', text: JSON.stringify(plan) }],
    metadata: { source: 'other', selectedElements: [] },
  });
  await waitUntil(() => tracks.every((t) => t.next >= 1), 10_000, 'delta 0 in every client');
  // Inside the quiet gate after delta 0: nothing is in flight, so the counters are exact.
  await sleep(plan.gateMs / 2);
  const starts = clients.map((c) => ({ bytes: c.meter.messageBytes, frames: c.meter.frames, payload: c.meter.payloadBytes }));
  await waitUntil(() => tracks.every((t) => t.next === t.ends.length), timeoutMs, 'the whole reply in every client');
  await waitUntil(() => lead.sync.getSnapshot().state?.run === null, 10_000, 'the end of the run');
  const cpuAfter = await server.cpuMs();

  const appendTimes = Float64Array.from(await server.ask<number[]>('appends'));
  const frameTimes = await server.ask<number[]>('frames');
  // A delta leaves with the first frame made at or after its append.
  const serverLatencies = new Float64Array(deltas.length - 1);
  const sentAt = new Float64Array(deltas.length - 1);
  for (let i = 1, f = 0; i < deltas.length; i++) {
    while (f < frameTimes.length && frameTimes[f]! < appendTimes[i]!) f++;
    sentAt[i - 1] = f < frameTimes.length ? frameTimes[f]! : Number.NaN;
    serverLatencies[i - 1] = sentAt[i - 1]! - appendTimes[i]!;
  }
  // The frame's bytes are the first TCP data a client read at or after the frame left the store.
  const sendLatencies = new Float64Array(clients.length * (deltas.length - 1)).fill(Number.NaN);
  const clientLatencies = new Float64Array(clients.length * (deltas.length - 1)).fill(Number.NaN);
  clients.forEach((c, ci) => {
    const arrivals = c.meter.dataTimes;
    for (let i = 1, a = 0; i < deltas.length; i++) {
      const sent = sentAt[i - 1]!;
      while (a < arrivals.length && arrivals[a]! < sent) a++;
      if (a >= arrivals.length || Number.isNaN(sent)) break;
      const k = ci * (deltas.length - 1) + i - 1;
      sendLatencies[k] = arrivals[a]! - sent;
      clientLatencies[k] = tracks[ci]!.applied[i]! - arrivals[a]!;
    }
  });
  const latencies = new Float64Array(clients.length * (deltas.length - 1));
  let k = 0;
  for (const t of tracks) for (let i = 1; i < deltas.length; i++) latencies[k++] = t.applied[i]! - appendTimes[i]!;
  const windowTextBytes = deltas.slice(1).reduce((n, d) => n + Buffer.byteLength(d), 0);
  return {
    plan,
    windowDeltas: deltas.length - 1,
    windowTextBytes,
    windows: tracks.map((t, i) => ({
      // Counted per message, not per socket read: a busy client has often read the frames after
      // the last delta (the run's end) by the time it applies it.
      bytes: t.doneMessageBytes - starts[i]!.bytes,
      frames: t.doneFrames - starts[i]!.frames,
      payloadBytes: t.donePayload - starts[i]!.payload,
    })),
    latencies,
    serverLatencies,
    sendLatencies,
    clientLatencies,
    appendTimes,
    doneTimes: tracks.map((t) => t.applied[t.applied.length - 1]!),
    serverCpuMs: cpuAfter - cpuBefore,
    warnings: await server.ask<string[]>('warnings'),
  };
}
