import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/schemas.ts';
import { defineAgent } from '../sdk/agent.ts';
import { userMessage, type TestClient } from '../../test-support/test-client.ts';
import { activeMessages, echoAgent, settle, textOf, useHarness, type TestServer } from '../../test-support/test-server.ts';
import { createRandom } from '../../test-support/seeded-random.ts';

const h = useHarness();


/** The text the streamer writes for `stream N`: it checks that merged appends lose nothing. */
function streamedText(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += `c${i};`;
  return out;
}

/** Streams many small chunks, yielding to the event loop between them, so requests interleave. */
const streamer = defineAgent({
  id: 'test/streamer',
  description: 'Streams many small chunks',
  async run(ctx) {
    const n = Number(/stream (\d+)/.exec(ctx.text)?.[1] ?? 10);
    if (n % 3 === 0) {
      await ctx.reply.reasoning('thinking');
    }
    for (let i = 0; i < n; i++) {
      await ctx.reply.text(`c${i};`);
      await ctx.sleep(0);
    }
  },
});

const ALLOWED_FAILURES = new Set(['not_found', 'not_active', 'busy', 'rejected']);

async function runScenario(server: TestServer, seed: number, steps: number): Promise<TestClient[]> {
  const random = createRandom(seed);
  const pick = <T>(items: readonly T[]): T | undefined => (items.length ? items[Math.floor(random() * items.length)] : undefined);
  const clients: TestClient[] = [await h.connect(server), await h.connect(server)];
  const pending: Promise<void>[] = [];
  const deletedIds: string[] = [];
  const usedClientIds: string[] = [];
  const failures = new Map<string, number>();

  const fire = (client: TestClient, type: string, payload: Record<string, unknown>) => {
    const p = client.request(type, payload).then((r) => {
      expect(r.type).toBe('result');
      if (r.ok) {
        if (type === 'chat.create') expect(r.value.chatId).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
        if (type === 'message.send') expect(typeof r.value.messageId).toBe('string');
        if (type === 'run.stop') expect(typeof r.value.stopped).toBe('boolean');
      } else {
        expect(ERROR_CODES).toContain(r.error.code);
        expect(ALLOWED_FAILURES, `${type} failed with ${JSON.stringify(r.error)}`).toContain(r.error.code);
        failures.set(r.error.code, (failures.get(r.error.code) ?? 0) + 1);
      }
    });
    pending.push(p);
  };

  for (let step = 0; step < steps; step++) {
    if (step === Math.floor(steps / 3)) {
      // A client joins mid-way and takes part from then on.
      clients.push(await h.connect(server));
    }
    if (step === Math.floor((2 * steps) / 3)) {
      // A client drops and comes back with resume, while chunks keep streaming.
      const leaving = clients[1]!;
      const saved = { session: leaving.session!, rev: leaving.rev, state: leaving.state! };
      await Promise.all(pending.splice(0));
      await leaving.close();
      clients[1] = await h.connect(server, { resume: { session: saved.session, rev: saved.rev }, state: saved.state });
    }

    const client = pick(clients)!;
    const state = client.state!;
    const chatIds = Object.keys(state.chats);
    const anyChat = () => (random() < 0.1 ? pick(deletedIds) ?? 'chat_missing' : pick(chatIds) ?? 'chat_missing');
    const r = random();
    if (r < 0.3) {
      const chatId = random() < 0.85 ? state.activeChatId ?? anyChat() : anyChat();
      const agent = pick(['test/streamer', 'test/streamer', 'test/echo', undefined]);
      const repeat = random() < 0.15 ? pick(usedClientIds) : undefined;
      const clientMessageId = repeat ?? (random() < 0.5 ? `cm-${seed}-${step}` : undefined);
      if (clientMessageId && !repeat) usedClientIds.push(clientMessageId);
      const n = 5 + Math.floor(random() * 60);
      fire(client, 'message.send', userMessage(chatId, `stream ${n}`, { ...(agent ? { agent } : {}), ...(clientMessageId ? { clientMessageId } : {}) }));
    } else if (r < 0.4) {
      fire(client, 'chat.create', random() < 0.5 ? { title: `chat ${step}` } : {});
    } else if (r < 0.52) {
      fire(client, 'chat.switch', { chatId: anyChat() });
    } else if (r < 0.62) {
      fire(client, 'chat.rename', { chatId: anyChat(), title: `renamed ${step}` });
    } else if (r < 0.7) {
      const chatId = anyChat();
      if (state.chats[chatId]) deletedIds.push(chatId);
      fire(client, 'chat.delete', { chatId });
    } else if (r < 0.8) {
      fire(client, 'run.stop', { chatId: state.run?.chatId ?? anyChat() });
    } else {
      // Let the stream go on for a few chunks (the agent sleeps 0 ms between them).
      const ticks = 1 + Math.floor(random() * 6);
      for (let i = 0; i < ticks; i++) await new Promise((resolve) => (random() < 0.5 ? setImmediate(resolve) : setTimeout(resolve, 0)));
    }
    if (random() < 0.5) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending.splice(0));
  // Every kind of outcome happened, so the scenario really interleaved runs with chat changes.
  expect(failures.get('busy') ?? 0).toBeGreaterThan(0);
  return clients;
}

function checkFinalState(server: TestServer): void {
  const state = server.store.state;
  expect(state.run).toBeNull();
  const messages = activeMessages(state);
  messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    expect(m.status === 'done' || m.status === 'stopped').toBe(true);
    if (m.agent !== 'test/streamer') return;
    const text = textOf(m);
    const user = messages.slice(0, i).filter((u) => u.role === 'user').pop();
    const n = Number(/stream (\d+)/.exec(textOf(user))?.[1]);
    if (m.status === 'done') expect(text).toBe(streamedText(n));
    else expect(streamedText(n).startsWith(text)).toBe(true);
  });
  if (state.activeChatId !== null) {
    expect(state.active?.chatId).toBe(state.activeChatId);
    expect(state.chats[state.activeChatId]!.messageCount).toBe(activeMessages(state).length);
  } else {
    expect(state.active).toBeNull();
  }
}

describe('convergence', () => {
  for (const seed of [1, 42, 2024]) {
    it(`ends every client deep-equal to the server after a random sequence of requests and streamed deltas (seed ${seed})`, async () => {
      const server = await h.start({ agents: [streamer, echoAgent()] });
      const clients = await runScenario(server, seed, 300);
      await settle(server, ...clients);
      for (const c of clients) {
        expect(c.failures).toEqual([]);
        expect(c.rev).toBe(server.store.rev);
        expect(c.state).toEqual(server.store.state);
      }
      checkFinalState(server);
    });
  }
});
