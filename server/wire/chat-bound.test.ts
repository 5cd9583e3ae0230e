/**
 * A chat's size is bounded so that every snapshot fits the 64 MiB every client accepts
 * (PROTOCOL §1): thirty 3.4 MB messages used to make a 103 MB snapshot no client could take.
 */
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits.ts';
import { defineAgent } from '../sdk/agent.ts';
import { userMessage } from '../../test-support/test-client.ts';
import { activeMessages, echoAgent, settle, useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();

/** A file part as big as one message may carry (about 5 MiB of bytes). */
function bigFile(i: number) {
  const prefix = 'data:application/octet-stream;base64,';
  return { type: 'file', mimeType: 'application/octet-stream', filename: `big-${i}.bin`, data: prefix + 'A'.repeat(LIMITS.maxDataUrlLength - prefix.length) };
}

/** The first snapshot a plain `ws` client with the protocol's minimum maxPayload receives. */
async function snapshotSize(server: { url: string; token: string }): Promise<number> {
  const ws = new WebSocket(`${server.url}?token=${encodeURIComponent(server.token)}`, { maxPayload: LIMITS.maxServerFrameBytes, perMessageDeflate: false });
  try {
    return await new Promise<number>((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', protocol: 1, client: { kind: 'other', name: 'bound test' } })));
      ws.on('message', (data: Buffer) => {
        if (data.subarray(0, 24).toString().includes('"snapshot"')) resolve(data.length);
      });
      ws.on('close', (code) => reject(new Error(`closed with ${code} before the snapshot`)));
      ws.on('error', reject);
    });
  } finally {
    ws.terminate();
  }
}

async function fillChat(client: Awaited<ReturnType<typeof h.connect>>, chatId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await client.ok('message.send', userMessage(chatId, `file ${i}`, { content: [{ type: 'text', text: `file ${i}` }, bigFile(i)] }));
}

describe('the chat size bound', () => {
  it('refuses a message that would pass it, and a late client still gets the whole chat in one snapshot', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', { title: 'files' });
    await fillChat(client, chatId, 5);
    await settle(server, client);
    const count = server.store.state.chats[chatId]!.messageCount;

    const refused = await client.request('message.send', userMessage(chatId, 'one more', { content: [{ type: 'text', text: 'one more' }, bigFile(5)] }));
    expect(refused.ok).toBe(false);
    expect(refused.error.code).toBe('too_large');
    expect(refused.error.message).toMatch(/does not fit in this chat: it holds [\d.]+ of at most 40\.0 MiB\. Start a new chat\./);
    expect(server.store.state.chats[chatId]!.messageCount).toBe(count);

    // Text still fits; and the snapshot of the fullest chat is under what clients accept.
    await client.ok('message.send', userMessage(chatId, 'a short note'));
    await settle(server, client);
    expect(await snapshotSize(server)).toBeLessThanOrEqual(LIMITS.maxServerFrameBytes);
  }, 60_000);

  it('ends a reply that would pass it failed, saying why, and the chat goes on', async () => {
    const flood = defineAgent({
      id: 'test/flood',
      description: 'Writes without end',
      async run(ctx) {
        if (!ctx.text.includes('flood')) return ctx.reply.text('ok');
        for (let i = 0; i < 100; i++) await ctx.reply.text('z'.repeat(1024 * 1024));
      },
    });
    const server = await h.start({ agents: [echoAgent(), flood], memory: true });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', { title: 'flood', agent: 'test/flood' });
    await fillChat(client, chatId, 5);
    await client.ok('message.send', userMessage(chatId, 'flood'));
    await waitUntil(() => activeMessages(server.store.state).at(-1)?.role === 'assistant' && (activeMessages(server.store.state).at(-1) as { status: string }).status === 'failed', 'the failed reply', 20_000);
    const reply = activeMessages(server.store.state).at(-1) as { status: string; error?: string };
    expect(reply.error).toMatch(/This chat is full \(40 MiB, the most one chat holds\), so the reply was stopped/);
    await settle(server, client);
    expect(await snapshotSize(server)).toBeLessThanOrEqual(LIMITS.maxServerFrameBytes);
    await client.ok('message.send', userMessage(chatId, 'still here'));
  }, 60_000);
});
