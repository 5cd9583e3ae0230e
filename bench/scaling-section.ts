/**
 * Section 8 (key `scaling`): what permessage-deflate costs as clients add up. The same paced
 * stream to 1, 10, 50 and 200 clients under three policies: deflate for every client (context
 * takeover, one zlib stream each), deflate for the first 16 only (the server's default,
 * `maxDeflateClients`), and no deflate. Per run: the server's CPU per second of streaming, the
 * mean wire bytes per delta (compressed and plain clients apart), and request round trips taken
 * during the stream (a `chat.switch` to a missing chat: no disk, only the server's event loop).
 */
import zlib from 'node:zlib';
import { connectBenchClient, waitConnected, type BenchClient } from './bench-client.ts';
import { wsHeaderBytes } from './compression.ts';
import type { BenchConfig } from './config.ts';
import { atMost, judge, type Section } from './report.ts';
import { spawnBenchServer } from './server-handle.ts';
import { mean, percentile } from './stats.ts';
import { planDeltas, type StreamPlan } from './stream-plan.ts';
import { runStream } from './stream-run.ts';
import { nowMs, sleep } from './clock.ts';

export type DeflatePolicy = 'every client' | 'first 16' | 'none';
const POLICIES: DeflatePolicy[] = ['every client', 'first 16', 'none'];
const CAP = 16;

export interface ScalingRow {
  policy: DeflatePolicy;
  clients: number;
  deflatedClients: number;
  /** Server CPU ms per wall second while the stream ran. */
  cpuMsPerSecond: number;
  /** Mean wire bytes per delta of the clients with deflate, and of those without (null: none). */
  deflatedBytesPerDelta: number | null;
  plainBytesPerDelta: number | null;
  rttP50: number;
  rttP99: number;
  rttSamples: number;
  warnings: string[];
}

async function probeRoundTrips(client: BenchClient, until: () => boolean): Promise<number[]> {
  const samples: number[] = [];
  while (!until()) {
    const t = nowMs();
    try {
      await client.sync.request('chat.switch', { chatId: 'chat_bench_missing' });
    } catch {
      // not_found is the expected answer: only its time matters
    }
    samples.push(nowMs() - t);
    await sleep(50);
  }
  return samples;
}

async function measureOne(policy: DeflatePolicy, count: number, config: BenchConfig): Promise<ScalingRow> {
  const server = await spawnBenchServer({
    perMessageDeflate: policy !== 'none',
    maxDeflateClients: policy === 'every client' ? 1_000_000 : CAP,
  });
  const clients: BenchClient[] = [];
  try {
    for (let i = 0; i < count; i++) clients.push(connectBenchClient({ url: server.url, token: server.token, perMessageDeflate: true, name: `scale-${i}` }));
    await waitConnected(clients, 60_000);
    // One more client only probes round trips, so its requests do not count in the wire figures.
    const probe = connectBenchClient({ url: server.url, token: server.token, perMessageDeflate: false, name: 'probe' });
    clients.push(probe);
    await waitConnected([probe], 20_000);
    const streaming = clients.slice(0, count);
    const plan: StreamPlan = { mode: 'paced', textLength: config.textLength, deltaSize: config.deltaSize, deltas: config.scalingDeltas, paceHz: config.paceHz, gateMs: config.gateMs };
    let done = false;
    const started = nowMs();
    const cpuBefore = await server.cpuMs();
    const [result, rtts] = await Promise.all([
      runStream(server, [...streaming, probe], plan, config.streamTimeoutMs).finally(() => (done = true)),
      probeRoundTrips(probe, () => done),
    ]);
    const seconds = (nowMs() - started) / 1000;
    const cpuMs = (await server.cpuMs()) - cpuBefore;
    const deflated = streaming.map((c) => c.socketExtensions().includes('permessage-deflate'));
    const perDelta = (pick: boolean) => {
      const bytes = result.windows.slice(0, count).filter((_, i) => deflated[i] === pick).map((w) => w.bytes / result.windowDeltas);
      return bytes.length ? mean(bytes) : null;
    };
    return {
      policy,
      clients: count,
      deflatedClients: deflated.filter(Boolean).length,
      cpuMsPerSecond: cpuMs / seconds,
      deflatedBytesPerDelta: perDelta(true),
      plainBytesPerDelta: perDelta(false),
      rttP50: percentile(rtts, 50),
      rttP99: percentile(rtts, 99),
      rttSamples: rtts.length,
      warnings: result.warnings,
    };
  } finally {
    for (const c of clients) c.close();
    await server.close();
  }
}

