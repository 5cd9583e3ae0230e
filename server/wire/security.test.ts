import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineAgent } from '../sdk/agent.ts';
import { TestClient, userMessage, type TestClientOptions } from '../../test-support/test-client.ts';
import { echoAgent, expectRejected, settle, useHarness, type TestServer } from '../../test-support/test-server.ts';

const h = useHarness();

/** Connects and expects a plain HTTP refusal before the upgrade. */
async function expectRefused(server: TestServer, options: TestClientOptions, why: RegExp): Promise<void> {
  const watcher = await h.connect(server);
  const before = structuredClone(server.store.state);
  const framesBefore = watcher.frames.length;
  const error = (await TestClient.connect(server, options).then(
    (client) => {
      void client.terminate();
      return null;
    },
    (e: unknown) => e,
  )) as { status?: number; body?: string } | null;
  expect(error, 'the connection should be refused').not.toBeNull();
  expect(error!.status).toBe(403);
  expect(error!.body).toMatch(why);
  expect(server.store.state).toEqual(before);
  // Nothing reached the connected client, and it still works.
  const r = await watcher.request('chat.rename', { chatId: 'chat_none', title: 'x' });
  expect(r.error.code).toBe('not_found');
  expect(watcher.frames.slice(framesBefore).map((f) => f.type)).toEqual(['result']);
}

/** A raw HTTP GET, so tests can set any Host header. */
function get(server: TestServer, pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path: pathname, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every file under `dir`, relative to it. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('who may connect (HTTP 403 before the upgrade)', () => {
  it('refuses a foreign Origin', async () => {
    const server = await h.start();
    await expectRefused(server, { headers: { Origin: 'http://evil.example' } }, /Origin/);
    await expectRefused(server, { headers: { Origin: 'https://localhost.evil.example' } }, /Origin/);
    await expectRefused(server, { headers: { Origin: 'https://localhost:5173' } }, /Origin/);
  });

  it('refuses Origin: null', async () => {
    const server = await h.start();
    await expectRefused(server, { headers: { Origin: 'null' } }, /Origin/);
  });

  it('refuses a foreign Host, and a loopback Host with another port', async () => {
    const server = await h.start();
    await expectRefused(server, { headers: { Host: `evil.example:${server.port}` } }, /Host/);
    await expectRefused(server, { headers: { Host: 'evil.example' } }, /Host/);
    await expectRefused(server, { headers: { Host: `localhost:${server.port === 65535 ? 1 : server.port + 1}` } }, /Host/);
    await expectRefused(server, { headers: { Host: `127.0.0.1.evil.example:${server.port}` } }, /Host/);
  });

  it('refuses a missing, empty or wrong token', async () => {
    const server = await h.start();
    await expectRefused(server, { token: null }, /token/);
    await expectRefused(server, { token: '' }, /token/);
    await expectRefused(server, { token: 'x'.repeat(server.token.length) }, /token/);
    await expectRefused(server, { token: server.token + 'x' }, /token/);
    await expectRefused(server, { token: server.token.slice(0, -1) }, /token/);
  });

  it('opens to the demo page only with its browser key and session cookie together, never with the cookie alone', async () => {
    const server = await h.start();
    const signedIn = await get(server, `/?token=${server.token}`, { Host: `127.0.0.1:${server.port}` });
    expect(signedIn.status).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const key = /given = "([\w-]+)"/.exec(signedIn.body)![1]!;
    expect(key).not.toBe(server.token);
    // What a reload answers the cookie holds neither the token nor the key.
    const reload = await get(server, '/', { Host: `127.0.0.1:${server.port}`, Cookie: cookie });
    expect(reload.status).toBe(200);
    expect(reload.body).not.toContain(server.token);
    expect(reload.body).not.toContain(key);

    const page = { Origin: `http://127.0.0.1:${server.port}` };
    await expectRefused(server, { token: null, headers: { ...page, Cookie: cookie } }, /token/);
    await expectRefused(server, { token: key, headers: page }, /token/);
    await expectRefused(server, { token: key, headers: { ...page, Cookie: 'agentbar_session=forged-forged-forged' } }, /token/);
    const client = await h.connect(server, { token: key, headers: { ...page, Cookie: cookie } });
    expect(client.state).toEqual(server.store.state);
  });

  it('accepts a client without Origin that gives the token in the query', async () => {
    const server = await h.start();
    const client = await h.connect(server);
    expect(client.state).toEqual(server.store.state);
  });

  it('accepts loopback browser origins and loopback Host headers', async () => {
    const server = await h.start();
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080', 'http://localhost']) {
      const client = await h.connect(server, { headers: { Origin: origin } });
      expect(client.state).toEqual(server.store.state);
    }
    for (const host of ['localhost', `localhost:${server.port}`, `127.0.0.1:${server.port}`, `[::1]:${server.port}`]) {
      const client = await h.connect(server, { headers: { Host: host } });
      expect(client.state).toEqual(server.store.state);
    }
  });

  it('accepts an --allow-origin origin only on the server that allows it', async () => {
    const open = await h.start({ allowOrigins: ['https://dev.example.test:3000'] });
    const client = await h.connect(open, { headers: { Origin: 'https://dev.example.test:3000' } });
    expect(client.state).toEqual(open.store.state);
    await expectRefused(open, { headers: { Origin: 'https://dev.example.test:3001' } }, /Origin/);
    const closed = await h.start();
    await expectRefused(closed, { headers: { Origin: 'https://dev.example.test:3000' } }, /Origin/);
  });

  it('logs a refused WebSocket with its reason, once a minute per reason', async () => {
    const server = await h.start();
    for (let i = 0; i < 3; i++) await expectRefused(server, { token: 'wrong-token-wrong-token' }, /token/);
    await expectRefused(server, { headers: { Origin: 'https://evil.example' } }, /Origin/);
    const refusals = server.logs.filter((l) => l.message.startsWith('Refused a WebSocket'));
    expect(refusals.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'Refused a WebSocket: Missing or wrong token (origin none). A toolbar with an old token gets the current one when its page is reloaded.'],
      ['warn', 'Refused a WebSocket: Origin not allowed (origin https://evil.example). If that page is yours, start the server with --allow-origin https://evil.example (allowOrigins in startServer).'],
    ]);
  });

  it('never writes the token to the log, nor into a refusal', async () => {
    const failing = defineAgent({
      id: 'test/failing',
      description: 'Throws',
      run: () => {
        throw new Error('agent bug');
      },
    });
    const server = await h.start({ agents: [echoAgent(), failing], limits: { maxBadFrames: 2 } });
    await expectRefused(server, { token: 'wrong-token-wrong-token' }, /token/);
    await expectRefused(server, { headers: { Origin: 'null' } }, /Origin/);
    const refusal = await TestClient.connect(server, { token: server.token.slice(1) }).catch((e: { body: string }) => e);
    expect((refusal as { body: string }).body).not.toContain(server.token);
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', {});
    await client.ok('message.send', userMessage(chatId, 'hello', { agent: 'test/failing' }));
    await settle(server, client);
    const rude = await h.connect(server);
    rude.sendRaw('not json');
    rude.sendRaw('still not json');
    await rude.waitClosed();
    expect(server.logs.length).toBeGreaterThan(0);
    for (const line of server.logs) expect(line.message).not.toContain(server.token);
  });
});

