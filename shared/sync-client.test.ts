import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createMemoryConnector, type MemoryConnection } from './memory-transport.ts';
import type { Op, State, ToolDefinition, ToolRunFrame } from './schemas.ts';
import { RequestError, createSyncClient, type SyncClient, type SyncClientOptions, type SyncView } from './sync-client.ts';
import { createWebSocketConnector } from './transport.ts';

const TOOLS: ToolDefinition[] = [
  { name: 'highlight', description: 'Highlights an element', inputSchema: { type: 'object', properties: {} } },
];

function makeState(): State {
  return {
    agents: [{ id: 'wisp/concierge', description: 'Helps', implemented: true, tools: [], workflows: [] }],
    chats: { c1: { id: 'c1', title: 'First', createdAt: 1, updatedAt: 1, messageCount: 2 } },
    activeChatId: 'c1',
    active: {
      chatId: 'c1',
      messages: [
        {
          id: 'm1',
          role: 'user',
          content: [{ type: 'text', text: 'Hi' }],
          metadata: { source: 'toolbar', selectedElements: [] },
          createdAt: 1,
        },
        {
          id: 'm2',
          role: 'assistant',
          agent: 'wisp/concierge',
          content: [{ type: 'text', text: 'Hel' }],
          status: 'streaming',
          createdAt: 2,
        },
      ],
    },
    run: { chatId: 'c1', agent: 'wisp/concierge', messageId: 'm2', startedAt: 2 },
  };
}

const appendText = (rev: number, value: string): { type: 'patch'; rev: number; ops: Op[] } => ({
  type: 'patch',
  rev,
  ops: [{ op: 'append', path: '/active/messages/1/content/0/text', value }],
});

function setup(overrides: Partial<SyncClientOptions> = {}) {
  const net = createMemoryConnector();
  const warnings: string[] = [];
  const client = createSyncClient({
    connect: net.connect,
    client: { kind: 'toolbar', name: 'test toolbar' },
    random: () => 0.5,
    onWarning: (m) => warnings.push(m),
    ...overrides,
  });
  client.start();
  return { net, client, warnings };
}

/** Plays the server's side of a fresh handshake on `conn`. */
function welcome(conn: MemoryConnection, opts: { session?: string; rev?: number; state?: State | null } = {}) {
  if (!conn.isOpen) conn.open();
  const state = opts.state === undefined ? makeState() : opts.state;
  conn.send({ type: 'welcome', protocol: 1, session: opts.session ?? 's1', resumed: state === null });
  if (state) conn.send({ type: 'snapshot', rev: opts.rev ?? 1, state });
}

/** The requests the client sent on `conn`, without the hello. */
const requestsOn = (conn: MemoryConnection) =>
  conn.sent.filter((f): f is Record<string, unknown> & { id: string } => (f as { type: string }).type !== 'hello');

