import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../shared/limits.ts';
import { createMemoryConnector, type MemoryConnection } from '../shared/memory-transport.ts';
import type { State } from '../shared/schemas.ts';
import { createSyncClient, type SyncClient } from '../shared/sync-client.ts';
import { createActions, type ActionsEnv } from './actions.ts';
import { selectToolPicks } from './selectors.ts';
import { bindSendQueue } from './send-queue.ts';
import { createToolbarStore, type ToolbarStore } from './store.ts';
import { makeState } from './test-fixtures.ts';

const METADATA = {
  url: 'http://localhost:5173/',
  title: 'App',
  viewport: { width: 1000, height: 700 },
  devicePixelRatio: 2,
  userAgent: 'test',
  locale: 'en-US',
};

interface Frame {
  type: string;
  id: string;
  [key: string]: unknown;
}

let client: SyncClient | null = null;
afterEach(() => client?.close());

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

async function setup(state: State = makeState(), env: Pick<ActionsEnv, 'takePickPictures'> = {}) {
  const net = createMemoryConnector({ autoOpen: true });
  client = createSyncClient({ connect: net.connect, client: { kind: 'toolbar' }, requestTimeoutMs: 60_000 });
  const { store } = createToolbarStore({ client });
  const actions = createActions({
    client,
    store,
    collectMetadata: () => METADATA,
    describePicked: (p) => p.info,
    ...env,
  });
  client.start();
  await flush();
  const conn = net.latest();
  conn.send({ type: 'welcome', protocol: 1, session: 's1', resumed: false });
  conn.send({ type: 'snapshot', rev: 1, state });
  return { conn, store, actions };
}

/** The requests the client sent (everything after hello). */
function requests(conn: MemoryConnection): Frame[] {
  return conn.sent.slice(1) as Frame[];
}

function lastRequest(conn: MemoryConnection): Frame {
  const all = requests(conn);
  return all[all.length - 1]!;
}

function reply(conn: MemoryConnection, frame: Frame, value?: unknown) {
  conn.send({ type: 'result', id: frame.id, ok: true, ...(value === undefined ? {} : { value }) });
}

function refuse(conn: MemoryConnection, frame: Frame, code: string, message: string) {
  conn.send({ type: 'result', id: frame.id, ok: false, error: { code, message } });
}

function setDraft(store: ToolbarStore, text: string) {
  store.getState().setDraft(text);
}

