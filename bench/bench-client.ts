/**
 * A bench client: the project's own sync client (shared/sync-client.ts) over the project's
 * WebSocket connector, on a `ws` socket whose bytes are sized from the first one (the HTTP 101
 * answer, then each message's frames as sent, compression included; bench/frame-sizer.ts). It
 * records when the streamed reply's text, as mirrored in the client's state, first covers each
 * delta, and the bytes delivered by then.
 */
import type { ClientRequestArgs } from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { createSyncClient, type SyncClient } from '../shared/sync-client.ts';
import type { State } from '../shared/schemas.ts';
import { createWebSocketConnector, type ConnectTransport, type WebSocketConstructor } from '../shared/transport.ts';
import { nowMs, sleep } from './clock.ts';
import { createFrameSizer } from './frame-sizer.ts';

export interface Meter {
  /**
   * Bytes the server sent on the current socket up to the last message delivered: the HTTP 101
   * answer plus `messageBytes`. Frames read ahead of delivery and control frames are not in it.
   */
  wireBytes(): number;
  /** WebSocket messages received on the current socket. */
  frames: number;
  /** Uncompressed payload bytes of those messages. */
  payloadBytes: number;
  /**
   * Wire bytes of those messages (frame headers and payload as sent, see frame-sizer.ts): unlike
   * `net.Socket.bytesRead`, never counts a message that was read but not yet delivered.
   */
  messageBytes: number;
  /** When TCP data arrived (clock.ts ms), since the last `follow()`; bounded. */
  dataTimes: number[];
  /** Bytes of the current socket's HTTP 101 answer (head and blank line). */
  openBytes: number;
  /** The last welcome's `resumed`. */
  resumed: boolean | null;
  /** Sockets opened so far. */
  sockets: number;
}

export interface Track {
  /** Char offsets at which each delta ends. */
  ends: Int32Array;
  /** Apply time (clock.ts ms) of each delta; NaN until applied. */
  applied: Float64Array;
  messageId: string | null;
  messageIndex: number;
  length: number;
  next: number;
  /** `meter.wireBytes()`, `meter.frames` and `meter.payloadBytes` when each delta was applied. */
  bytesAt: Float64Array;
  framesAt: Float64Array;
  payloadAt: Float64Array;
  /** Meter values when the last delta was applied (`doneMessageBytes`: meter.messageBytes). */
  doneMessageBytes: number;
  doneFrames: number;
  donePayload: number;
}

export interface BenchClient {
  readonly sync: SyncClient;
  readonly meter: Meter;
  track: Track | null;
  /** Starts following the next assistant reply; `deltaLengths` are the plan's delta sizes. */
  follow(deltaLengths: readonly number[]): Track;
  /** Drops the socket now, as a network failure would (the sync client then reconnects). */
  dropSocket(): void;
  /** The extensions the server accepted on the current socket (`permessage-deflate` or ''). */
  socketExtensions(): string;
  /** The next reconnect opens its socket no earlier than this clock.ts time. */
  holdReconnectUntil(time: number): void;
  close(): void;
}

function textOf(state: State, index: number, id: string): number {
  const message = state.active?.messages[index];
  if (!message || message.id !== id) return -1;
  let length = 0;
  for (const part of message.content) if (part.type === 'text') length += part.text.length;
  return length;
}

function findIndex(state: State, id: string): number {
  const messages = state.active?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.id === id) return i;
  return -1;
}

/** Arrival times kept per client and stream (a burst is at most one chunk per delta). */
const MAX_DATA_TIMES = 50_000;

export interface BenchClientOptions {
  url: string;
  token: string;
  perMessageDeflate: boolean;
  name?: string;
}

