import { describe, expect, it } from 'vitest';
import { expectErrorFrame, expectUnchanged, useHarness, waitForLog, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();

const hello = (extra: Record<string, unknown> = {}) => JSON.stringify({ type: 'hello', protocol: 1, client: { kind: 'other' }, ...extra });

describe('handshake over a real socket', () => {
  it('answers hello with a welcome, then one snapshot equal to the server state', async () => {
    const server = await h.start();
    const client = await h.connect(server, { noHello: true });
    client.sendRaw(hello());
    await client.next('snapshot');
    expect(client.frames.map((f) => f.type)).toEqual(['welcome', 'snapshot']);
    expect(client.frames[0]).toEqual({ type: 'welcome', protocol: 1, session: server.store.session, resumed: false });
    expect(client.frames[1]!.rev).toBe(server.store.rev);
    expect(client.state).toEqual(server.store.state);
  });

  it('closes with 1008 after an invalid_message error when the first frame is a request, and runs nothing', async () => {
    const server = await h.start();
    const client = await h.connect(server, { noHello: true });
    await expectUnchanged(server, [], async () => {
      client.sendJson({ type: 'chat.create', id: 'r1', title: 'sneaky' });
      const closed = await client.waitClosed();
      expect(closed.code).toBe(1008);
    });
    const errors = client.framesOf('error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ type: 'error', code: 'invalid_message' });
    expect(client.framesOf('result')).toEqual([]);
    expect(Object.keys(server.store.state.chats)).toEqual([]);
  });

  it('closes with 1008 after a bad_json error when the first frame does not parse', async () => {
    const server = await h.start();
    const client = await h.connect(server, { noHello: true });
    client.sendRaw('{"type":"hello",');
    const closed = await client.waitClosed();
    expect(closed.code).toBe(1008);
    expect(client.frames).toEqual([expect.objectContaining({ type: 'error', code: 'bad_json' })]);
  });

  it('closes with 1008 when the first frame is binary', async () => {
    const server = await h.start();
    const client = await h.connect(server, { noHello: true });
    client.ws.send(Buffer.from(hello()));
    expect((await client.waitClosed()).code).toBe(1008);
    expect(client.frames).toEqual([expect.objectContaining({ type: 'error', code: 'invalid_message' })]);
  });

  it('refuses a hello of another protocol version with unsupported_protocol and close 4001', async () => {
    const server = await h.start();
    const client = await h.connect(server, { noHello: true });
    client.sendRaw(JSON.stringify({ type: 'hello', protocol: 2, client: { kind: 'toolbar' } }));
    expect((await client.waitClosed()).code).toBe(4001);
    expect(client.frames).toEqual([expect.objectContaining({ type: 'error', code: 'unsupported_protocol' })]);
  });

  it('checks the protocol first: a version-2 hello that is otherwise invalid still gets unsupported_protocol and 4001', async () => {
    const server = await h.start();
    const client = await h.connect(server, { noHello: true });
    client.sendRaw(JSON.stringify({ type: 'hello', protocol: 2, client: 42, tools: 'many', resume: { session: 7 } }));
    expect((await client.waitClosed()).code).toBe(4001);
    expect(client.frames).toEqual([expect.objectContaining({ type: 'error', code: 'unsupported_protocol' })]);
  });

  it('survives a refused hello whose text is long and not ASCII: the close reason is the error code', async () => {
    const server = await h.start();
    const client = await h.connect(server, { noHello: true });
    client.sendRaw(JSON.stringify({ type: 'hello', protocol: 'é'.repeat(200), client: { kind: 'toolbar' } }));
    expect(await client.waitClosed()).toEqual({ code: 4001, reason: 'unsupported_protocol' });
    const other = await h.connect(server, { noHello: true });
    other.sendRaw(JSON.stringify({ type: 'hello', protocol: 1, client: { kind: 'ü'.repeat(300) } }));
    expect(await other.waitClosed()).toEqual({ code: 1008, reason: 'invalid_message' });
    // The server still serves.
    const ok = await h.connect(server);
    expect(ok.state).not.toBeNull();
  });

  it('closes a client that keeps sending bad requests with 1008', async () => {
    const server = await h.start({ limits: { maxBadFrames: 3 } });
    const client = await h.connect(server);
    for (let i = 0; i < 3; i++) client.sendJson({ type: 'no.such', id: `b${i}` });
    expect((await client.waitClosed()).code).toBe(1008);
    expect(client.frames.filter((f) => f.type === 'result' && f.error?.code === 'unknown_type')).toHaveLength(3);
  });

  it('refuses an invalid version-1 hello with invalid_message naming the path, and close 1008', async () => {
    const server = await h.start();
    const client = await h.connect(server, { noHello: true });
    client.sendRaw(JSON.stringify({ type: 'hello', protocol: 1, client: { kind: 'robot' } }));
    expect((await client.waitClosed()).code).toBe(1008);
    expect(client.frames).toEqual([expect.objectContaining({ type: 'error', code: 'invalid_message', path: 'client.kind' })]);
  });

  it('answers a second hello with invalid_message and keeps the connection', async () => {
    const server = await h.start();
    const client = await h.connect(server);
    const other = await h.connect(server);
    const framesOfOther = other.frames.length;
    await expectErrorFrame(server, client, hello(), { code: 'invalid_message', path: 'type' }, [other]);
    expect(client.closed).toBeNull();
    // Still served: a request works and the other client saw nothing of the bad frame.
    const { chatId } = await client.ok('chat.create', { title: 'after' });
    expect(client.state!.activeChatId).toBe(chatId);
    await other.waitFor(() => other.state?.activeChatId === chatId);
    expect(other.frames.slice(framesOfOther).map((f) => f.type)).toEqual(['patch']);
  });

  it('closes a client that never says hello', async () => {
    const server = await h.start({ limits: { helloTimeoutMs: 50 } });
    const client = await h.connect(server, { noHello: true });
    expect((await client.waitClosed()).code).toBe(1008);
    expect(client.frames).toEqual([expect.objectContaining({ type: 'error', code: 'invalid_message' })]);
  });

  it('keeps a client that says hello in time past the hello timeout', async () => {
    const server = await h.start({ limits: { helloTimeoutMs: 50 } });
    const client = await h.connect(server);
    // Waits well past the moment the hello timer would have fired.
    await new Promise((r) => setTimeout(r, 150));
    expect(client.closed).toBeNull();
    await client.ok('chat.create', {});
  });

  it('terminates a connection that stops answering pings, and keeps one that answers', async () => {
    const server = await h.start({ heartbeatMs: 20 });
    const alive = await h.connect(server);
    const silent = await h.connect(server);
    let pings = 0;
    alive.ws.on('ping', () => pings++);
    // A paused socket reads no ping, so it never answers with a pong.
    silent.pauseReading();
    await waitForLog(server, /missed a heartbeat/);
    await waitUntil(() => pings >= 4, 'more pings');
    silent.resumeReading();
    const closed = await silent.waitClosed();
    expect(closed.code).toBe(1006);
    expect(alive.closed).toBeNull();
    await alive.ok('chat.create', {});
  });
});