describe('send', () => {
  it('sends the draft with browser metadata, selected elements, the agent and a clientMessageId', async () => {
    const { conn, store, actions } = await setup();
    setDraft(store, 'Why is this button grey?');
    store.getState().togglePicked({
      id: 'e1',
      node: null,
      info: { tagName: 'button', xpath: '/html/body/button', attributes: { id: 'b' }, textContent: 'Go', boundingClientRect: { x: 1, y: 2, width: 3, height: 4 } },
    });
    const sent = actions.send();
    const frame = lastRequest(conn);
    expect(frame).toMatchObject({
      type: 'message.send',
      chatId: 'c1',
      agent: 'wisp/coder',
      content: [{ type: 'text', text: 'Why is this button grey?' }],
      metadata: { source: 'toolbar', browser: METADATA, selectedElements: [{ tagName: 'button', xpath: '/html/body/button' }] },
    });
    expect(frame.clientMessageId).toMatch(/^cm_/);
    expect(store.getState().sending).toBe(true);
    reply(conn, frame, { messageId: 'm9' });
    expect(await sent).toBe(true);
    expect(store.getState()).toMatchObject({ draft: '', sending: false, composerError: null, pendingClientMessageId: null });
    // The picks went with this message: the box is empty for the next one, the agent's tools still read them.
    expect(store.getState().picked).toEqual([]);
    expect(selectToolPicks(store.getState()).map((p) => p.id)).toEqual(['e1']);
  });

  it('keeps in the box a pick made while the message was on its way, and every pick of a refused message', async () => {
    const { conn, store, actions } = await setup();
    const pick = (id: string) => ({ id, node: null, info: { tagName: 'td', xpath: `/html/body/td[${id}]`, attributes: {}, textContent: id, boundingClientRect: { x: 0, y: 0, width: 1, height: 1 } } });
    setDraft(store, 'these two');
    store.getState().togglePicked(pick('1'));
    store.getState().togglePicked(pick('2'));
    const refused = actions.send();
    refuse(conn, lastRequest(conn), 'internal', 'Something broke');
    expect(await refused).toBe(false);
    expect(store.getState().picked.map((p) => p.id)).toEqual(['1', '2']);

    const sent = actions.send();
    store.getState().togglePicked(pick('3'));
    reply(conn, lastRequest(conn), { messageId: 'm9' });
    expect(await sent).toBe(true);
    expect(store.getState().picked.map((p) => p.id)).toEqual(['3']);
    expect(store.getState().sentPicks.map((p) => p.id)).toEqual(['1', '2']);
    // Picks in the box are what the tools read first.
    expect(selectToolPicks(store.getState()).map((p) => p.id)).toEqual(['3']);
  });

  it('sends the pictures of the picks after the text, and says which picks went without one', async () => {
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const asked: string[][] = [];
    const { conn, store, actions } = await setup(makeState(), {
      takePickPictures: async (picked) => {
        asked.push(picked.map((p) => p.id));
        return { parts: [{ pick: 1, part: { type: 'image', image, mimeType: 'image/png', filename: 'pick-1-button.png' } }], missed: ['pick 2 (no longer on the page)'] };
      },
    });
    setDraft(store, 'Why?');
    for (const id of ['e1', 'e2']) {
      store.getState().togglePicked({ id, node: null, info: { tagName: 'button', xpath: `/html/body/${id}`, attributes: {}, textContent: '', boundingClientRect: { x: 0, y: 0, width: 1, height: 1 } } });
    }
    const sent = actions.send();
    await flush();
    const frame = lastRequest(conn);
    expect(asked).toEqual([['e1', 'e2']]);
    expect(frame).toMatchObject({
      type: 'message.send',
      content: [{ type: 'text', text: 'Why?' }, { type: 'image', image, mimeType: 'image/png', filename: 'pick-1-button.png' }],
      metadata: { selectedElements: [{ xpath: '/html/body/e1' }, { xpath: '/html/body/e2' }] },
    });
    reply(conn, frame, { messageId: 'm9' });
    expect(await sent).toBe(true);
    expect(store.getState()).toMatchObject({ draft: '', sending: false, composerError: 'Sent without a picture of pick 2 (no longer on the page)' });
  });

  it('takes no pictures for a message without picks', async () => {
    let asked = 0;
    const { conn, store, actions } = await setup(makeState(), { takePickPictures: async () => (asked++, { parts: [], missed: [] }) });
    setDraft(store, 'hello');
    const sent = actions.send();
    await flush();
    reply(conn, lastRequest(conn), { messageId: 'm9' });
    expect(await sent).toBe(true);
    expect(asked).toBe(0);
    expect(store.getState().composerError).toBeNull();
  });

  it('keeps the draft and shows the error when the server refuses', async () => {
    const { conn, store, actions } = await setup();
    setDraft(store, 'hello');
    const sent = actions.send();
    refuse(conn, lastRequest(conn), 'busy', 'The agent is busy');
    expect(await sent).toBe(false);
    expect(store.getState()).toMatchObject({ draft: 'hello', sending: false, composerError: 'The agent is busy' });
  });

  it('retries unchanged content with the same clientMessageId, and edited content with a new one', async () => {
    const { conn, store, actions } = await setup();
    setDraft(store, 'hello');
    const first = actions.send();
    const firstFrame = lastRequest(conn);
    refuse(conn, firstFrame, 'internal', 'Something broke');
    await first;
    const retry = actions.send();
    const retryFrame = lastRequest(conn);
    expect(retryFrame.clientMessageId).toBe(firstFrame.clientMessageId);
    refuse(conn, retryFrame, 'busy', 'busy');
    await retry;
    setDraft(store, 'hello!');
    void actions.send();
    expect(lastRequest(conn).clientMessageId).not.toBe(firstFrame.clientMessageId);
  });

  it('creates a chat first when none is active', async () => {
    const { conn, store, actions } = await setup(makeState({ activeChatId: null, active: null }));
    setDraft(store, 'first message');
    const sent = actions.send();
    const create = lastRequest(conn);
    expect(create).toMatchObject({ type: 'chat.create', agent: 'wisp/concierge' });
    conn.send({
      type: 'patch',
      rev: 2,
      ops: [
        { op: 'add', path: '/chats/c3', value: { id: 'c3', title: 'New chat', createdAt: 3, updatedAt: 3, messageCount: 0 } },
        { op: 'replace', path: '/activeChatId', value: 'c3' },
        { op: 'replace', path: '/active', value: { chatId: 'c3', messages: [] } },
      ],
    });
    reply(conn, create, { chatId: 'c3' });
    await flush();
    const send = lastRequest(conn);
    expect(send).toMatchObject({ type: 'message.send', chatId: 'c3', content: [{ type: 'text', text: 'first message' }] });
    reply(conn, send, { messageId: 'm1' });
    expect(await sent).toBe(true);
  });

  it('keeps what was typed while the message was on its way', async () => {
    const { conn, store, actions } = await setup();
    setDraft(store, 'one');
    const sent = actions.send();
    setDraft(store, 'one and two');
    reply(conn, lastRequest(conn), { messageId: 'm9' });
    await sent;
    expect(store.getState().draft).toBe('one and two');
  });

  it('sends nothing while offline and says why', async () => {
    const { conn, store, actions } = await setup();
    conn.close(1006);
    setDraft(store, 'hello');
    expect(await actions.send()).toBe(false);
    expect(store.getState().composerError).toMatch(/Connecting|Offline/);
    expect(requests(conn)).toEqual([]);
  });

  it('sends nothing for an empty composer', async () => {
    const { conn, store, actions } = await setup();
    setDraft(store, '   \n ');
    expect(await actions.send()).toBe(false);
    expect(requests(conn)).toEqual([]);
    expect(store.getState().composerError).toBeNull();
  });

  it('sends attachments as image and file parts', async () => {
    const { conn, store, actions } = await setup();
    store.getState().addAttachments([
      { id: 'a1', kind: 'image', name: 'shot.png', mimeType: 'image/png', dataUrl: 'data:image/png;base64,AAAA' },
      { id: 'a2', kind: 'file', name: 'log.txt', mimeType: 'text/plain', dataUrl: 'data:text/plain;base64,aGk=' },
    ]);
    void actions.send();
    expect(lastRequest(conn).content).toEqual([
      { type: 'image', image: 'data:image/png;base64,AAAA', mimeType: 'image/png' },
      { type: 'file', data: 'data:text/plain;base64,aGk=', filename: 'log.txt', mimeType: 'text/plain' },
    ]);
  });
});

