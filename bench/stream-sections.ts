/**
 * Sections 1 (wire cost), 3 (latency) and 4 (throughput): the same reply streamed paced and in
 * bursts through real servers (child processes), with and without permessage-deflate.
 */
import { connectBenchClient, waitConnected, type BenchClient } from './bench-client.ts';
import type { BenchConfig } from './config.ts';
import { atLeast, atMost, judge, type Section } from './report.ts';
import { spawnBenchServer, type BenchServer } from './server-handle.ts';
import { maxOf, mean, percentile } from './stats.ts';
import type { EmitMode, StreamPlan } from './stream-plan.ts';
import { runStream, type StreamResult } from './stream-run.ts';

export interface RunSummary {
  mode: EmitMode;
  deflate: boolean;
  clients: number;
  deltas: number;
  windowDeltas: number;
  windowTextBytes: number;
  framesPerDelta: number;
  payloadBytesPerDelta: number;
  wireBytes: number;
  wireBytesPerDelta: number;
  wireBytesPerTextByte: number;
  latency: { samples: number; p50: number; p99: number; max: number; mean: number };
  /** Append → frame out of the server's store (the server's share of the latency). */
  serverLatency: { p50: number; p99: number; max: number };
  /** Frame out of the store → its bytes at the client socket (ws.send, deflate, TCP). */
  sendLatency: { p50: number; p99: number; max: number };
  /** Bytes at the client socket → delta in the client's state (inflate, parse, validate, apply). */
  clientLatency: { p50: number; p99: number; max: number };
  /** Deltas per second until every client held the whole reply (from delta 1's append). */
  deliveredPerSecond: number;
  /** Deltas per second the agent managed to hand over (from delta 1 to the last). */
  emittedPerSecond: number;
  serverCpuMs: number;
  serverCpuMsPer1000Deltas: number;
  warnings: string[];
}

function spread(samples: Float64Array): { p50: number; p99: number; max: number } {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), max: maxOf(samples.filter((x) => !Number.isNaN(x))) };
}

function summarize(result: StreamResult, deflate: boolean): RunSummary {
  const { windows, windowDeltas, windowTextBytes, appendTimes } = result;
  const wireBytes = mean(windows.map((w) => w.bytes));
  const first = appendTimes[1]!;
  const deltas = appendTimes.length;
  return {
    mode: result.plan.mode,
    deflate,
    clients: windows.length,
    deltas,
    windowDeltas,
    windowTextBytes,
    framesPerDelta: mean(windows.map((w) => w.frames)) / windowDeltas,
    payloadBytesPerDelta: mean(windows.map((w) => w.payloadBytes)) / windowDeltas,
    wireBytes,
    wireBytesPerDelta: wireBytes / windowDeltas,
    wireBytesPerTextByte: wireBytes / windowTextBytes,
    latency: {
      samples: result.latencies.length,
      p50: percentile(result.latencies, 50),
      p99: percentile(result.latencies, 99),
      max: maxOf(result.latencies),
      mean: mean(result.latencies),
    },
    serverLatency: spread(result.serverLatencies),
    sendLatency: spread(result.sendLatencies),
    clientLatency: spread(result.clientLatencies),
    deliveredPerSecond: (windowDeltas / (maxOf(result.doneTimes) - first)) * 1000,
    // Deltas 1..n-1 span n-2 intervals.
    emittedPerSecond: ((windowDeltas - 1) / (appendTimes[deltas - 1]! - first)) * 1000,
    serverCpuMs: result.serverCpuMs,
    serverCpuMsPer1000Deltas: (result.serverCpuMs / deltas) * 1000,
    warnings: result.warnings,
  };
}

async function runWithClients(server: BenchServer, count: number, deflate: boolean, plan: StreamPlan, config: BenchConfig): Promise<RunSummary> {
  const clients: BenchClient[] = Array.from({ length: count }, (_, i) =>
    connectBenchClient({ url: server.url, token: server.token, perMessageDeflate: deflate, name: `bench-${i}` }),
  );
  try {
    await waitConnected(clients);
    return summarize(await runStream(server, clients, plan, config.streamTimeoutMs), deflate);
  } finally {
    for (const c of clients) c.close();
  }
}

export interface StreamRuns {
  runs: RunSummary[];
  /** Whether the burst (throughput) servers ran pinned to one core; paced ones never are. */
  pinned: boolean;
}

