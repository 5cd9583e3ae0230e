/**
 * Section 9 (key `model`): what agentbar adds to a model's tokens. A local chat-completions server
 * (test-support/fake-openai.ts) streams 4-character tokens 10 ms apart; the same stream is read
 * (a) directly with the AI SDK provider in the bench process, and (b) through `agentbar serve
 * --model` (a child process) to a sync client in the bench process. Times are on the shared
 * CLOCK_MONOTONIC (clock.ts): token written by the fake server → text delta seen (a), or → the
 * client's state holding it (b). The difference of the medians is what agentbar adds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { FakeOpenAi, type FakeStep } from '../test-support/fake-openai.ts';
import { spawnServer } from '../test-support/spawn-server.ts';
import { connectBenchClient, waitConnected, waitUntil } from './bench-client.ts';
import { nowMs } from './clock.ts';
import type { BenchConfig } from './config.ts';
import { atMost, judge, type Section } from './report.ts';
import { percentile } from './stats.ts';

export interface ModelLatency {
  tokens: number;
  direct: { p50: number; p99: number };
  through: { p50: number; p99: number };
  addedP50: number;
  addedP99: number;
}

function script(tokens: number): FakeStep[] {
  const steps: FakeStep[] = [];
  for (let i = 0; i < tokens; i++) {
    steps.push({ text: `t${String(i % 100).padStart(2, '0')} ` });
    steps.push({ delayMs: 10 });
  }
  return steps;
}

/** Sent → seen, ms, tokens 1..n-1 (the first one carries the request's setup). */
function delays(sent: readonly number[], seen: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < Math.min(sent.length, seen.length); i++) if (Number.isFinite(seen[i]!)) out.push(seen[i]! - sent[i]!);
  return out;
}

export async function measureModelLatency(config: BenchConfig, progress: (what: string) => void): Promise<ModelLatency> {
  const tokens = config.modelTokens;
  const fake = await FakeOpenAi.start();
  fake.now = nowMs;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-bench-model-'));
  try {
    progress(`model: ${tokens} tokens read directly with the provider`);
    fake.queue({ steps: script(tokens) });
    const provider = createOpenAICompatible({ name: 'bench', baseURL: fake.baseUrl });
    const seenDirect: number[] = [];
    const direct = streamText({ model: provider('bench'), prompt: 'go', maxRetries: 0, onError: () => {} });
    for await (const part of direct.fullStream) if (part.type === 'text-delta') seenDirect.push(nowMs());
    const sentDirect = fake.sent.splice(0);

    progress(`model: the same tokens through agentbar serve --model`);
    fake.queue({ steps: script(tokens) });
    const server = await spawnServer(dataDir, { args: ['--port', '0', '--model', 'bench', '--base-url', fake.baseUrl] });
    const client = connectBenchClient({ url: server.url, token: server.token, perMessageDeflate: true, name: 'model-bench' });
    try {
      await waitConnected([client]);
      const { chatId } = await client.sync.request('chat.create', { agent: 'model/bench' });
      await waitUntil(() => client.sync.getSnapshot().state?.activeChatId === chatId, 10_000, 'the chat');
      const track = client.follow(Array.from({ length: tokens }, () => 4));
      await client.sync.request('message.send', { chatId, agent: 'model/bench', content: [{ type: 'text', text: 'go' }], metadata: { source: 'other', selectedElements: [] } });
      await waitUntil(() => track.next >= tokens, 60_000, 'every token in the client');
      const through = delays(fake.sent, Array.from(track.applied));
      const d = delays(sentDirect, seenDirect);
      const result = {
        tokens,
        direct: { p50: percentile(d, 50), p99: percentile(d, 99) },
        through: { p50: percentile(through, 50), p99: percentile(through, 99) },
        addedP50: percentile(through, 50) - percentile(d, 50),
        addedP99: percentile(through, 99) - percentile(d, 99),
      };
      return result;
    } finally {
      client.close();
      await server.kill('SIGTERM');
    }
  } finally {
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function modelSection(m: ModelLatency): Section {
  const target = atMost(2, ' ms');
  return {
    key: 'model',
    title: '9. Model agent: what agentbar adds to a token (local chat-completions server, 10 ms apart)',
    columns: ['path', 'tokens', 'p50 ms', 'p99 ms', 'target', ''],
    rows: [
      ['provider, read directly (AI SDK)', m.tokens, m.direct.p50, m.direct.p99, '', ''],
      ['through agentbar serve --model → client state', m.tokens, m.through.p50, m.through.p99, '', ''],
      ['added by agentbar', m.tokens, m.addedP50, m.addedP99, `p50 ${target.text}`, judge(m.addedP50, target)],
    ],
    notes: [
      'Token written by the fake server → seen: as a text delta by the AI SDK in the bench process (direct), or held in a sync client\'s state after the server child streamed it (through). Tokens 1..n-1; clocks are the shared CLOCK_MONOTONIC.',
      'The path through agentbar adds the server process (the same provider code, the reply writer, the patch, deflate) and one loopback WebSocket hop, then the client\'s inflate, parse, validation and patch.',
    ],
    data: m,
  };
}