describe('chat actions', () => {
  it('shows the agent’s refusal and changes nothing', async () => {
    const { conn, store, actions } = await setup();
    const before = store.getState().sync.state;
    const done = actions.switchChat('c2');
    expect(lastRequest(conn)).toMatchObject({ type: 'chat.switch', chatId: 'c2' });
    refuse(conn, lastRequest(conn), 'rejected', 'Finish the current task first');
    expect(await done).toBe(false);
    expect(store.getState().chatError).toBe('Finish the current task first');
    expect(store.getState().sync.state).toBe(before);
  });

  it('clears an old alert when the next action succeeds', async () => {
    const { conn, store, actions } = await setup();
    store.getState().setChatError('old');
    const done = actions.renameChat('c1', 'Renamed');
    expect(lastRequest(conn)).toMatchObject({ type: 'chat.rename', chatId: 'c1', title: 'Renamed' });
    reply(conn, lastRequest(conn));
    expect(await done).toBe(true);
    expect(store.getState().chatError).toBeNull();
  });

  it('creates chats for the selected agent, deletes and stops by chat id', async () => {
    const base = makeState();
    const { conn, actions } = await setup(makeState({ chats: { c1: base.chats.c1!, c2: { ...base.chats.c2!, messageCount: 3 } } }));
    void actions.createChat();
    expect(lastRequest(conn)).toMatchObject({ type: 'chat.create', agent: 'wisp/coder' });
    void actions.deleteChat('c2');
    expect(lastRequest(conn)).toMatchObject({ type: 'chat.delete', chatId: 'c2' });
    void actions.stopRun('c1');
    expect(lastRequest(conn)).toMatchObject({ type: 'run.stop', chatId: 'c1' });
  });

  it('goes to an empty chat instead of piling up another, and does nothing when the active one is empty', async () => {
    const { conn, actions } = await setup();
    const going = actions.createChat();
    expect(lastRequest(conn)).toMatchObject({ type: 'chat.switch', chatId: 'c2' });
    reply(conn, lastRequest(conn));
    expect(await going).toBe(true);
    const { conn: conn2, actions: actions2 } = await setup(makeState({ activeChatId: 'c2', active: { chatId: 'c2', messages: [] } }));
    const before = requests(conn2).length;
    expect(await actions2.createChat()).toBe(true);
    expect(requests(conn2)).toHaveLength(before);
  });

  it('opens the most recent other chat after deleting the active one', async () => {
    const { conn, actions } = await setup();
    const deleting = actions.deleteChat('c1');
    expect(lastRequest(conn)).toMatchObject({ type: 'chat.delete', chatId: 'c1' });
    conn.send({ type: 'patch', rev: 2, ops: [{ op: 'remove', path: '/chats/c1' }, { op: 'replace', path: '/activeChatId', value: null }, { op: 'replace', path: '/active', value: null }] });
    reply(conn, lastRequest(conn));
    await flush();
    expect(lastRequest(conn)).toMatchObject({ type: 'chat.switch', chatId: 'c2' });
    reply(conn, lastRequest(conn));
    expect(await deleting).toBe(true);
  });

  it('sets a mode in the active chat, and shows the agent\'s refusal', async () => {
    const { conn, store, actions } = await setup();
    const done = actions.setMode('wisp/coder', 'plan');
    expect(lastRequest(conn)).toMatchObject({ type: 'mode.set', chatId: 'c1', agent: 'wisp/coder', mode: 'plan' });
    reply(conn, lastRequest(conn));
    expect(await done).toBe(true);
    const refused = actions.setMode('wisp/coder', 'auto');
    refuse(conn, lastRequest(conn), 'rejected', 'Auto needs a clean tree');
    expect(await refused).toBe(false);
    expect(store.getState().chatError).toBe('Auto needs a clean tree');
  });

  it('starts the chat a mode is picked for when none is open', async () => {
    const { conn, actions } = await setup(makeState({ activeChatId: null, active: null }));
    const done = actions.setMode('wisp/coder', 'plan');
    expect(lastRequest(conn)).toMatchObject({ type: 'chat.create', agent: 'wisp/coder' });
    reply(conn, lastRequest(conn), { chatId: 'c9' });
    await flush();
    expect(lastRequest(conn)).toMatchObject({ type: 'mode.set', chatId: 'c9', agent: 'wisp/coder', mode: 'plan' });
    reply(conn, lastRequest(conn));
    expect(await done).toBe(true);
  });

  it("asks for another value of the composer agent's setting, and shows the agent's refusal", async () => {
    const { conn, store, actions } = await setup();
    const done = actions.setSetting('wisp/coder', 'model', 'large');
    expect(lastRequest(conn)).toMatchObject({ type: 'setting.set', chatId: 'c1', agent: 'wisp/coder', setting: 'model', value: 'large' });
    reply(conn, lastRequest(conn));
    expect(await done).toBe(true);
    const refused = actions.setSetting('wisp/coder', 'model', 'opus');
    refuse(conn, lastRequest(conn), 'rejected', 'Opus is not on your plan');
    expect(await refused).toBe(false);
    expect(store.getState().chatError).toBe('Opus is not on your plan');
  });

  it('starts the chat a setting is picked for when none is open', async () => {
    const { conn, actions } = await setup(makeState({ activeChatId: null, active: null }));
    const done = actions.setSetting('wisp/coder', 'model', 'large');
    expect(lastRequest(conn)).toMatchObject({ type: 'chat.create', agent: 'wisp/coder' });
    reply(conn, lastRequest(conn), { chatId: 'c9' });
    await flush();
    expect(lastRequest(conn)).toMatchObject({ type: 'setting.set', chatId: 'c9', agent: 'wisp/coder', setting: 'model', value: 'large' });
    reply(conn, lastRequest(conn));
    expect(await done).toBe(true);
  });

  it('answers approvals with a trimmed reason, and reports a late answer', async () => {
    const { conn, actions } = await setup();
    const answer = actions.approveTool('c1', 't1', false, '  not on prod  ');
    expect(lastRequest(conn)).toEqual({ type: 'tool.approve', id: expect.any(String), chatId: 'c1', toolCallId: 't1', approved: false, reason: 'not on prod' });
    refuse(conn, lastRequest(conn), 'already_resolved', 'Already answered');
    expect(await answer).toBe('Already answered');
    void actions.approveTool('c1', 't2', true, '   ');
    expect(lastRequest(conn)).not.toHaveProperty('reason');
  });

  it("names the agent's option the user chose, and \"always\" where asked", async () => {
    const { conn, actions } = await setup();
    void actions.approveTool('c1', 't1', false, 'one more step', { optionId: 'plan' });
    expect(lastRequest(conn)).toEqual({ type: 'tool.approve', id: expect.any(String), chatId: 'c1', toolCallId: 't1', approved: false, reason: 'one more step', optionId: 'plan' });
    void actions.approveTool('c1', 't2', true, undefined, { always: true });
    expect(lastRequest(conn)).toEqual({ type: 'tool.approve', id: expect.any(String), chatId: 'c1', toolCallId: 't2', approved: true, always: true });
  });
});

