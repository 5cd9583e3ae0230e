/**
 * permessage-deflate for at most `maxDeflateClients` clients at once: compression with context
 * takeover costs each client its own zlib work, which at 200 clients dominated the server's CPU.
 */
import { describe, expect, it } from 'vitest';
import { echoAgent, useHarness, waitUntil } from '../../test-support/test-server.ts';
import { userMessage } from '../../test-support/test-client.ts';

const h = useHarness();

describe('the deflate cap', () => {
  it('compresses for the first clients only, gives a freed slot to the next one, and every client gets the same state', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true, maxDeflateClients: 2 });
    const a = await h.connect(server, { perMessageDeflate: true });
    const b = await h.connect(server, { perMessageDeflate: true });
    const c = await h.connect(server, { perMessageDeflate: true });
    const deflated = (client: typeof a) => client.ws.extensions.includes('permessage-deflate');
    expect([a, b, c].map(deflated)).toEqual([true, true, false]);

    const { chatId } = await a.ok('chat.create', { title: 'mixed' });
    await a.ok('message.send', userMessage(chatId, 'hello'));
    await waitUntil(() => [a, b, c].every((x) => JSON.stringify(x.state) === JSON.stringify(server.store.state)), 'every client in sync');

    await a.close();
    // The server sees the close a moment after the client: a newcomer gets the slot from then on.
    let d = await h.connect(server, { perMessageDeflate: true });
    for (let i = 0; i < 50 && !deflated(d); i++) {
      await d.close();
      await new Promise((r) => setTimeout(r, 20));
      d = await h.connect(server, { perMessageDeflate: true });
    }
    expect(deflated(d)).toBe(true);
    expect(deflated(c)).toBe(false);
  });

  it('never compresses with perMessageDeflate: false', async () => {
    const server = await h.start({ agents: [echoAgent()], memory: true, perMessageDeflate: false });
    const a = await h.connect(server, { perMessageDeflate: true });
    expect(a.ws.extensions).toBe('');
  });
});