/** Runs every stream the three sections need; `progress` hears what is running. */
export async function runStreams(config: BenchConfig, progress: (what: string) => void): Promise<StreamRuns> {
  const plan = (mode: EmitMode): StreamPlan => ({
    mode,
    textLength: config.textLength,
    deltaSize: config.deltaSize,
    deltas: mode === 'paced' ? config.pacedDeltas : config.burstDeltas,
    paceHz: config.paceHz,
    gateMs: config.gateMs,
  });
  const runs: RunSummary[] = [];
  let pinned = false;
  for (const deflate of [true, false]) {
    // Paced streams measure latency as a developer's machine sees it: the server is not pinned.
    // "Deflate on" means every client here, as in earlier runs; the default cap is section 8's subject.
    const paced = await spawnBenchServer({ perMessageDeflate: deflate, maxDeflateClients: 1_000_000 });
    try {
      // Deflate on is the default: it gets every client count; off gets 10 clients for comparison.
      const counts = deflate ? config.latencyClients : [config.throughputClients];
      for (const count of counts) {
        progress(`paced stream, ${count} client(s), deflate ${deflate ? 'on' : 'off'}`);
        runs.push(await runWithClients(paced, count, deflate, plan('paced'), config));
      }
    } finally {
      await paced.close();
    }
    // Bursts measure what one core can push: the server is pinned to core 0 when possible.
    const burst = await spawnBenchServer({ perMessageDeflate: deflate, maxDeflateClients: 1_000_000 }, { pin: true });
    pinned = burst.pinned;
    try {
      for (const mode of ['tick', 'sync'] as const) {
        progress(`${mode} burst, ${config.throughputClients} clients, deflate ${deflate ? 'on' : 'off'}`);
        runs.push(await runWithClients(burst, config.throughputClients, deflate, plan(mode), config));
      }
    } finally {
      await burst.close();
    }
  }
  return { runs, pinned };
}

function label(run: RunSummary, config: BenchConfig): string {
  return run.mode === 'paced' ? `paced ${config.paceHz}/s` : run.mode === 'tick' ? 'burst, 1 delta/turn' : 'burst, 1 turn';
}

const onOff = (deflate: boolean) => (deflate ? 'on' : 'off');

/** Section 1: bytes on the TCP stream per delta and per text byte. */
export function wireSection(streams: StreamRuns, config: BenchConfig, revCost: { withRev: number; withoutRev: number }): Section {
  const pacedTarget = atMost(11);
  const burstTarget = atMost(1.2);
  const chosen = streams.runs.filter((r) => (r.mode === 'paced' ? r.clients === (r.deflate ? 1 : config.throughputClients) : true));
  const rows = chosen.map((r) => {
    const target = r.mode === 'paced' ? (r.deflate ? pacedTarget : undefined) : burstTarget;
    const value = r.mode === 'paced' ? r.wireBytesPerDelta : r.wireBytesPerTextByte;
    return [
      label(r, config),
      onOff(r.deflate),
      r.clients,
      r.windowDeltas,
      Math.round(r.framesPerDelta * r.windowDeltas),
      r.framesPerDelta,
      r.payloadBytesPerDelta,
      r.wireBytesPerDelta,
      r.wireBytesPerTextByte,
      target ? `${target.text} ${r.mode === 'paced' ? 'B/delta' : 'B/text B'}` : '',
      judge(value, target),
    ];
  });
  const notes = [
    `One reply of ${config.textLength.toLocaleString('en-US')} ASCII chars (bench/reply-text.ts) cut in ${config.deltaSize}-char deltas. Paced rows stream its first ${config.pacedDeltas.toLocaleString('en-US')} deltas at ${config.paceHz}/s (${(config.pacedDeltas / config.paceHz).toFixed(0)} s; all ${Math.ceil(config.textLength / config.deltaSize).toLocaleString('en-US')} would take ${Math.round(config.textLength / config.deltaSize / config.paceHz)} s); burst rows stream ${config.burstDeltas.toLocaleString('en-US')} deltas as fast as the agent emits them.`,
    'wire = the bytes of the WebSocket messages the client received, sized frame by frame off its socket (bench/frame-sizer.ts: frame headers and compression included, TCP/IP headers and control frames not), counted over deltas 1..n-1 only: the agent pauses after delta 0 and after the last delta, so the run\'s start/end frames and the request result fall outside the window. Averaged over the clients of the run. frames = WebSocket messages the client received in the window (= frames the server sent it).',
    'payload = uncompressed frame payload (the JSON); frames/delta below 1 means the server merged appends of one tick into one frame.',
    '"burst, 1 delta/turn": each delta in its own event-loop turn (setImmediate), as deltas read from a model\'s HTTP stream arrive. "burst, 1 turn": the async iterable yields the whole rest synchronously, so the server\'s per-tick coalescing sends it as one frame.',
  ];
  const pacedOn = chosen.find((r) => r.mode === 'paced' && r.deflate);
  if (pacedOn && judge(pacedOn.wireBytesPerDelta, pacedTarget) === 'MISS') {
    notes.push(
      `Paced MISS: at ${config.paceHz}/s (nearly) every delta is its own frame (frames/delta ${pacedOn.framesPerDelta.toFixed(2)}; below 1 only when a late timer let two deltas share a turn). Deflated with context takeover, a rev-less patch frame costs ~${revCost.withoutRev.toFixed(1)} B (2 B header included; with an explicit rev it would be ${revCost.withRev.toFixed(1)} B, see section 2). Look for frames that carry more than one append op or a longer path (several parts streaming at once); otherwise only batching ≥2 deltas per frame goes lower, at the cost of ≥${Math.round(1000 / config.paceHz)} ms more latency.`,
    );
  }
  const tick = chosen.find((r) => r.mode === 'tick' && r.deflate);
  if (tick && judge(tick.wireBytesPerTextByte, burstTarget) === 'MISS') {
    notes.push(
      `Burst MISS ("1 delta/turn"): the state store flushes once per event-loop turn (setImmediate), so an agent that yields one delta per turn gets one frame per delta (${tick.framesPerDelta.toFixed(2)} frames/delta), each paying the whole frame (~${tick.wireBytesPerDelta.toFixed(1)} B deflated, ~${tick.payloadBytesPerDelta.toFixed(0)} B raw) for ${config.deltaSize} text bytes. The same text in one turn costs ${chosen.find((r) => r.mode === 'sync' && r.deflate)?.wireBytesPerTextByte.toFixed(2) ?? '?'} B/text B. Cheap server fix (section 4 note): a minimum interval between patch frames.`,
    );
  }
  return {
    key: 'wire',
    title: '1. Wire cost: server → client bytes on the TCP stream (agentbar)',
    columns: ['stream', 'deflate', 'clients', 'deltas', 'frames', 'frames/delta', 'payload B/delta', 'wire B/delta', 'wire B/text B', 'target', 'result'],
    rows,
    notes,
    data: chosen,
  };
}

