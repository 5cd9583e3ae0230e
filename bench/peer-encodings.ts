/**
 * The same delta stream as other agent UIs put it on the wire, built from their documented frame
 * shapes (exact strings in README.md and in the JSON results). Message ids are UUIDs for all.
 */
import { BENCH_AGENT_ID } from './bench-agent.ts';

/** Fixed ids so every run encodes the same bytes. */
export const IDS = {
  chat: '6f1c2e1a-3b4d-4c5e-8f60-718293a4b5c6',
  user: '0d9e8f7a-6b5c-4d3e-9f21-0a1b2c3d4e5f',
  assistant: 'a3c1f2e4-5b6d-4e7f-8a9b-0c1d2e3f4a5b',
} as const;

export interface PeerEncoding {
  key: string;
  label: string;
  transport: 'websocket' | 'sse';
  /** The frame of one delta, `abcd` standing for the delta, as documentation. */
  shape: string;
  /** Frames for the stream: `deltas` in order, `prefixes[i]` being the text after delta i. */
  frames(deltas: readonly string[]): Iterable<string>;
}

function* withText(deltas: readonly string[]): Generator<[delta: string, text: string, index: number]> {
  let text = '';
  for (let i = 0; i < deltas.length; i++) {
    text += deltas[i]!;
    yield [deltas[i]!, text, i];
  }
}

const USER_TEXT = 'Refactor the header component and explain the change.';

/** The whole State (agentbar's shape) with the reply so far: what a snapshot-per-update server sends. */
function snapshotFrame(rev: number, text: string): string {
  const t = 1_700_000_000_000;
  const state = {
    agents: [{ id: BENCH_AGENT_ID, description: 'Streams a fixed reply', implemented: true, tools: [], workflows: [] }],
    chats: { [IDS.chat]: { id: IDS.chat, title: 'Refactor the header', createdAt: t, updatedAt: t + rev, messageCount: 2, agent: BENCH_AGENT_ID } },
    activeChatId: IDS.chat,
    active: {
      chatId: IDS.chat,
      messages: [
        { id: IDS.user, role: 'user', content: [{ type: 'text', text: USER_TEXT }], metadata: { source: 'toolbar', selectedElements: [] }, createdAt: t },
        { id: IDS.assistant, role: 'assistant', agent: BENCH_AGENT_ID, content: [{ type: 'text', text }], status: 'streaming', createdAt: t + 1 },
      ],
    },
    run: { chatId: IDS.chat, agent: BENCH_AGENT_ID, messageId: IDS.assistant, startedAt: t },
  };
  return JSON.stringify({ type: 'snapshot', rev, state });
}

export const PEER_ENCODINGS: PeerEncoding[] = [
  {
    key: 'agentbar-patch',
    label: 'agentbar patch per delta (computed, no coalescing)',
    transport: 'websocket',
    // The server leaves rev out of patch frames (PROTOCOL §3: it is the previous rev + 1).
    shape: '{"type":"patch","ops":[{"op":"append","path":"/active/messages/1/content/0/text","value":"abcd"}]}',
    *frames(deltas) {
      for (let i = 0; i < deltas.length; i++) {
        yield `{"type":"patch","ops":[{"op":"append","path":"/active/messages/1/content/0/text","value":${JSON.stringify(deltas[i])}}]}`;
      }
    },
  },
  {
    key: 'snapshot',
    label: '(a) full state snapshot per update',
    transport: 'websocket',
    shape: '{"type":"snapshot","rev":N,"state":State} with a 2-message chat (user + streaming assistant, UUID ids), agentbar State shape',
    *frames(deltas) {
      for (const [, text, i] of withText(deltas)) yield snapshotFrame(1000 + i, text);
    },
  },
  {
    key: 'immer-replace',
    label: '(b) immer-style patch replacing the whole text',
    transport: 'websocket',
    shape: '[{"op":"replace","path":["messages",1,"content",0,"text"],"value":"<whole text so far>"}]',
    *frames(deltas) {
      for (const [, text] of withText(deltas)) yield JSON.stringify([{ op: 'replace', path: ['messages', 1, 'content', 0, 'text'], value: text }]);
    },
  },
  {
    key: 'trpc-superjson',
    label: '(c) tRPC WS data frame, superjson message-updated',
    transport: 'websocket',
    shape: `{"id":1,"result":{"type":"data","data":{"json":{"type":"message-updated","messageId":"${IDS.assistant}","partIndex":0,"delta":{"type":"text-delta","text":"abcd"}}}}}`,
    *frames(deltas) {
      // One subscription: its id stays 1 for every data frame; superjson adds no "meta" for plain JSON.
      for (const delta of deltas) {
        yield `{"id":1,"result":{"type":"data","data":{"json":{"type":"message-updated","messageId":"${IDS.assistant}","partIndex":0,"delta":{"type":"text-delta","text":${JSON.stringify(delta)}}}}}}`;
      }
    },
  },
  {
    key: 'ag-ui-sse',
    label: '(d) AG-UI TEXT_MESSAGE_CONTENT over SSE',
    transport: 'sse',
    shape: `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"${IDS.assistant}","delta":"abcd"}\\n\\n`,
    *frames(deltas) {
      for (const delta of deltas) yield `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"${IDS.assistant}","delta":${JSON.stringify(delta)}}\n\n`;
    },
  },
  {
    key: 'ai-sdk-sse',
    label: '(e) AI SDK UI message stream text-delta over SSE',
    transport: 'sse',
    shape: `data: {"type":"text-delta","id":"${IDS.assistant}","delta":"abcd"}\\n\\n`,
    *frames(deltas) {
      for (const delta of deltas) yield `data: {"type":"text-delta","id":"${IDS.assistant}","delta":${JSON.stringify(delta)}}\n\n`;
    },
  },
];