describe('HTTP routes', () => {
  it('answers /health without a token, under the Host check', async () => {
    const server = await h.start();
    expect((await get(server, '/health', { Host: `127.0.0.1:${server.port}` })).status).toBe(200);
    expect((await get(server, '/health', { Host: 'evil.example' })).status).toBe(403);
  });

  it('writes the connection file with mode 0600 while listening and removes it on close', async () => {
    const server = await h.start();
    const file = path.join(server.dataDir, 'server.json');
    expect(server.connectionFile).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: server.url, http: server.httpUrl, token: server.token, pid: process.pid });
    await server.close();
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('frame size', () => {
  it('closes a client with 1009 when a frame is over maxFrameBytes, and the others go on', async () => {
    const server = await h.start({ maxFrameBytes: 1024 });
    const big = await h.connect(server);
    const other = await h.connect(server);
    const before = structuredClone(server.store.state);
    big.sendJson({ type: 'chat.create', id: 'big', title: 'x'.repeat(2000) });
    expect((await big.waitClosed()).code).toBe(1009);
    expect(big.framesOf('result')).toEqual([]);
    expect(server.store.state).toEqual(before);
    const { chatId } = await other.ok('chat.create', { title: 'small' });
    expect(other.state!.chats[chatId]!.title).toBe('small');
  });

  it('accepts a frame just under maxFrameBytes', async () => {
    const server = await h.start({ maxFrameBytes: 1024 });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', { title: 'y'.repeat(150) });
    expect(client.state!.chats[chatId]!.title).toBe('y'.repeat(150));
  });
});

describe('ids that try to leave the data directory', () => {
  const HOSTILE_IDS = ['../x', '../../escape', 'a/b', '', '.', '..', '/etc/passwd', '..\\x', 'chat\u0000x', '%2e%2e%2fx', 'x'.repeat(65)];

  it('answers not_found for every request naming a hostile chat id, and writes nothing outside chats/', async () => {
    const root = await h.tmpDir();
    await writeFile(path.join(root, 'sentinel.txt'), 'untouched');
    const dataDir = path.join(root, 'data');
    const server = await h.start({ dataDir, agents: [echoAgent()] });
    const client = await h.connect(server);
    const { chatId } = await client.ok('chat.create', { title: 'real' });
    await client.ok('message.send', userMessage(chatId, 'hello'));
    await settle(server, client);

    for (const id of HOSTILE_IDS) {
      const notFound = { code: 'not_found', path: 'chatId' };
      await expectRejected(server, client, 'chat.switch', { chatId: id }, notFound);
      await expectRejected(server, client, 'chat.delete', { chatId: id }, notFound);
      await expectRejected(server, client, 'chat.rename', { chatId: id, title: 'pwned' }, notFound);
      await expectRejected(server, client, 'message.send', userMessage(id, 'pwned'), notFound);
      await expectRejected(server, client, 'run.stop', { chatId: id }, notFound);
      await expectRejected(server, client, 'tool.approve', { chatId: id, toolCallId: 'call_x', approved: true }, notFound);
      await expectRejected(server, client, 'tool.result', { chatId: id, toolCallId: 'call_x', output: 1 }, notFound);
      await expectRejected(server, client, 'tool.approve', { chatId, toolCallId: id || 'x/../y', approved: true }, { code: 'not_found', path: 'toolCallId' });
      await expectRejected(server, client, 'tool.result', { chatId, toolCallId: id || 'x/../y', output: 1 }, { code: 'not_found', path: 'toolCallId' });
      await expectRejected(server, client, 'message.send', userMessage(chatId, 'x', { agent: id }), { code: id ? 'unknown_agent' : 'invalid_message', path: 'agent' });
    }

    await server.close();
    const files = await listFiles(root);
    expect(files).toEqual(['data/chats/' + chatId + '.jsonl', 'data/meta.json', 'sentinel.txt'].sort());
    expect(await readFile(path.join(root, 'sentinel.txt'), 'utf8')).toBe('untouched');
  });
});
