/**
 * Section 2: the same delta stream as other agent UIs encode it, one message per delta, computed
 * in this run with zlib from their frame shapes (peer-encodings.ts).
 */
import { countSse, countWebSocket, type WireCount } from './compression.ts';
import type { BenchConfig } from './config.ts';
import { PEER_ENCODINGS } from './peer-encodings.ts';
import type { Section } from './report.ts';
import { planDeltas } from './stream-plan.ts';

export interface PeerFigures {
  key: string;
  label: string;
  transport: 'websocket' | 'sse';
  shape: string;
  prefix: WireCount & { deltas: number; textBytes: number };
  full: WireCount & { deltas: number; textBytes: number };
}

async function count(transport: 'websocket' | 'sse', frames: Iterable<string>): Promise<WireCount> {
  return transport === 'sse' ? countSse(frames) : countWebSocket(frames);
}

function textBytes(deltas: readonly string[]): number {
  return deltas.reduce((n, d) => n + Buffer.byteLength(d), 0);
}

/** Computes every encoding for the paced prefix and for the full stream. */
export async function computePeers(config: BenchConfig, progress: (what: string) => void): Promise<PeerFigures[]> {
  const prefix = planDeltas({ textLength: config.textLength, deltaSize: config.deltaSize, deltas: config.peerPrefixDeltas });
  const full = planDeltas({ textLength: config.textLength, deltaSize: config.deltaSize, deltas: config.peerFullDeltas });
  const out: PeerFigures[] = [];
  for (const encoding of PEER_ENCODINGS) {
    progress(`peer encoding: ${encoding.label}`);
    out.push({
      key: encoding.key,
      label: encoding.label,
      transport: encoding.transport,
      shape: encoding.shape,
      prefix: { ...(await count(encoding.transport, encoding.frames(prefix))), deltas: prefix.length, textBytes: textBytes(prefix) },
      full: { ...(await count(encoding.transport, encoding.frames(full))), deltas: full.length, textBytes: textBytes(full) },
    });
  }
  return out;
}

/** What an explicit `rev` would cost under deflate (the server leaves it out): the same frames with and without it, for the notes. */
export async function measureRevCost(config: BenchConfig): Promise<{ withRev: number; withoutRev: number }> {
  const deltas = planDeltas({ textLength: config.textLength, deltaSize: config.deltaSize, deltas: config.peerPrefixDeltas });
  const path = '/active/messages/1/content/0/text';
  const make = (rev: boolean) =>
    deltas.map((d, i) => `{"type":"patch",${rev ? `"rev":${1000 + i},` : ''}"ops":[{"op":"append","path":"${path}","value":${JSON.stringify(d)}}]}`);
  const [a, b] = [await countWebSocket(make(true)), await countWebSocket(make(false))];
  return { withRev: a.compressedWireBytes / deltas.length, withoutRev: b.compressedWireBytes / deltas.length };
}

export function peersSection(peers: PeerFigures[], config: BenchConfig, measuredPacedDeflate: number | null, revCost: { withRev: number; withoutRev: number }): Section {
  const per = (n: number, d: number) => n / d;
  return {
    key: 'peers',
    title: '2. The same stream as peers encode it (computed, one message per delta, UUID message ids)',
    columns: ['encoding', 'transport', 'payload B/delta', `raw wire B/delta (${config.peerPrefixDeltas})`, `compressed B/delta (${config.peerPrefixDeltas})`, `raw wire B/delta (${config.peerFullDeltas})`, `compressed B/delta (${config.peerFullDeltas})`, 'compressed B/text B (full)'],
    rows: peers.map((p) => [
      p.label,
      p.transport === 'sse' ? 'SSE' : 'WebSocket',
      per(p.prefix.payloadBytes, p.prefix.deltas),
      per(p.prefix.rawWireBytes, p.prefix.deltas),
      per(p.prefix.compressedWireBytes, p.prefix.deltas),
      per(p.full.rawWireBytes, p.full.deltas),
      per(p.full.compressedWireBytes, p.full.deltas),
      p.full.compressedWireBytes / p.full.textBytes,
    ]),
    notes: [
      `Columns (${config.peerPrefixDeltas}) use the paced prefix (${config.peerPrefixDeltas} deltas), columns (${config.peerFullDeltas}) the whole reply; (a) and (b) grow with the text so far, the others do not.`,
      'WebSocket: raw wire = payload + frame header (2/4/10 B, server frames are unmasked); compressed = permessage-deflate as `ws` does it: one raw-deflate stream with context takeover (window 15, zlib default level), Z_SYNC_FLUSH after each message, the trailing 00 00 FF FF dropped, plus the header for the compressed length.',
      'SSE: each event flushed as one HTTP/1.1 chunk, so raw wire = event + chunk framing (`<hex len>\\r\\n` … `\\r\\n`); compressed = Content-Encoding: gzip, one gzip stream (10-byte header once) flushed with Z_SYNC_FLUSH after each event (the 00 00 FF FF stays: gzip has no per-message stripping), plus chunk framing of the compressed bytes. HTTP response headers are not counted for anyone.',
      '(a) uses agentbar\'s State shape holding a 2-message chat (the user\'s question and the streaming reply), a lower bound: a real snapshot also holds the history. (b) is [{op:"replace", path:["messages",1,"content",0,"text"], value:<whole text>}]. (c) assumes a tRPC v10/v11 WebSocket subscription data frame {"id":1,"result":{"type":"data","data":<superjson>}}: the subscription id stays 1, superjson wraps the value as {"json":…} and adds no "meta" for plain JSON. Exact strings: bench/README.md and latest.json (section peers, shape).',
      `The first row is agentbar's own patch frame computed the same way, for comparison with the measured wire cost${measuredPacedDeflate !== null ? ` (measured paced, deflate on: ${measuredPacedDeflate.toFixed(2)} B/delta; the server sometimes merges two deltas into one frame)` : ''}. The server leaves "rev" out of patch frames (it is the previous rev + 1): an explicit rev would cost ${(revCost.withRev - revCost.withoutRev).toFixed(2)} B/delta compressed (${revCost.withRev.toFixed(2)} with, ${revCost.withoutRev.toFixed(2)} without), because the changing number splits the otherwise repeated frame into two deflate matches plus a literal.`,
    ],
    data: peers,
  };
}