/** Section 3: agent append → client apply. */
export function latencySection(streams: StreamRuns, config: BenchConfig): Section {
  const target = atMost(5, ' ms');
  const paced = streams.runs.filter((r) => r.mode === 'paced');
  const extra: string[] = [];
  const on = paced.find((r) => r.deflate && r.clients === config.throughputClients);
  const off = paced.find((r) => !r.deflate && r.clients === config.throughputClients);
  if (on && judge(on.latency.p99, target) === 'MISS') {
    const parts = [
      ['server', on.serverLatency.p99],
      ['send', on.sendLatency.p99],
      ['client', on.clientLatency.p99],
    ] as const;
    const [worst, worstP99] = parts.reduce((a, b) => (b[1] > a[1] ? b : a));
    const where =
      worst === 'server'
        ? 'in the server before the frame is made (the agent and store share its event loop)'
        : worst === 'send'
          ? `between the store and the client's socket: with deflate each frame goes through the server's zlib thread pool once per client (a thread hand-off and a wake-up of the event loop), and ws sends a socket's frames in order, so one late compression holds the next frames back`
          : `in the bench process, after the bytes arrived: inflate (zlib thread pool), JSON.parse, valibot and apply for all ${on.clients} clients share one event loop`;
    const offPasses = off !== undefined && judge(off.latency.p99, target) === 'PASS';
    extra.push(
      `MISS (${on.clients} clients, deflate on): the tail sits ${where} (${worst} p99 ${worstP99.toFixed(2)} ms), not in server work: the server spends ${(on.serverCpuMsPer1000Deltas / 1000).toFixed(2)} ms CPU per delta (one every ${Math.round(1000 / config.paceHz)} ms). ${
        offPasses
          ? `Without deflate (no thread-pool hand-offs) the same clients see p99 ${off!.latency.p99.toFixed(2)} ms, so the hand-offs are what waits: on a CPU-starved machine a woken thread waits for a core.`
          : `Deflate off misses too${off ? ` (p99 ${off.latency.p99.toFixed(2)} ms)` : ''}: the machine, not compression.`
      } No cheap server fix (compression per client is inherent); read it together with the CPU pressure in the header, and rerun on an idle machine before taking this p99 as the server's.`,
    );
  }
  return {
    key: 'latency',
    title: `3. Latency: agent append → client state holds the delta (paced ${config.paceHz}/s)`,
    columns: ['clients', 'deflate', 'samples', 'p50 ms', 'p99 ms', 'max ms', 'server p50/p99', 'send p50/p99', 'client p50/p99', 'server CPU ms/1k deltas', 'target (p99)', 'result'],
    rows: paced.map((r) => {
      const t = r.clients === config.throughputClients ? target : undefined;
      const pair = (x: { p50: number; p99: number }) => `${x.p50.toFixed(2)} / ${x.p99.toFixed(2)}`;
      return [r.clients, onOff(r.deflate), r.latency.samples, r.latency.p50, r.latency.p99, r.latency.max, pair(r.serverLatency), pair(r.sendLatency), pair(r.clientLatency), r.serverCpuMsPer1000Deltas, t?.text ?? '', judge(r.latency.p99, t)];
    }),
    notes: [
      `Server in a child process, not pinned (as on a developer's machine; section 4 pins it); clients (the project's sync client, shared/sync-client.ts, over ws) in the bench process. Both stamp times with process.hrtime (CLOCK_MONOTONIC, shared by processes), the agent just before it yields a delta, each client in its state listener when its mirrored text first covers the delta. Samples = clients × deltas 1..n-1.`,
      'The latency in three parts (ms, p50 / p99; they do not add up exactly, percentiles never do): server = append → the patch frame carrying the delta left the state store for the sockets; send = that → the first TCP bytes read by the client at or after it (ws.send, permessage-deflate in the server\'s zlib thread pool, TCP); client = those bytes → the client\'s state holds the delta (inflate, JSON.parse, valibot check, patch apply, in a process shared by all the clients).',
      ...extra,
    ],
    data: paced,
  };
}