describe('a message sent while the agent works', () => {
  const RUN = { chatId: 'c1', agent: 'wisp/coder', messageId: 'm2', startedAt: 5 };

  async function setupRunning() {
    const env = await setup(makeState({ run: RUN }));
    const unbind = bindSendQueue(env.store, () => env.actions.sendQueued());
    let rev = 1;
    const patch = (...ops: object[]) => env.conn.send({ type: 'patch', rev: ++rev, ops });
    const endRun = () => patch({ op: 'replace', path: '/run', value: null });
    const startRun = () => patch({ op: 'replace', path: '/run', value: RUN });
    const sends = () => requests(env.conn).filter((f) => f.type === 'message.send');
    return { ...env, unbind, patch, endRun, startRun, sends };
  }

  it('waits in the toolbar, then goes by itself when the run ends', async () => {
    const { conn, store, actions, endRun, sends, unbind } = await setupRunning();
    setDraft(store, 'Also check the footer');
    expect(await actions.send()).toBe(true);
    expect(sends()).toEqual([]);
    expect(store.getState()).toMatchObject({ draft: '', composerError: null, queued: { chatId: 'c1', draft: 'Also check the footer' } });
    const { clientMessageId } = store.getState().queued!;

    endRun();
    const [send] = sends();
    expect(send).toMatchObject({ type: 'message.send', chatId: 'c1', content: [{ type: 'text', text: 'Also check the footer' }], clientMessageId, metadata: { source: 'toolbar' } });
    expect(store.getState()).toMatchObject({ sending: true, queued: { clientMessageId } });
    reply(conn, send!, { messageId: 'm3' });
    await flush();
    expect(store.getState()).toMatchObject({ sending: false, queued: null, composerError: null });
    expect(sends()).toHaveLength(1);
    unbind();
  });

  it('adds a second message to the one waiting, and the two go as one', async () => {
    const { store, actions, endRun, sends, unbind } = await setupRunning();
    setDraft(store, 'first thought');
    await actions.send();
    setDraft(store, 'second thought');
    store.getState().addAttachments([{ id: 'a1', kind: 'file', name: 'notes.txt', mimeType: 'text/plain', dataUrl: 'data:text/plain;base64,aGk=' }]);
    await actions.send();
    expect(store.getState()).toMatchObject({ draft: '', attachments: [], queued: { draft: 'first thought\n\nsecond thought' } });
    endRun();
    expect(sends()).toHaveLength(1);
    expect(sends()[0]!.content).toEqual([
      { type: 'text', text: 'first thought\n\nsecond thought' },
      { type: 'file', data: 'data:text/plain;base64,aGk=', filename: 'notes.txt', mimeType: 'text/plain' },
    ]);
    unbind();
  });

  it('refuses to add what would make the waiting message too long, and keeps both', async () => {
    const { store, actions, unbind } = await setupRunning();
    setDraft(store, 'x'.repeat(LIMITS.maxTextLength - 10));
    await actions.send();
    setDraft(store, 'and this too');
    expect(await actions.send()).toBe(false);
    expect(store.getState().draft).toBe('and this too');
    expect(store.getState().queued!.draft).toHaveLength(LIMITS.maxTextLength - 10);
    expect(store.getState().composerError).toMatch(/^Not added to the queued message: the message is \d+ characters long/);
    unbind();
  });

  it('goes back in the box, before what was typed since, on Edit, on Stop, or when the user leaves its chat', async () => {
    const { conn, store, actions, patch, endRun, sends, unbind } = await setupRunning();
    setDraft(store, 'queued words');
    await actions.send();
    setDraft(store, 'typed since');
    actions.editQueued();
    expect(store.getState()).toMatchObject({ queued: null, draft: 'queued words\n\ntyped since' });

    await actions.send();
    void actions.stopRun('c1');
    expect(store.getState()).toMatchObject({ queued: null, draft: 'queued words\n\ntyped since' });
    expect(lastRequest(conn)).toMatchObject({ type: 'run.stop', chatId: 'c1' });

    await actions.send();
    patch({ op: 'replace', path: '/activeChatId', value: 'c2' }, { op: 'replace', path: '/active', value: { chatId: 'c2', messages: [] } });
    expect(store.getState()).toMatchObject({ queued: null, draft: 'queued words\n\ntyped since' });
    endRun();
    expect(sends()).toEqual([]);
    unbind();
  });

  it('keeps waiting while the server still says busy, without asking again until another run ends', async () => {
    const { conn, store, actions, endRun, startRun, sends, unbind } = await setupRunning();
    setDraft(store, 'after the reply');
    await actions.send();
    const { clientMessageId } = store.getState().queued!;
    endRun();
    refuse(conn, sends()[0]!, 'busy', 'The agent wisp/coder is still working; wait or press Stop');
    await flush();
    expect(store.getState()).toMatchObject({ sending: false, composerError: null, queued: { draft: 'after the reply' } });
    expect(sends()).toHaveLength(1);

    // Another client's message started a run first: this one goes after it.
    startRun();
    expect(sends()).toHaveLength(1);
    endRun();
    expect(sends()).toHaveLength(2);
    expect(sends()[1]).toMatchObject({ clientMessageId, content: [{ type: 'text', text: 'after the reply' }] });
    unbind();
  });

  it("puts it back in the box with the agent's reason when the agent refuses it", async () => {
    const { conn, store, actions, endRun, sends, unbind } = await setupRunning();
    setDraft(store, 'one more thing');
    await actions.send();
    endRun();
    refuse(conn, sends()[0]!, 'rejected', 'This chat is read-only');
    await flush();
    expect(store.getState()).toMatchObject({ sending: false, queued: null, draft: 'one more thing', composerError: 'This chat is read-only' });
    unbind();
  });

  it('sends at once, not into the queue, when nothing runs', async () => {
    const { store, actions, endRun, sends, unbind } = await setupRunning();
    endRun();
    setDraft(store, 'now');
    void actions.send();
    expect(sends()).toHaveLength(1);
    expect(store.getState().queued).toBeNull();
    unbind();
  });
});
