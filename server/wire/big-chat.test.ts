import { describe, expect, it } from 'vitest';
import { createRandom } from '../../test-support/seeded-random.ts';
import { defineAgent } from '../sdk/agent.ts';
import { userMessage } from '../../test-support/test-client.ts';
import { Gate, settle, useHarness, waitUntil, type TestServer } from '../../test-support/test-server.ts';

const h = useHarness();

/** Text that deflates about as well as real prose does (not a run of one letter). */
function prose(bytes: number): string {
  const words = ['agent', 'toolbar', 'patch', 'snapshot', 'the', 'of', 'streams', 'chat', 'server', 'client', 'a', 'to'];
  const random = createRandom(7);
  const out: string[] = [];
  let length = 0;
  while (length < bytes) {
    const word = words[Math.floor(random() * words.length)]! + (random() < 0.08 ? '.\n' : ' ');
    out.push(word);
    length += word.length;
  }
  return out.join('');
}

/**
 * `big N`: one reply of N MiB of text. `stream [SIZE]`: deltas until the gate opens, of SIZE bytes
 * until `slowDown()` says so, then small ones at a model's pace.
 */
function bigChatAgent(gate: Gate, slowDown: () => boolean = () => true) {
  return defineAgent({
    id: 'test/big',
    description: 'Fills the chat, then streams',
    async run(ctx) {
      const big = /^big (\d+)/.exec(ctx.text);
      if (big) {
        await ctx.reply.text(prose(Number(big[1]) * 1024 * 1024));
        return;
      }
      const size = Number(/^stream (\d+)/.exec(ctx.text)?.[1] ?? 0);
      let open = false;
      void gate.wait(ctx.signal).then(() => (open = true), () => {});
      for (let i = 0; !open && i < 20_000; i++) {
        const fast = size > 0 && !slowDown();
        await ctx.reply.text(fast ? prose(size) : `word${i} `);
        await ctx.sleep(fast ? 0 : 2);
      }
    },
  });
}

const LAGGING = /is not reading/;

async function startBigChat(gate: Gate, sendBufferBytes?: number) {
  let server!: TestServer;
  const lagging = () => server.logs.some((l) => LAGGING.test(l.message));
  server = await h.start({
    agents: [bigChatAgent(gate, lagging)],
    memory: true,
    ...(sendBufferBytes ? { limits: { sendBufferBytes } } : {}),
  });
  const writer = await h.connect(server);
  const { chatId } = await writer.ok('chat.create', { title: 'big' });
  for (let i = 0; i < 2; i++) {
    await writer.ok('message.send', userMessage(chatId, 'big 3'));
    await waitUntil(() => server.store.state.run === null, 'a big reply');
  }
  expect(JSON.stringify(server.store.state).length).toBeGreaterThan(6 * 1024 * 1024);
  return { server, writer, chatId };
}

describe('a big active chat', () => {
  it('sends a slow reader one snapshot to catch up, then patches again', async () => {
    const gate = new Gate();
    // The snapshot (6 MiB) is bigger than the send buffer limit, as in the loop this guards against.
    const { server, writer, chatId } = await startBigChat(gate, 1024 * 1024);
    const slow = await h.connect(server, { perMessageDeflate: true });
    slow.pauseReading();
    await writer.ok('message.send', userMessage(chatId, 'stream 65536'));
    await waitUntil(() => server.logs.some((l) => LAGGING.test(l.message)), 'the server to hold the slow reader back', 20_000);
    slow.resumeReading();
    await slow.waitFor(() => slow.framesOf('snapshot').length === 2, 20_000, 'the catch-up snapshot');
    const patchesAfterCatchUp = slow.framesOf('patch').length;
    await slow.waitFor(() => slow.framesOf('patch').length > patchesAfterCatchUp + 100, 20_000, 'patches after the catch-up');
    gate.open();
    await settle(server, writer, slow);

    expect(slow.failures).toEqual([]);
    expect(slow.framesOf('snapshot')).toHaveLength(2);
    expect(server.logs.filter((l) => LAGGING.test(l.message))).toHaveLength(1);
  }, 60_000);

  it('sends a client that joins mid-stream one snapshot, then patches', async () => {
    const gate = new Gate();
    const server = await h.start({ agents: [bigChatAgent(gate)], memory: true });
    const writer = await h.connect(server);
    const { chatId } = await writer.ok('chat.create', { title: 'big' });
    await writer.ok('message.send', userMessage(chatId, 'big 3'));
    await waitUntil(() => server.store.state.run === null, 'the first reply');
    await writer.ok('message.send', userMessage(chatId, 'big 3'));
    await waitUntil(() => server.store.state.run === null, 'the second reply');
    expect(JSON.stringify(server.store.state).length).toBeGreaterThan(6 * 1024 * 1024);

    await writer.ok('message.send', userMessage(chatId, 'stream'));
    await waitUntil(() => (server.store.state.active?.messages.length ?? 0) >= 6, 'the streamed reply to start');
    // Deflate on, as browsers negotiate it.
    const late = await h.connect(server, { perMessageDeflate: true });
    const patchesAtJoin = late.framesOf('patch').length;
    await late.waitFor(() => late.framesOf('patch').length > patchesAtJoin + 200, 20_000, 'patches after the join');
    gate.open();
    await settle(server, writer, late);

    expect(late.failures).toEqual([]);
    expect(late.framesOf('snapshot')).toHaveLength(1);
    expect(server.logs.filter((l) => LAGGING.test(l.message))).toEqual([]);
  }, 60_000);

  it('answers a chat.read of a big chat while another streams, and the reader is not taken for a slow one', async () => {
    const gate = new Gate();
    const { server, writer } = await startBigChat(gate);
    const big = Object.values(server.store.state.chats).find((c) => c.title === 'big')!.id;
    const { chatId: small } = await writer.ok('chat.create', { title: 'small' });
    const reader = await h.connect(server, { perMessageDeflate: true });
    await writer.ok('message.send', userMessage(small, 'stream'));
    await waitUntil(() => (server.store.state.active?.messages.length ?? 0) >= 2, 'the streamed reply to start');
    const { messages } = await reader.ok('chat.read', { chatId: big });
    expect(JSON.stringify(messages).length).toBeGreaterThan(6 * 1024 * 1024);
    const patchesAfterRead = reader.framesOf('patch').length;
    await reader.waitFor(() => reader.framesOf('patch').length > patchesAfterRead + 100, 20_000, 'patches after the read');
    gate.open();
    await settle(server, writer, reader);

    expect(reader.failures).toEqual([]);
    expect(reader.framesOf('snapshot')).toHaveLength(1);
    expect(server.logs.filter((l) => LAGGING.test(l.message))).toEqual([]);
  }, 60_000);
});
