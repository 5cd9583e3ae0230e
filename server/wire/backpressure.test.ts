import { describe, expect, it } from 'vitest';
import { defineAgent, type AgentDefinition } from '../sdk/agent.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { Gate, activeMessages, settle, syncClients, textOf, useHarness, waitForLog, waitUntil, type TestServer } from '../../test-support/test-server.ts';

const h = useHarness();

const CHUNK = 16 * 1024;
const MAX_CHUNKS = 4000;
const LAGGING = /is not reading/;

function chunk(i: number): string {
  const head = `[${i}]`;
  return head + 'x'.repeat(CHUNK - head.length);
}

/**
 * Streams big chunks. `flood until-lag` stops 20 chunks after the server starts holding back a
 * client; `flood until-gate` stops when the test opens `gate`. Both are bounded.
 */
function floodAgent(isLagging: () => boolean, gate: Gate): AgentDefinition {
  return defineAgent({
    id: 'test/flood',
    description: 'Streams big text fast',
    async run(ctx) {
      let after = 0;
      const untilGate = ctx.text.includes('until-gate');
      let opened = false;
      if (untilGate) void gate.wait(ctx.signal).then(() => (opened = true), () => {});
      for (let i = 0; i < MAX_CHUNKS; i++) {
        await ctx.reply.text(chunk(i));
        await ctx.sleep(0);
        if (untilGate ? opened : isLagging() && ++after >= 20) return;
      }
      throw new Error('the flood never made the server hold a client back');
    },
  });
}

function patchRevs(client: TestClient): number[] {
  return client.framesOf('patch').map((f) => f.rev as number);
}

function expectConsecutive(revs: number[]): void {
  for (let i = 1; i < revs.length; i++) expect(revs[i]).toBe(revs[i - 1]! + 1);
}

async function setup(limits: { stuckTimeoutMs?: number } = {}) {
  const gate = new Gate();
  let server!: TestServer;
  const lagging = () => server.logs.some((l) => LAGGING.test(l.message));
  server = await h.start({
    agents: [floodAgent(lagging, gate)],
    limits: { sendBufferBytes: 64 * 1024, stuckTimeoutMs: limits.stuckTimeoutMs ?? 60_000 },
    memory: true,
  });
  const reader = await h.connect(server);
  const stuck = await h.connect(server);
  const { chatId } = await reader.ok('chat.create', { title: 'flood' });
  await stuck.waitFor(() => stuck.state!.activeChatId === chatId);
  return { server, reader, stuck, chatId, gate };
}

describe('backpressure', () => {
  it('holds back a client that stops reading, without making the others wait, then catches it up with a snapshot', async () => {
    const { server, reader, stuck, chatId, gate } = await setup();
    const stuckPatchesBefore = patchRevs(stuck).length;
    stuck.pauseReading();
    await reader.ok('message.send', userMessage(chatId, 'flood until-lag'));
    await waitForLog(server, LAGGING, 20_000);

    // The reader gets the whole run, every patch in order, while the stuck client still sleeps.
    await settle(server, reader);
    expect(reader.failures).toEqual([]);
    expectConsecutive(patchRevs(reader));
    expect(stuck.closed).toBeNull();
    const text = textOf(activeMessages(reader.state).at(-1));
    expect(text.length).toBeGreaterThan(20 * CHUNK);

    // A request sent while held back waits: the server does not read a client it cannot answer.
    stuck.sendJson({ type: 'chat.rename', id: 'held', chatId, title: 'renamed while stuck' });
    await new Promise((r) => setTimeout(r, 100));
    expect(server.store.state.chats[chatId]!.title).toBe('flood');

    // It reads again while another flood streams: the server sends a fresh snapshot, then handles
    // the request, whose result follows the snapshot.
    await reader.ok('message.send', userMessage(chatId, 'flood until-gate'));
    stuck.resumeReading();
    await stuck.waitFor(() => stuck.framesOf('snapshot').length === 2, 20_000, 'the catch-up snapshot');
    await waitUntil(() => server.store.state.chats[chatId]!.title === 'renamed while stuck', 'the rename');
    gate.open();
    await settle(server, reader, stuck);

    expect(stuck.failures).toEqual([]);
    const frames = stuck.frames;
    // The first snapshot after the one of the handshake is the catch-up (it may lag again later).
    const snapshotAt = frames.findIndex((f, i) => f.type === 'snapshot' && i > 1);
    const lastPatchBefore = frames.slice(0, snapshotAt).filter((f) => f.type === 'patch').at(-1)!;
    // It missed patches: the snapshot's rev jumps ahead of the last patch it had.
    expect(frames[snapshotAt]!.rev).toBeGreaterThan(lastPatchBefore.rev + 1);
    expect(patchRevs(stuck).length).toBeGreaterThan(stuckPatchesBefore);
    const heldResult = frames.findIndex((f) => f.type === 'result' && f.id === 'held');
    expect(heldResult).toBeGreaterThan(snapshotAt);
    expect(frames[heldResult]).toMatchObject({ ok: true });
    expect(stuck.stateAt.get('held')!.chats[chatId]!.title).toBe('renamed while stuck');

    expect(reader.failures).toEqual([]);
    expectConsecutive(patchRevs(reader));
    expect(stuck.state).toEqual(server.store.state);
    expect(reader.state).toEqual(server.store.state);
  });

  it('terminates a client that stays stuck, and the others go on', async () => {
    const { server, reader, stuck, chatId } = await setup({ stuckTimeoutMs: 200 });
    stuck.pauseReading();
    await reader.ok('message.send', userMessage(chatId, 'flood until-lag'));
    await waitForLog(server, /terminated: stuck/, 20_000);
    await settle(server, reader);
    expectConsecutive(patchRevs(reader));

    stuck.resumeReading();
    const closed = await stuck.waitClosed();
    expect(closed.code).toBe(1006);
    expect(stuck.failures).toEqual([]);

    // The server still serves everyone else.
    await reader.ok('chat.rename', { chatId, title: 'still here' });
    const late = await h.connect(server);
    expect(late.state).toEqual(server.store.state);
    await syncClients(reader);
    expect(reader.state).toEqual(server.store.state);
  });
});