/** Section 4: deltas per second sustained to N clients, server CPU per 1,000 deltas. */
export function throughputSection(streams: StreamRuns, config: BenchConfig): Section {
  const target = atLeast(20_000);
  const bursts = streams.runs.filter((r) => r.mode !== 'paced');
  const extra: string[] = [];
  const on = bursts.find((r) => r.mode === 'tick' && r.deflate);
  const off = bursts.find((r) => r.mode === 'tick' && !r.deflate);
  if (on && judge(on.deliveredPerSecond, target) === 'MISS') {
    extra.push(
      `MISS: the store flushes every event-loop turn, so each delta becomes its own frame to each of the ${on.clients} clients (${Math.round(on.framesPerDelta * on.windowDeltas).toLocaleString('en-US')} frames per client): ${on.serverCpuMsPer1000Deltas.toFixed(0)} ms CPU per 1,000 deltas with deflate${off ? `, ${off.serverCpuMsPer1000Deltas.toFixed(0)} without` : ''}. A V8 profile of the server child (BENCH_CPU_PROF=dir npm run bench) puts ~35% of its samples in zlib (node:zlib processChunk, the per-message permessage-deflate of ${on.clients} sockets) plus socket writev. Cheap fix in server/sync/state-store.ts: never flush sooner than ~4 ms after the previous frame (a setTimeout for the remainder; setImmediate as now when the last frame is older), so paced streams (${Math.round(1000 / config.paceHz)} ms apart) keep their latency and bursts coalesce to ≤ 250 frames/s. On a private copy of the server (while writing the bench, same machine) that fix gave ~38,000–39,000 deltas/s delivered, 15–17 ms CPU per 1,000 deltas and 0.39 wire B/text B with deflate (32,000 deltas/s and 1.1 B/text B without), 10 clients, 12,500 deltas.`,
    );
  }
  return {
    key: 'throughput',
    title: `4. Throughput: burst of ${config.burstDeltas.toLocaleString('en-US')} deltas to ${config.throughputClients} clients, server on one core`,
    columns: ['stream', 'deflate', 'clients', 'frames/client', 'delivered deltas/s', 'agent emit deltas/s', 'server CPU ms', 'CPU ms/1k deltas', 'target', 'result'],
    rows: bursts.map((r) => {
      const t = r.mode === 'tick' ? target : undefined;
      return [label(r, config), onOff(r.deflate), r.clients, Math.round(r.framesPerDelta * r.windowDeltas), r.deliveredPerSecond, r.emittedPerSecond, r.serverCpuMs, r.serverCpuMsPer1000Deltas, t ? `${t.text}/s` : '', judge(r.deliveredPerSecond, t)];
    }),
    notes: [
      `Server child ${streams.pinned ? 'pinned to core 0 (taskset -c 0, its zlib threads included)' : 'not pinned (taskset missing or fewer than 2 cores)'}; the 10 clients run in the bench process.`,
      'delivered = (n-1) deltas / (time the last client held the whole reply − append time of delta 1). agent emit = the rate the agent handed deltas over; the server runs on the same core, so a busy server slows the agent too.',
      'server CPU = process.cpuUsage() of the server child (user + system, all its threads, zlib included) from the message.send to the end of the run.',
      '"burst, 1 turn" rows are an upper bound with no target: the whole reply leaves as one frame.',
      ...extra,
    ],
    data: bursts,
  };
}
