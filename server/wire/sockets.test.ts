/**
 * Idle, half-open and unauthenticated sockets: closed quickly, capped, and never at the expense of
 * a signed-in client.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { echoAgent, useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();
const opened: net.Socket[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.destroy();
});

/**
 * A raw TCP connection that optionally writes something, and records when the server closes it.
 * With `keepOwnSideOpen` it acts as a client that never closes: once the server ends its side it
 * keeps writing a byte now and then, which a socket the server still holds takes in silence and a
 * socket the server closed refuses, so `closed()` turns true only once the server let go entirely.
 */
async function rawSocket(port: number, write?: string, options: { keepOwnSideOpen?: boolean } = {}): Promise<{ socket: net.Socket; closed: () => boolean; received: () => string }> {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: options.keepOwnSideOpen === true });
  opened.push(socket);
  let closed = false;
  let received = '';
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  socket.on('data', (d) => (received += d.toString()));
  if (options.keepOwnSideOpen) {
    socket.on('end', () => {
      const probe = setInterval(() => (socket.destroyed ? clearInterval(probe) : socket.write('x')), 10);
    });
  }
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  if (write) socket.write(write);
  return { socket, closed: () => closed, received: () => received };
}

/** A client that sends `write` and never closes its own side. */
const stubbornSocket = (port: number, write: string) => rawSocket(port, write, { keepOwnSideOpen: true });

const UPGRADE_HEADERS = 'Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';

describe('sockets that say nothing useful', () => {
  it('closes a connection that stays silent', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true, sockets: { idleTimeoutMs: 300 } });
    const silent = await rawSocket(server.port);
    await waitUntil(() => silent.closed(), 'the silent socket closed');
  });

  it('answers 408 and closes a request whose headers never finish', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true, sockets: { headersTimeoutMs: 300, idleTimeoutMs: 60_000 } });
    const partial = await rawSocket(server.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await waitUntil(() => partial.closed(), 'the partial request closed');
    expect(partial.received()).toMatch(/^HTTP\/1\.1 408/);
  });
});

describe('floods of sockets that never finish', () => {
  it('closes every half-sent request of a flood past the cap soon after the header timeout', async () => {
    const headersTimeoutMs = 300;
    const server = await h.start({ agents: [echoAgent()], memory: true, sockets: { maxSockets: 50, headersTimeoutMs, idleTimeoutMs: 60_000 } });
    const flood = await Promise.all(Array.from({ length: 300 }, () => stubbornSocket(server.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n')));
    await waitUntil(() => flood.every((s) => s.closed()), 'every half-sent request closed', headersTimeoutMs + 3_000);
  });

  it('closes refused WebSocket upgrades although their clients keep their side open', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true, sockets: { idleTimeoutMs: 60_000 } });
    const noToken = await Promise.all(Array.from({ length: 20 }, () => stubbornSocket(server.port, `GET /ws HTTP/1.1\r\n${UPGRADE_HEADERS}`)));
    const wrongPath = await Promise.all(Array.from({ length: 20 }, () => stubbornSocket(server.port, `GET /elsewhere?token=${server.token} HTTP/1.1\r\n${UPGRADE_HEADERS}`)));
    await waitUntil(() => [...noToken, ...wrongPath].every((s) => s.closed()), 'every refused upgrade closed', 3_000);
    for (const s of noToken) expect(s.received()).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[^]*Forbidden: Missing or wrong token\n$/);
    for (const s of wrongPath) expect(s.received()).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
  });
});

describe('the socket cap', () => {
  it('closes the oldest idle sockets past the cap, and a real client still connects and chats', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true, sockets: { maxSockets: 10 } });
    const first = await h.connect(server);
    const idle: Awaited<ReturnType<typeof rawSocket>>[] = [];
    for (let i = 0; i < 30; i++) idle.push(await rawSocket(server.port));
    await waitUntil(() => idle.filter((s) => s.closed()).length >= 21, 'the oldest idle sockets closed');
    // The newest idle ones are kept; the signed-in client is never the one to go.
    expect(idle.slice(-9).some((s) => s.closed())).toBe(false);
    expect(first.closed).toBeNull();
    await first.ok('chat.create', { title: 'still here' });

    const late = await h.connect(server);
    const { chatId } = await late.ok('chat.create', { title: 'late' });
    expect(server.store.state.chats[chatId]!.title).toBe('late');
    expect(server.logs.some((l) => /More than 10 sockets open/.test(l.message))).toBe(true);
  });

  it('refuses a newcomer only when every socket is a signed-in client', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true, sockets: { maxSockets: 3 } });
    const clients = [await h.connect(server), await h.connect(server), await h.connect(server)];
    const extra = await rawSocket(server.port);
    await waitUntil(() => extra.closed(), 'the newcomer refused');
    for (const c of clients) expect(c.closed).toBeNull();
    await clients[0]!.ok('chat.create', { title: 'served' });
  });
});