/**
 * The option `ws` cannot do, computed with zlib instead: one frame compressed once for every
 * client, which rules out context takeover, so each patch is deflated on its own. The patch is the
 * one the server sends for a paced delta.
 */
export function computeNoContextTakeover(config: BenchConfig): { bytesPerDelta: number; payloadPerDelta: number } {
  const deltas = planDeltas({ textLength: config.textLength, deltaSize: config.deltaSize, deltas: config.scalingDeltas });
  let wire = 0;
  let payload = 0;
  for (const value of deltas.slice(1)) {
    const frame = Buffer.from(JSON.stringify({ type: 'patch', ops: [{ op: 'append', path: '/active/messages/1/content/0/text', value }] }));
    // RFC 7692: the trailing 00 00 FF FF of the sync flush is not sent.
    const compressed = zlib.deflateRawSync(frame, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).length - 4;
    wire += wsHeaderBytes(compressed) + compressed;
    payload += frame.length;
  }
  return { bytesPerDelta: wire / (deltas.length - 1), payloadPerDelta: payload / (deltas.length - 1) };
}

export async function measureScaling(config: BenchConfig, progress: (what: string) => void): Promise<ScalingRow[]> {
  const rows: ScalingRow[] = [];
  for (const count of config.scalingClients) {
    for (const policy of POLICIES) {
      progress(`scaling: ${count} client(s), deflate for ${policy}`);
      rows.push(await measureOne(policy, count, config));
    }
  }
  return rows;
}

export function scalingSection(rows: ScalingRow[], config: BenchConfig): Section {
  const paced = atMost(11, ' B');
  const once = computeNoContextTakeover(config);
  return {
    key: 'scaling',
    title: '8. Compression as clients add up (paced stream, server not pinned)',
    columns: ['clients', 'deflate for', 'deflated', 'server CPU ms/s', 'wire B/delta (deflated)', 'wire B/delta (plain)', 'round trip p50 ms', 'p99 ms', 'target'],
    rows: rows.map((r) => {
      // The paced wire target holds for a compressed client, whatever the policy.
      const target = r.deflatedBytesPerDelta === null ? '' : `${paced.text} ${judge(r.deflatedBytesPerDelta, paced)}`;
      return [r.clients, r.policy, r.deflatedClients, r.cpuMsPerSecond, r.deflatedBytesPerDelta, r.plainBytesPerDelta, r.rttP50, r.rttP99, target];
    }),
    notes: [
      `Not in the table: compressing each frame once for all clients. That needs no context takeover, and a delta's ${once.payloadPerDelta.toFixed(0)}-byte patch deflated on its own is ${once.bytesPerDelta.toFixed(1)} B on the wire (computed with zlib), against ${Math.round(rows.find((r) => r.plainBytesPerDelta !== null)?.plainBytesPerDelta ?? 0)} B plain and about 11 B with context takeover: it would save CPU but not the bytes, and \`ws\` cannot send one pre-compressed frame to many sockets. A size threshold fails the same way: every delta is under any useful threshold.`,
      `${config.scalingDeltas} deltas at ${config.paceHz}/s to every client; all clients offer deflate; one extra client without deflate times a request every 50 ms.`,
      'Server CPU ms/s: user + system time of the server process per wall second of the run (1,000 = one core busy).',
      `"first 16" is the default (\`maxDeflateClients\`): the developer's few toolbars and terminals stay at the paced target, and a crowd of clients costs what plain frames cost.`,
      'The clients share the bench process: at 200 clients its own inflate and patching compete with the server for the two cores, so round trips there are pessimistic for every policy alike.',
    ],
    data: { rows, noContextTakeover: once },
  };
}