/** Lets promise callbacks run (tool runs and their results are asynchronous). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (condition()) return;
    await Promise.resolve();
  }
  throw new Error('condition not reached');
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('handshake', () => {
  it('sends hello with protocol, client, tools and no resume on the first connection', () => {
    const { net } = setup({ tools: TOOLS });
    const conn = net.latest();
    expect(conn.sent).toEqual([]);
    conn.open();
    expect(conn.sent).toEqual([
      { type: 'hello', protocol: 1, client: { kind: 'toolbar', name: 'test toolbar' }, tools: TOOLS },
    ]);
  });

  it('leaves tools out of hello when none are given', () => {
    const { net } = setup({ client: { kind: 'cli' } });
    net.latest().open();
    expect(net.latest().sent).toEqual([{ type: 'hello', protocol: 1, client: { kind: 'cli' } }]);
  });

  it('does nothing until start() and connects once however often start() is called', () => {
    const net = createMemoryConnector();
    const client = createSyncClient({ connect: net.connect, client: { kind: 'cli' } });
    expect(net.connections).toHaveLength(0);
    client.start();
    client.start();
    expect(net.connections).toHaveLength(1);
  });

  it('reads connecting, then connected after the welcome, with the snapshot state and rev', () => {
    const { net, client } = setup();
    expect(client.getSnapshot()).toMatchObject({ status: 'connecting', state: null, rev: 0, session: null });
    const state = makeState();
    welcome(net.latest(), { session: 'sess', rev: 7, state });
    expect(client.getSnapshot()).toMatchObject({ status: 'connected', state, rev: 7, session: 'sess', error: null });
  });

  it('sends hello once an auto-opening memory transport opens', async () => {
    const net = createMemoryConnector({ autoOpen: true });
    createSyncClient({ connect: net.connect, client: { kind: 'cli' } }).start();
    expect(net.latest().isOpen).toBe(false);
    await Promise.resolve();
    expect(net.latest().sent).toEqual([{ type: 'hello', protocol: 1, client: { kind: 'cli' } }]);
  });

  it('sends hello when the transport opens inside connect()', () => {
    const sent: string[] = [];
    const client = createSyncClient({
      client: { kind: 'other' },
      connect: (handlers) => {
        handlers.onOpen();
        return { send: (d) => sent.push(d), close: () => {} };
      },
    });
    client.start();
    expect(sent.map((d) => JSON.parse(d).type)).toEqual(['hello']);
  });

  it('retries when the server never welcomes', () => {
    const { net, client } = setup({ requestTimeoutMs: 1000 });
    net.latest().open();
    vi.advanceTimersByTime(1000);
    expect(net.latest().closedByClient).not.toBeNull();
    expect(client.getSnapshot()).toMatchObject({ attempt: 1, error: { code: 'timeout' } });
    vi.advanceTimersByTime(250); // random 0.5 * min(10000, 250 * 2^1)
    expect(net.connections).toHaveLength(2);
  });
});

describe('state from snapshots and patches', () => {
  it('applies patches in order and notifies subscribers', () => {
    const { net, client } = setup();
    welcome(net.latest());
    const seen: string[] = [];
    client.subscribe(() => {
      const m = client.getSnapshot().state!.active!.messages[1]!;
      seen.push(m.role === 'assistant' && m.content[0]!.type === 'text' ? m.content[0]!.text : '?');
    });
    net.latest().send(appendText(2, 'lo'));
    net.latest().send(appendText(3, ' world'));
    expect(seen).toEqual(['Hello', 'Hello world']);
    expect(client.getSnapshot().rev).toBe(3);
  });

  it('counts the rev of patches that leave it out, and still checks explicit ones', () => {
    const { net, client, warnings } = setup();
    welcome(net.latest(), { rev: 5 });
    const { rev: _, ...implicit } = appendText(0, 'lo');
    net.latest().send(implicit);
    net.latest().send({ ...implicit, ops: [{ op: 'append', path: '/active/messages/1/content/0/text', value: '!' }] });
    expect(client.getSnapshot().rev).toBe(7);
    const m = client.getSnapshot().state!.active!.messages[1]!;
    expect(m.role === 'assistant' && m.content[0]!.type === 'text' ? m.content[0]!.text : '?').toBe('Hello!');
    // An explicit rev that skips one is still a gap: the client resumes from the rev it counted.
    net.latest().send(appendText(9, ' lost'));
    expect(warnings.some((w) => /missed patches 8\.\.8/.test(w))).toBe(true);
    vi.advanceTimersByTime(0);
    net.latest().open();
    expect(net.latest().sent[0]).toMatchObject({ type: 'hello', resume: { rev: 7 } });
  });

  it('keeps the identity of every branch a patch did not touch', () => {
    const { net, client } = setup();
    welcome(net.latest());
    const before = client.getSnapshot().state!;
    net.latest().send(appendText(2, 'lo'));
    const after = client.getSnapshot().state!;
    expect(after).not.toBe(before);
    expect(after.agents).toBe(before.agents);
    expect(after.chats).toBe(before.chats);
    expect(after.run).toBe(before.run);
    expect(after.active!.messages[0]).toBe(before.active!.messages[0]);
    expect(after.active!.messages[1]).not.toBe(before.active!.messages[1]);
  });

  it('returns the same snapshot object until something changes', () => {
    const { net, client, warnings } = setup();
    welcome(net.latest());
    const listener = vi.fn();
    client.subscribe(listener);
    const snap = client.getSnapshot();
    expect(client.getSnapshot()).toBe(snap);
    net.latest().send(appendText(1, 'old')); // a duplicate
    net.latest().send('not json');
    net.latest().send({ type: 'mystery' });
    expect(client.getSnapshot()).toBe(snap);
    expect(listener).not.toHaveBeenCalled();
    expect(warnings).toHaveLength(2);
    net.latest().send(appendText(2, 'lo'));
    expect(client.getSnapshot()).not.toBe(snap);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('ignores a patch whose rev it already has', () => {
    const { net, client } = setup();
    welcome(net.latest(), { rev: 5 });
    net.latest().send(appendText(6, 'lo'));
    const snap = client.getSnapshot();
    net.latest().send(appendText(6, 'lo'));
    net.latest().send(appendText(4, 'older'));
    expect(client.getSnapshot()).toBe(snap);
    expect(net.connections).toHaveLength(1);
    expect(net.latest().isOpen).toBe(true);
  });

  it('reconnects at once with resume on a rev gap, keeps the old state visible and catches up', () => {
    const { net, client, warnings } = setup();
    const first = net.latest();
    welcome(first, { session: 's1', rev: 1 });
    const stale = client.getSnapshot().state;
    first.send(appendText(3, 'lo'));
    expect(first.closedByClient).not.toBeNull();
    expect(client.getSnapshot()).toMatchObject({ status: 'reconnecting', state: stale, rev: 1 });
    expect(warnings.some((w) => w.includes('missed patches 2..2'))).toBe(true);

    vi.advanceTimersByTime(0);
    const second = net.latest();
    expect(second).not.toBe(first);
    second.open();
    expect(second.sent[0]).toMatchObject({ type: 'hello', resume: { session: 's1', rev: 1 } });
    second.send({ type: 'welcome', protocol: 1, session: 's1', resumed: true });
    second.send(appendText(2, 'lo'));
    second.send(appendText(3, '!'));
    const m = client.getSnapshot().state!.active!.messages[1]!;
    expect(m.content[0]).toEqual({ type: 'text', text: 'Hello!' });
    expect(client.getSnapshot()).toMatchObject({ status: 'connected', rev: 3 });
  });

  it('asks for a fresh snapshot when a patch does not apply, showing the old state meanwhile', () => {
    const { net, client } = setup();
    const first = net.latest();
    welcome(first, { rev: 1 });
    const stale = client.getSnapshot().state;
    first.send({ type: 'patch', rev: 2, ops: [{ op: 'append', path: '/chats/nope/title', value: 'x' }] });
    expect(first.closedByClient).not.toBeNull();
    expect(client.getSnapshot()).toMatchObject({ status: 'reconnecting', state: stale, rev: 1 });

    vi.advanceTimersByTime(0);
    const second = net.latest();
    second.open();
    // Replaying the same patch onto the same state would fail the same way: no resume.
    expect(second.sent[0]).not.toHaveProperty('resume');
    const fresh = makeState();
    fresh.chats.c1!.title = 'Fresh';
    welcome(second, { rev: 9, state: fresh });
    expect(client.getSnapshot()).toMatchObject({ status: 'connected', rev: 9 });
    expect(client.getSnapshot().state!.chats.c1!.title).toBe('Fresh');
  });

  it('backs off when every resync hits another unappliable patch', () => {
    const { net } = setup({ random: () => 1, backoff: { initialMs: 100, maxMs: 10_000 } });
    const bad = { type: 'patch', rev: 2, ops: [{ op: 'remove', path: '/nope' }] };
    welcome(net.latest());
    net.latest().send(bad);
    vi.advanceTimersByTime(0);
    expect(net.connections).toHaveLength(2);
    welcome(net.latest());
    net.latest().send(bad);
    vi.advanceTimersByTime(199);
    expect(net.connections).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(net.connections).toHaveLength(3);
  });

  it('resumes from its rev after a drop, and takes a new session\'s snapshot even if its rev is lower', () => {
    const { net, client } = setup();
    welcome(net.latest(), { session: 'old', rev: 40 });
    net.latest().close(1006);
    vi.advanceTimersByTime(10_000);
    const conn = net.latest();
    conn.open();
    expect(conn.sent[0]).toMatchObject({ resume: { session: 'old', rev: 40 } });
    conn.send({ type: 'welcome', protocol: 1, session: 'new', resumed: false });
    const kept = client.getSnapshot().state;
    expect(kept).not.toBeNull();
    conn.send(appendText(41, 'lo')); // must wait for the snapshot
    expect(client.getSnapshot().state).toBe(kept);
    conn.send({ type: 'snapshot', rev: 2, state: makeState() });
    expect(client.getSnapshot()).toMatchObject({ session: 'new', rev: 2 });
    conn.send(appendText(3, 'lo'));
    expect(client.getSnapshot().rev).toBe(3);
  });

  it('resumes from the session its state came from when a new session dropped before its snapshot', () => {
    const { net } = setup({ random: () => 0 });
    welcome(net.latest(), { session: 'old', rev: 40 });
    net.latest().close(1006);
    vi.advanceTimersByTime(0);
    net.latest().open();
    net.latest().send({ type: 'welcome', protocol: 1, session: 'new', resumed: false });
    net.latest().close(1006);
    vi.advanceTimersByTime(0);
    net.latest().open();
    expect(net.latest().sent[0]).toMatchObject({ resume: { session: 'old', rev: 40 } });
  });

  it('ignores an invalid snapshot and reports it', () => {
    const { net, client, warnings } = setup();
    welcome(net.latest(), { state: null });
    net.latest().send({ type: 'snapshot', rev: 1, state: { ...makeState(), activeChatId: 'bad id!' } });
    expect(client.getSnapshot()).toMatchObject({ state: null, error: { code: 'invalid_message' } });
    expect(client.getSnapshot().error!.message).toContain('activeChatId');
    expect(warnings).toHaveLength(1);
  });

  it('skips the state check when validateSnapshots is false', () => {
    const { net, client } = setup({ validateSnapshots: false });
    welcome(net.latest(), { state: null });
    net.latest().send({ type: 'snapshot', rev: 1, state: { ...makeState(), activeChatId: 'bad id!' } });
    expect(client.getSnapshot().state!.activeChatId).toBe('bad id!');
    net.latest().send({ type: 'snapshot', rev: 2, state: ['not', 'an', 'object'] });
    expect(client.getSnapshot().rev).toBe(1);
  });

  it('keeps state keys it does not know, so a newer server\'s patches still apply', () => {
    const { net, client } = setup();
    welcome(net.latest(), { state: null });
    net.latest().send({ type: 'snapshot', rev: 1, state: { ...makeState(), extra: { n: 1 } } });
    net.latest().send({ type: 'patch', rev: 2, ops: [{ op: 'replace', path: '/extra/n', value: 2 }] });
    expect(client.getSnapshot().rev).toBe(2);
    expect(client.getSnapshot().state).toHaveProperty('extra', { n: 2 });
  });

  it('ignores a patch frame with a malformed op', () => {
    const { net, client, warnings } = setup();
    welcome(net.latest());
    const snap = client.getSnapshot();
    net.latest().send({ type: 'patch', rev: 2, ops: [{ op: 'append', path: '/x', value: 5 }] });
    net.latest().send({ type: 'patch', rev: 2, ops: [{ op: 'move', from: '/a', path: '/b' }] });
    expect(client.getSnapshot()).toBe(snap);
    expect(warnings).toHaveLength(2);
    expect(net.connections).toHaveLength(1);
  });
});

describe('requests', () => {
  it('correlates each result with its request, whatever the order', async () => {
    const { net, client } = setup();
    welcome(net.latest());
    const created = client.request('chat.create', { title: 'New' });
    const stopped = client.request('run.stop', { chatId: 'c1' });
    const [a, b] = requestsOn(net.latest());
    expect(a).toMatchObject({ type: 'chat.create', title: 'New' });
    expect(b).toMatchObject({ type: 'run.stop', chatId: 'c1' });
    expect(a!.id).not.toBe(b!.id);
    net.latest().send({ type: 'result', id: b!.id, ok: true, value: { stopped: false } });
    net.latest().send({ type: 'result', id: a!.id, ok: true, value: { chatId: 'c2' } });
    await expect(created).resolves.toEqual({ chatId: 'c2' });
    await expect(stopped).resolves.toEqual({ stopped: false });
  });

  it('does not let the payload override type or id', () => {
    const { net, client } = setup();
    welcome(net.latest());
    void client.request('chat.switch', { chatId: 'c1', type: 'run.stop', id: 'mine' } as never);
    const [frame] = requestsOn(net.latest());
    expect(frame).toMatchObject({ type: 'chat.switch', chatId: 'c1' });
    expect(frame!.id).not.toBe('mine');
  });

  it('rejects with the server\'s code, message and path on ok:false', async () => {
    const { net, client } = setup();
    welcome(net.latest());
    const sent = client.request('message.send', {
      chatId: 'c1',
      content: [{ type: 'text', text: '' }],
      metadata: { source: 'toolbar', selectedElements: [] },
    });
    const [frame] = requestsOn(net.latest());
    net.latest().send({
      type: 'result',
      id: frame!.id,
      ok: false,
      error: { code: 'invalid_message', message: 'content.0.text: Invalid', path: 'content.0.text' },
    });
    const err = await sent.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect(err).toMatchObject({ code: 'invalid_message', message: 'content.0.text: Invalid', path: 'content.0.text' });
  });

  it('rejects with timeout when no result comes, and ignores a late one', async () => {
    const { net, client } = setup({ requestTimeoutMs: 500 });
    welcome(net.latest());
    const p = client.request('chat.switch', { chatId: 'c1' });
    const caught = p.catch((e: unknown) => e);
    vi.advanceTimersByTime(499);
    vi.advanceTimersByTime(1);
    expect(await caught).toMatchObject({ code: 'timeout' });
    const snap = client.getSnapshot();
    net.latest().send({ type: 'result', id: requestsOn(net.latest())[0]!.id, ok: true });
    expect(client.getSnapshot()).toBe(snap);
  });

  it('rejects at once with offline while not connected', async () => {
    const { net, client } = setup();
    await expect(client.request('chat.switch', { chatId: 'c1' })).rejects.toMatchObject({ code: 'offline' });
    net.latest().open(); // open but not yet welcomed
    await expect(client.request('chat.switch', { chatId: 'c1' })).rejects.toMatchObject({ code: 'offline' });
    expect(requestsOn(net.latest())).toEqual([]);
  });

  it('rejects every pending request with disconnected when the connection drops', async () => {
    const { net, client } = setup();
    welcome(net.latest());
    const a = client.request('chat.switch', { chatId: 'c1' }).catch((e: unknown) => e);
    const b = client.request('run.stop', { chatId: 'c1' }).catch((e: unknown) => e);
    net.latest().close(1006);
    expect(await a).toMatchObject({ code: 'disconnected' });
    expect(await b).toMatchObject({ code: 'disconnected' });
  });

  it('rejects pending requests with disconnected when it drops the connection to resync', async () => {
    const { net, client } = setup();
    welcome(net.latest());
    const a = client.request('chat.switch', { chatId: 'c1' }).catch((e: unknown) => e);
    net.latest().send(appendText(5, 'x'));
    expect(await a).toMatchObject({ code: 'disconnected' });
  });

  it('refuses a request larger than the frame limit without sending it', async () => {
    const { net, client } = setup();
    welcome(net.latest());
    const text = 'x'.repeat(9 * 1024 * 1024);
    const p = client.request('message.send', {
      chatId: 'c1',
      content: [{ type: 'text', text }],
      metadata: { source: 'toolbar', selectedElements: [] },
    });
    await expect(p).rejects.toMatchObject({ code: 'too_large' });
    expect(requestsOn(net.latest())).toEqual([]);
    expect(net.latest().isOpen).toBe(true);
  });

  it('refuses a payload that is not JSON-serializable', async () => {
    const { net, client } = setup();
    welcome(net.latest());
    const output: Record<string, unknown> = {};
    output.self = output;
    const p = client.request('tool.result', { chatId: 'c1', toolCallId: 't1', output });
    await expect(p).rejects.toMatchObject({ code: 'invalid_message' });
  });
});

describe('reconnecting', () => {
  const backoff = { initialMs: 100, maxMs: 1000 };

  /** Fails the newest connection before it opens and returns how long the client waited to retry. */
  function failAndMeasure(net: ReturnType<typeof createMemoryConnector>): number {
    const count = net.connections.length;
    net.latest().close(1006);
    let waited = 0;
    while (net.connections.length === count) {
      vi.advanceTimersByTime(1);
      waited++;
      if (waited > 100_000) throw new Error('no reconnect');
    }
    return waited;
  }

  it('backs off exponentially with full jitter, caps the delay and reads offline after 3 failures', () => {
    const { net, client } = setup({ backoff, random: () => 0.5 });
    const statuses: string[] = [];
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      delays.push(failAndMeasure(net));
      statuses.push(client.getSnapshot().status);
    }
    // 0.5 * min(1000, 100 * 2^attempt) for attempts 1..5
    expect(delays).toEqual([100, 200, 400, 500, 500]);
    expect(statuses).toEqual(['connecting', 'connecting', 'offline', 'offline', 'offline']);
    expect(client.getSnapshot().attempt).toBe(5);
  });

  it('draws every delay from the injected random()', () => {
    const draws = [0.1, 0.9, 0.25];
    const random = vi.fn(() => draws.shift() ?? 1);
    const { net } = setup({ backoff, random });
    expect([failAndMeasure(net), failAndMeasure(net), failAndMeasure(net)]).toEqual([20, 360, 200]);
    expect(random).toHaveBeenCalledTimes(3);
  });

  it('resets the attempt count after a welcome, and reads reconnecting after a drop', () => {
    const { net, client } = setup({ backoff, random: () => 1 });
    failAndMeasure(net);
    failAndMeasure(net);
    failAndMeasure(net);
    expect(client.getSnapshot()).toMatchObject({ status: 'offline', attempt: 3 });
    welcome(net.latest());
    expect(client.getSnapshot()).toMatchObject({ status: 'connected', attempt: 0, error: null });

    const count = net.connections.length;
    net.latest().close(1006, 'gone');
    expect(client.getSnapshot()).toMatchObject({
      status: 'reconnecting',
      attempt: 0,
      error: { code: 'disconnected', message: 'Connection closed (1006: gone)' },
    });
    vi.advanceTimersByTime(99);
    expect(net.connections).toHaveLength(count);
    vi.advanceTimersByTime(1);
    expect(net.connections).toHaveLength(count + 1);
    expect(failAndMeasure(net)).toBe(200);
    expect(client.getSnapshot()).toMatchObject({ status: 'reconnecting', attempt: 1 });
  });

  it('retries when connect() itself throws', () => {
    let calls = 0;
    const net = createMemoryConnector();
    const client = createSyncClient({
      client: { kind: 'cli' },
      random: () => 1,
      connect: (handlers) => {
        if (++calls === 1) throw new Error('bad url');
        return net.connect(handlers);
      },
    });
    client.start();
    expect(client.getSnapshot()).toMatchObject({ attempt: 1, error: { message: 'Cannot connect: bad url' } });
    vi.advanceTimersByTime(500);
    expect(net.connections).toHaveLength(1);
  });

  it('stops for good on unsupported_protocol', () => {
    const { net, client } = setup();
    const conn = net.latest();
    conn.open();
    conn.send({ type: 'error', code: 'unsupported_protocol', message: 'Protocol 1 is not supported' });
    conn.close(4001, 'unsupported protocol');
    expect(client.getSnapshot()).toMatchObject({
      status: 'closed',
      error: { code: 'unsupported_protocol', message: 'Protocol 1 is not supported' },
    });
    vi.advanceTimersByTime(60_000);
    expect(net.connections).toHaveLength(1);
  });

  it('stops for good on close 4001 even without an error frame', () => {
    const { net, client } = setup();
    net.latest().open();
    net.latest().close(4001);
    expect(client.getSnapshot().status).toBe('closed');
    vi.advanceTimersByTime(60_000);
    expect(net.connections).toHaveLength(1);
  });

  it('stops when the server refuses the hello with 1008', () => {
    const { net, client } = setup({ tools: [{ name: '', description: '', inputSchema: {} }] });
    const conn = net.latest();
    conn.open();
    conn.send({ type: 'error', code: 'invalid_message', message: 'tools.0.name: Invalid length', path: 'tools.0.name' });
    conn.close(1008);
    expect(client.getSnapshot()).toMatchObject({
      status: 'closed',
      error: { code: 'invalid_message', message: 'tools.0.name: Invalid length' },
    });
    vi.advanceTimersByTime(60_000);
    expect(net.connections).toHaveLength(1);
  });

  it('reconnects after a 1008 that comes after the welcome', () => {
    const { net } = setup();
    welcome(net.latest());
    net.latest().close(1008);
    vi.advanceTimersByTime(10_000);
    expect(net.connections).toHaveLength(2);
  });

  it('keeps an error frame visible without dropping the connection', () => {
    const { net, client } = setup();
    welcome(net.latest());
    net.latest().send({ type: 'error', code: 'bad_json', message: 'Unexpected token' });
    expect(client.getSnapshot()).toMatchObject({ status: 'connected', error: { code: 'bad_json' } });
    expect(net.latest().isOpen).toBe(true);
  });

  it('close() stops reconnecting, closes the transport and rejects pending requests with closed', async () => {
    const { net, client } = setup();
    welcome(net.latest());
    const p = client.request('chat.switch', { chatId: 'c1' }).catch((e: unknown) => e);
    client.close();
    expect(await p).toMatchObject({ code: 'closed' });
    expect(net.latest().closedByClient).toEqual({ code: 1000, reason: 'client closed' });
    expect(client.getSnapshot().status).toBe('closed');
    await expect(client.request('chat.switch', { chatId: 'c1' })).rejects.toMatchObject({ code: 'closed' });
    await Promise.resolve(); // the transport's close event arrives a microtask later
    vi.advanceTimersByTime(60_000);
    expect(net.connections).toHaveLength(1);
    expect(client.getSnapshot().status).toBe('closed');
  });

  it('close() during a backoff wait cancels the retry', () => {
    const { net, client } = setup();
    net.latest().close(1006);
    client.close();
    vi.advanceTimersByTime(60_000);
    expect(net.connections).toHaveLength(1);
  });
});

