// Plain Node, no TypeScript loader: one exchange with an agentbar server through the package's
// public client (`agentbar/shared`). Usage: node client.mjs WS_URL TOKEN AGENT TEXT
// Prints {"status","text"} of the reply as JSON and exits 0 once the reply has ended.
import WebSocket from 'ws';
import { createSyncClient, createWebSocketConnector } from 'agentbar/shared';

const [url, token, agent, text] = process.argv.slice(2);
const client = createSyncClient({
  connect: createWebSocketConnector(`${url}?token=${encodeURIComponent(token)}`, WebSocket),
  client: { kind: 'cli', name: 'package test' },
});
const connected = new Promise((resolve) => {
  const stop = client.subscribe(() => {
    if (client.getSnapshot().state) {
      stop();
      resolve();
    }
  });
});
client.start();
await connected;
const { chatId } = await client.request('chat.create', { title: 'package test' });
const { messageId } = await client.request('message.send', {
  chatId,
  agent,
  content: [{ type: 'text', text }],
  metadata: { source: 'cli', selectedElements: [] },
});
const reply = await new Promise((resolve) => {
  const check = () => {
    const messages = client.getSnapshot().state?.active?.messages ?? [];
    const after = messages.slice(messages.findIndex((m) => m.id === messageId) + 1);
    const done = after.find((m) => m.role === 'assistant' && m.status !== 'streaming');
    if (done) resolve(done);
  };
  client.subscribe(check);
  check();
});
const replyText = reply.content.filter((p) => p.type === 'text').map((p) => p.text).join('');
console.log(JSON.stringify({ status: reply.status, text: replyText }));
client.close();
