import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../shared/schemas.ts';
import { encodeServerFrame } from '../test-support/ws-frames.ts';
import { makeState } from '../toolbar/test-fixtures.ts';
import { connectBenchClient, waitConnected, waitUntil, type BenchClient } from './bench-client.ts';

/** A server text frame carrying `json`. */
function textFrame(json: unknown): Buffer {
  return encodeServerFrame(0x1, Buffer.from(JSON.stringify(json)));
}

/**
 * A WebSocket server reduced to what the test needs: it answers the upgrade and sends `frames`
 * in the same write as the 101 answer, so the client reads them in the same TCP read.
 */
async function startRawServer(frames: Buffer[]): Promise<{ url: string; head: Buffer[]; send(frame: Buffer): void; close(): Promise<void> }> {
  const heads: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let request = '';
    socket.on('data', (chunk) => {
      if (request.includes('\r\n\r\n')) return; // the client's hello and later frames: not read
      request += chunk.toString('latin1');
      if (!request.includes('\r\n\r\n')) return;
      const key = /sec-websocket-key: *(\S+)/i.exec(request)?.[1] ?? '';
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      const head = Buffer.from(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      heads.push(head);
      socket.write(Buffer.concat([head, ...frames]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    head: heads,
    send: (frame) => {
      for (const s of sockets) s.write(frame);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('connectBenchClient', () => {
  it('sizes the 101 answer and the frames that came in the same read, up to the last message delivered', async () => {
    const welcome = textFrame({ type: 'welcome', protocol: PROTOCOL_VERSION, session: 's1', resumed: false });
    const snapshot = textFrame({ type: 'snapshot', rev: 1, state: makeState() });
    const server = await startRawServer([welcome, snapshot]);
    cleanups.push(server.close);
    const client: BenchClient = connectBenchClient({ url: server.url, token: 't', perMessageDeflate: false });
    cleanups.push(() => client.close());
    await waitConnected([client]);

    expect(server.head).toHaveLength(1);
    expect(client.meter.openBytes).toBe(server.head[0]!.length);
    expect(client.meter.frames).toBe(2);
    expect(client.meter.messageBytes).toBe(welcome.length + snapshot.length);
    expect(client.meter.wireBytes()).toBe(server.head[0]!.length + welcome.length + snapshot.length);
    expect(client.meter.resumed).toBe(false);
    expect(client.sync.getSnapshot().state?.activeChatId).toBe('c1');

    // ws hands the bytes after the 101 answer back to the socket, which reads them again: a later
    // message must still get its own size, not one of those.
    const patch = textFrame({ type: 'patch', rev: 2, ops: [{ op: 'replace', path: '/activeChatId', value: 'c2' }] });
    server.send(patch);
    await waitUntil(() => client.sync.getSnapshot().state?.activeChatId === 'c2', 5_000, 'the patch');
    expect(client.meter.frames).toBe(3);
    expect(client.meter.messageBytes).toBe(welcome.length + snapshot.length + patch.length);
  });
});