describe('tool runs', () => {
  const run = (toolCallId = 't1'): ToolRunFrame => ({
    type: 'tool.run',
    chatId: 'c1',
    toolCallId,
    toolName: 'highlight',
    input: { selector: 'h1' },
  });

  function deferred<T>() {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  }

  it('runs a call once, even when tool.run is sent again, and sends its result', async () => {
    const d = deferred<{ output: unknown }>();
    const onToolRun = vi.fn((_run: ToolRunFrame, _signal: AbortSignal) => d.promise);
    const { net } = setup({ onToolRun, tools: TOOLS });
    welcome(net.latest());
    net.latest().send(run());
    net.latest().send(run());
    expect(onToolRun).toHaveBeenCalledTimes(1);
    expect(onToolRun.mock.calls[0]![0]).toEqual(run());
    d.resolve({ output: { highlighted: 1 } });
    await until(() => requestsOn(net.latest()).length > 0);
    expect(requestsOn(net.latest())).toEqual([
      expect.objectContaining({ type: 'tool.result', chatId: 'c1', toolCallId: 't1', output: { highlighted: 1 }, isError: false }),
    ]);
  });

  it('answers a re-dispatch after a reconnect with the stored result instead of running again', async () => {
    const onToolRun = vi.fn(async () => ({ output: 'done' }));
    const { net, warnings } = setup({ onToolRun });
    welcome(net.latest());
    net.latest().send(run());
    net.latest().close(1006); // the result cannot be sent now
    await until(() => warnings.some((w) => w.includes('tool.result for t1 failed: offline')));
    vi.advanceTimersByTime(10_000);
    welcome(net.latest());
    net.latest().send(run());
    expect(onToolRun).toHaveBeenCalledTimes(1);
    expect(requestsOn(net.latest())).toEqual([
      expect.objectContaining({ type: 'tool.result', toolCallId: 't1', output: 'done', isError: false }),
    ]);
  });

  it('aborts the signal on tool.cancel and sends no result', async () => {
    const d = deferred<{ output: unknown }>();
    let signal: AbortSignal | undefined;
    const { net } = setup({
      onToolRun: (_run, s) => {
        signal = s;
        return d.promise;
      },
    });
    welcome(net.latest());
    net.latest().send(run());
    net.latest().send({ type: 'tool.cancel', chatId: 'c1', toolCallId: 'other' });
    expect(signal!.aborted).toBe(false);
    net.latest().send({ type: 'tool.cancel', chatId: 'c1', toolCallId: 't1' });
    expect(signal!.aborted).toBe(true);
    d.resolve({ output: 'too late' });
    await d.promise;
    await Promise.resolve();
    await Promise.resolve();
    expect(requestsOn(net.latest())).toEqual([]);
  });

  it('aborts running calls on close()', () => {
    let signal: AbortSignal | undefined;
    const { net, client } = setup({
      onToolRun: (_run, s) => {
        signal = s;
        return new Promise(() => {});
      },
    });
    welcome(net.latest());
    net.latest().send(run());
    client.close();
    expect(signal!.aborted).toBe(true);
  });

  it('sends isError with the message when the tool throws or rejects', async () => {
    const { net } = setup({
      onToolRun: async (r) => {
        if (r.toolCallId === 'sync') throw new Error('No element matches h1');
        return Promise.reject(new Error('Rejected'));
      },
    });
    welcome(net.latest());
    net.latest().send(run('sync'));
    net.latest().send(run('async'));
    await until(() => requestsOn(net.latest()).length === 2);
    expect(requestsOn(net.latest())).toEqual([
      expect.objectContaining({ toolCallId: 'sync', output: 'No element matches h1', isError: true }),
      expect.objectContaining({ toolCallId: 'async', output: 'Rejected', isError: true }),
    ]);
  });

  it('sends isError when a synchronous handler throws before returning a promise', async () => {
    const { net } = setup({
      onToolRun: () => {
        throw new Error('boom');
      },
    });
    welcome(net.latest());
    net.latest().send(run());
    await until(() => requestsOn(net.latest()).length === 1);
    expect(requestsOn(net.latest())[0]).toMatchObject({ output: 'boom', isError: true });
  });

  it('answers that it cannot run tools when no onToolRun is given', () => {
    const { net } = setup();
    welcome(net.latest());
    net.latest().send(run());
    expect(requestsOn(net.latest())).toEqual([
      expect.objectContaining({ type: 'tool.result', toolCallId: 't1', output: 'This client cannot run tools', isError: true }),
    ]);
  });

  it('reports an output that cannot be sent as JSON as an error', async () => {
    const { net } = setup({ onToolRun: async () => ({ output: { big: 1n } }) });
    welcome(net.latest());
    net.latest().send(run());
    await until(() => requestsOn(net.latest()).length === 1);
    expect(requestsOn(net.latest())[0]).toMatchObject({ isError: true });
    expect(String(requestsOn(net.latest())[0]!.output)).toContain('cannot be sent as JSON');
  });

  it('reports a refused tool.result through onWarning', async () => {
    const { net, warnings } = setup({ onToolRun: async () => ({ output: 1 }) });
    welcome(net.latest());
    net.latest().send(run());
    await until(() => requestsOn(net.latest()).length === 1);
    const [frame] = requestsOn(net.latest());
    net.latest().send({
      type: 'result',
      id: frame!.id,
      ok: false,
      error: { code: 'already_resolved', message: 'The call has a result' },
    });
    await until(() => warnings.length > 0);
    expect(warnings).toEqual(['tool.result for t1 failed: already_resolved: The call has a result']);
  });

  it('remembers at most 1000 calls', async () => {
    const onToolRun = vi.fn(async () => ({ output: null }));
    const { net } = setup({ onToolRun });
    welcome(net.latest());
    for (let i = 0; i <= 1000; i++) net.latest().send(run(`t${i}`));
    net.latest().send(run('t1000')); // still remembered
    expect(onToolRun).toHaveBeenCalledTimes(1001);
    net.latest().send(run('t0')); // forgotten, so it runs again
    expect(onToolRun).toHaveBeenCalledTimes(1002);
  });
});