/** @example const client = connectBenchClient({ url, token, perMessageDeflate: true }); await waitConnected([client]); */
export function connectBenchClient(options: BenchClientOptions): BenchClient {
  let ws: WebSocket | null = null;
  let holdUntil = 0;
  const meter: Meter = {
    wireBytes: () => meter.openBytes + meter.messageBytes,
    frames: 0,
    payloadBytes: 0,
    messageBytes: 0,
    dataTimes: [],
    openBytes: 0,
    resumed: null,
    sockets: 0,
  };

  // The connector takes a WebSocket class; this one counts what its socket receives.
  class CountingWebSocket extends WebSocket {
    constructor(url: string) {
      /** Wire sizes of messages read off the socket and not yet delivered, oldest first. */
      const arrived: number[] = [];
      const sizer = createFrameSizer((bytes) => arrived.push(bytes), { onHttpHead: (bytes) => (meter.openBytes = bytes) });
      super(url, {
        perMessageDeflate: options.perMessageDeflate,
        // The bench makes the socket, so the sizer reads it from its first byte and sizes the 101
        // answer apart from the frames that often come in the same read. Its listener is the
        // socket's first, so a message is sized before ws delivers it.
        createConnection: (opts: ClientRequestArgs) => {
          // As ws's own netConnect: `path` is the HTTP path here, and to net an IPC path.
          const socket = net.connect({ ...opts, path: opts.socketPath } as net.NetConnectOpts);
          // ws puts the bytes that came after the 101 answer back in the socket (unshift), and the
          // socket emits them again: they were sized the first time.
          let replayed = 0;
          const unshift = socket.unshift.bind(socket);
          socket.unshift = (chunk, encoding) => {
            replayed += typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding) : chunk.length;
            unshift(chunk, encoding);
          };
          socket.on('data', (chunk: Buffer) => {
            if (replayed > 0) {
              const n = Math.min(replayed, chunk.length);
              replayed -= n;
              chunk = chunk.subarray(n);
              if (chunk.length === 0) return;
            }
            if (meter.dataTimes.length < MAX_DATA_TIMES) meter.dataTimes.push(nowMs());
            sizer(chunk);
          });
          return socket;
        },
      });
      ws = this;
      meter.frames = 0;
      meter.payloadBytes = 0;
      meter.messageBytes = 0;
      meter.openBytes = 0;
      meter.sockets++;
      this.on('message', (data: Buffer) => {
        meter.frames++;
        meter.payloadBytes += data.length;
        meter.messageBytes += arrived.shift() ?? 0;
        if (meter.frames === 1 && data.length < 300) {
          try {
            const frame = JSON.parse(data.toString()) as { type?: string; resumed?: boolean };
            if (frame.type === 'welcome') meter.resumed = frame.resumed ?? null;
          } catch {
            /* the sync client reports bad frames itself */
          }
        }
      });
    }
  }

  const direct = createWebSocketConnector(`${options.url}?token=${encodeURIComponent(options.token)}`, CountingWebSocket as unknown as WebSocketConstructor);
  // A reconnect may be held back (the resume bench misses a second of the stream on purpose).
  const connect: ConnectTransport = (handlers) => {
    const wait = holdUntil - nowMs();
    if (wait <= 0) return direct(handlers);
    let inner: ReturnType<ConnectTransport> | null = null;
    let cancelled = false;
    void sleep(wait).then(() => {
      if (!cancelled) inner = direct(handlers);
    });
    return {
      send: (data) => inner?.send(data),
      close: (code, reason) => {
        cancelled = true;
        if (inner) inner.close(code, reason);
        else handlers.onClose(code ?? 1000, reason ?? 'closed before opening');
      },
    };
  };

  const sync = createSyncClient({
    connect,
    client: { kind: 'other', name: options.name ?? 'bench' },
    backoff: { initialMs: 10, maxMs: 1000 },
    random: () => 0.5,
  });

  const client: BenchClient = {
    sync,
    meter,
    track: null,
    follow(deltaLengths) {
      const ends = new Int32Array(deltaLengths.length);
      let offset = 0;
      deltaLengths.forEach((n, i) => (ends[i] = offset += n));
      const track: Track = {
        ends,
        applied: new Float64Array(deltaLengths.length).fill(Number.NaN),
        bytesAt: new Float64Array(deltaLengths.length).fill(Number.NaN),
        framesAt: new Float64Array(deltaLengths.length).fill(Number.NaN),
        payloadAt: new Float64Array(deltaLengths.length).fill(Number.NaN),
        messageId: null,
        messageIndex: -1,
        length: 0,
        next: 0,
        doneMessageBytes: 0,
        doneFrames: 0,
        donePayload: 0,
      };
      client.track = track;
      meter.dataTimes = [];
      return track;
    },
    dropSocket() {
      ws?.terminate();
    },
    socketExtensions() {
      return ws?.extensions ?? '';
    },
    holdReconnectUntil(time) {
      holdUntil = time;
    },
    close() {
      sync.close();
    },
  };

  sync.subscribe(() => {
    const track = client.track;
    const state = sync.getSnapshot().state;
    if (!track || !state || track.next >= track.ends.length) return;
    if (track.messageId === null) {
      const id = state.run?.messageId;
      if (!id) return;
      track.messageId = id;
      track.messageIndex = findIndex(state, id);
    }
    let length = textOf(state, track.messageIndex, track.messageId);
    if (length < 0) {
      track.messageIndex = findIndex(state, track.messageId);
      length = textOf(state, track.messageIndex, track.messageId);
    }
    if (length <= track.length) return;
    track.length = length;
    const now = nowMs();
    const bytes = meter.wireBytes();
    while (track.next < track.ends.length && track.ends[track.next]! <= length) {
      track.bytesAt[track.next] = bytes;
      track.framesAt[track.next] = meter.frames;
      track.payloadAt[track.next] = meter.payloadBytes;
      track.applied[track.next++] = now;
    }
    if (track.next === track.ends.length) {
      track.doneMessageBytes = meter.messageBytes;
      track.doneFrames = meter.frames;
      track.donePayload = meter.payloadBytes;
    }
  });
  sync.start();
  return client;
}

/** Resolves once `check` holds, polling every few ms; rejects after `timeoutMs`. */
export async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = nowMs() + timeoutMs;
  while (!check()) {
    if (nowMs() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(2);
  }
}

/** Waits until every client is connected and holds a state. */
export function waitConnected(clients: readonly BenchClient[], timeoutMs = 20_000): Promise<void> {
  return waitUntil(
    () => clients.every((c) => c.sync.getSnapshot().status === 'connected' && c.sync.getSnapshot().state !== null),
    timeoutMs,
    'clients to connect',
  );
}
