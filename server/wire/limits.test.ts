/**
 * Limits on what one client can make the server hold: results to a client that does not read,
 * echoed input, deeply nested frames.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits.ts';
import { userMessage } from '../../test-support/test-client.ts';
import { echoAgent, useHarness, waitForLog } from '../../test-support/test-server.ts';

const h = useHarness();

describe('a client that makes requests but never reads', () => {
  it('is no longer read once its answers back up, and gets every answer once it reads again', async () => {
    const server = await h.start({ agents: [echoAgent()], limits: { sendBufferBytes: 64 * 1024 }, memory: true });
    const client = await h.connect(server);
    const other = await h.connect(server);
    client.pauseReading();
    // Requests whose answers carry no patch: before, these were never held back. The kernel's
    // socket buffers take some megabytes of answers first.
    const long = 'x'.repeat(1_000);
    const before = client.framesOf('result').length;
    let sent = 0;
    while (sent < 60_000 && client.ws.bufferedAmount < 2 * 1024 * 1024) {
      client.sendJson({ type: 'chat.switch', id: `s${sent}`, chatId: `${long}${sent}` });
      if (++sent % 20 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    // The server stopped reading: what the client writes piles up on its own side.
    expect(client.ws.bufferedAmount).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    await waitForLog(server, /is not reading/);
    // Everyone else is served meanwhile.
    await other.ok('chat.create', { title: 'still served' });

    client.resumeReading();
    // Results only: the chat the other client made also reaches this one, as a patch.
    await client.waitFor(() => client.framesOf('result').length - before >= sent, 20_000, 'every answer');
    const results = client.framesOf('result').slice(before);
    expect(results).toHaveLength(sent);
    expect(new Set(results.map((r) => r.id)).size).toBe(sent);
    for (const r of results) {
      expect(r.error.code).toBe('not_found');
      expect(r.error.message.length).toBeLessThanOrEqual(500);
    }
    expect(client.closed).toBeNull();
  }, 30_000);
});

describe('echoed input', () => {
  it('clips an error that quotes a huge chat id', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true });
    const client = await h.connect(server);
    const result = await client.request('chat.switch', { chatId: 'y'.repeat(7_000_000) });
    expect(result.error.code).toBe('not_found');
    expect(JSON.stringify(result).length).toBeLessThan(1_000);
  });

  it('never cuts an echoed chat id in the middle of a character', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true });
    const client = await h.connect(server);
    // One of the two lands the cut on the second half of a surrogate pair, whatever the wording.
    for (const chatId of ['😀'.repeat(1_000), `x${'😀'.repeat(1_000)}`]) {
      const result = await client.request('chat.switch', { chatId });
      expect(result.error.code).toBe('not_found');
      expect(result.error.message).toMatch(/…$/);
      expect(result.error.message).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
  });
});

describe('deeply nested frames', () => {
  it('refuses a frame nested deeper than the limit before parsing it, and goes on serving', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true });
    const client = await h.connect(server);
    const depth = 4_000_000; // an 8 MB frame, just under the frame limit
    client.sendRaw(`{"type":"chat.create","id":"deep","title":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    const error = await client.next('error');
    expect(error).toMatchObject({ code: 'too_large', message: `Frame nests deeper than ${LIMITS.maxJsonDepth} levels` });
    expect(Object.keys(server.store.state.chats)).toEqual([]);
    const { chatId } = await client.ok('chat.create', { title: 'after' });
    expect(server.store.state.chats[chatId]!.title).toBe('after');
  });

  it('refuses a deeply nested hello', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true });
    const client = await h.connect(server, { noHello: true });
    client.sendRaw(`{"type":"hello","protocol":1,"x":${'['.repeat(100)}${']'.repeat(100)}}`);
    expect((await client.next('error')).code).toBe('invalid_message');
    expect((await client.waitClosed()).code).toBe(1008);
  });
});

describe('long arrays', () => {
  it('refuses a frame of millions of picked elements with one too_large, and goes on serving', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', { title: 'target' });
    // 7.7 MiB, under the frame limit: 2.7 million elements, each one missing every field. Every
    // element used to be checked (5 issues each) before the length: the server ran out of heap.
    const elements = Array(2_700_000).fill('{}').join(',');
    client.sendRaw(`{"type":"message.send","id":"long","chatId":"${chatId}","content":[{"type":"text","text":"hi"}],"metadata":{"source":"other","selectedElements":[${elements}]}}`);
    const result = await client.next('result');
    expect(result.error).toMatchObject({ code: 'too_large', path: 'metadata.selectedElements' });
    expect(result.error.message).toContain(`Expected <=${LIMITS.maxSelectedElements}`);
    expect(server.store.state.active?.messages).toEqual([]);
    await client.ok('message.send', userMessage(chatId, 'after'));
  }, 30_000);
});