describe('subscribe', () => {
  it('stops calling a listener after it unsubscribes', () => {
    const { net, client } = setup();
    const listener = vi.fn();
    const unsubscribe = client.subscribe(listener);
    net.latest().open();
    net.latest().send({ type: 'welcome', protocol: 1, session: 's', resumed: false });
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    net.latest().send({ type: 'snapshot', rev: 1, state: makeState() });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('over a real WebSocket', () => {
  let wss: WebSocketServer;
  let client: SyncClient | undefined;

  beforeEach(async () => {
    vi.useRealTimers();
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  });
  afterEach(async () => {
    client?.close();
    for (const socket of wss.clients) socket.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });

  function waitForView(c: SyncClient, predicate: (view: SyncView) => boolean): Promise<SyncView> {
    return new Promise((resolve) => {
      const check = () => {
        if (!predicate(c.getSnapshot())) return;
        unsubscribe();
        resolve(c.getSnapshot());
      };
      const unsubscribe = c.subscribe(check);
      check();
    });
  }

  it('syncs, correlates a request with its result after its patch, and resumes after a drop', async () => {
    const hellos: unknown[] = [];
    let rev = 1;
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data));
        if (frame.type === 'hello') {
          hellos.push(frame);
          const resumed = frame.resume?.session === 'S' && frame.resume.rev === rev;
          socket.send(JSON.stringify({ type: 'welcome', protocol: 1, session: 'S', resumed }));
          if (!resumed) socket.send(JSON.stringify({ type: 'snapshot', rev, state: makeState() }));
        } else if (frame.type === 'chat.rename') {
          rev++;
          const ops = [{ op: 'replace', path: `/chats/${frame.chatId}/title`, value: frame.title }];
          socket.send(JSON.stringify({ type: 'patch', rev, ops }));
          socket.send(JSON.stringify({ type: 'result', id: frame.id, ok: true }));
        }
      });
    });
    const { port } = wss.address() as { port: number };
    client = createSyncClient({
      connect: createWebSocketConnector(`ws://127.0.0.1:${port}/ws?token=t`, WebSocket),
      client: { kind: 'cli' },
      random: () => 0,
    });
    client.start();
    await waitForView(client, (view) => view.status === 'connected' && view.state !== null);

    await expect(client.request('chat.rename', { chatId: 'c1', title: 'Renamed' })).resolves.toBeUndefined();
    expect(client.getSnapshot()).toMatchObject({ rev: 2, state: { chats: { c1: { title: 'Renamed' } } } });

    for (const socket of wss.clients) socket.terminate();
    await waitForView(client, (view) => view.status === 'reconnecting');
    await waitForView(client, (view) => view.status === 'connected');
    expect(hellos[1]).toMatchObject({ resume: { session: 'S', rev: 2 } });
    expect(client.getSnapshot()).toMatchObject({ rev: 2, state: { chats: { c1: { title: 'Renamed' } } } });
  });
});
