import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../test-support/fake-openai.ts';
import { checkModelEndpoint } from './check-endpoint.ts';

let fake: FakeOpenAi | null = null;
const servers: { server: Server; sockets: Set<Socket> }[] = [];

afterEach(async () => {
  await fake?.close();
  fake = null;
  for (const { server, sockets } of servers.splice(0)) {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A real HTTP server on port 0 answering every request with `handle` (or never, without one). */
async function startServer(handle?: (url: string, res: import('node:http').ServerResponse) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => handle?.(req.url ?? '', res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ server, sockets });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const base = { apiKeyEnv: 'OPENAI_API_KEY' };

describe('checkModelEndpoint', () => {
  it('says the model is available when the endpoint lists it, Ollama\'s implicit :latest and Gemini\'s models/ included', async () => {
    fake = await FakeOpenAi.start();
    fake.models = ['llama3.2:latest', 'qwen2.5-coder:7b', 'models/gemini-2.5-flash'];
    expect(await checkModelEndpoint({ ...base, baseUrl: fake.baseUrl, model: 'qwen2.5-coder:7b' })).toEqual({ level: 'info', message: `qwen2.5-coder:7b is available at ${fake.baseUrl}.` });
    expect((await checkModelEndpoint({ ...base, baseUrl: fake.baseUrl, model: 'llama3.2' })).level).toBe('info');
    expect((await checkModelEndpoint({ ...base, baseUrl: fake.baseUrl, model: 'gemini-2.5-flash' })).level).toBe('info');
    expect((await checkModelEndpoint({ ...base, baseUrl: fake.baseUrl, model: 'llama3' })).level).toBe('warn');
  });

  it('names the models there are when the one asked for is missing, and how to get it', async () => {
    fake = await FakeOpenAi.start();
    fake.models = ['llama3.2:latest', ...Array.from({ length: 10 }, (_, i) => `m${i}`)];
    const check = await checkModelEndpoint({ ...base, baseUrl: fake.baseUrl, model: 'llama3.1' });
    expect(check.level).toBe('warn');
    expect(check.message).toBe(
      `The model server at ${fake.baseUrl} does not list llama3.1 (it lists: llama3.2:latest, m0, m1, m2, m3, m4, m5, m6, and 3 more). Pull or load it (for Ollama: ollama pull llama3.1), or pass one of those to --model. Some servers answer under any name; if replies work, ignore this.`,
    );
  });

  it('tells a refused connection from the rest: the model server is not running', async () => {
    const url = await startServer();
    const { server, sockets } = servers.pop()!;
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
    const check = await checkModelEndpoint({ ...base, baseUrl: `${url}/v1`, model: 'llama3.2' });
    expect(check).toEqual({
      level: 'warn',
      message: `Cannot reach the model server at ${url}/v1: the connection was refused (is the model server running? For Ollama: ollama serve). Replies from this agent will fail until that is fixed; the server runs either way.`,
    });
  });

  it('suggests /v1 when the base URL leaves it out and the server has no API there', async () => {
    fake = await FakeOpenAi.start();
    const root = fake.baseUrl.replace(/\/v1$/, '');
    const check = await checkModelEndpoint({ ...base, baseUrl: root, model: 'fake-model:7b' });
    expect(check).toEqual({ level: 'warn', message: `The server at ${root} has no OpenAI-compatible API there (GET /models answered 404). Most serve it under /v1: try --base-url ${root}/v1.` });
  });

  it('says the key was refused, or that there was none, and never prints it', async () => {
    fake = await FakeOpenAi.start();
    fake.apiKey = 'sk-right-0123456789';
    const wrong = await checkModelEndpoint({ ...base, baseUrl: fake.baseUrl, model: 'fake-model:7b', apiKey: 'sk-wrong-0123456789' });
    expect(wrong).toEqual({
      level: 'warn',
      message: `The model server at ${fake.baseUrl} refused the key in $OPENAI_API_KEY (401: Incorrect API key provided.). Replies from this agent will fail until that is fixed; the server runs either way.`,
    });
    const none = await checkModelEndpoint({ ...base, apiKeyEnv: 'GROQ_KEY', baseUrl: fake.baseUrl, model: 'fake-model:7b' });
    expect(none.message).toContain('refused no key ($GROQ_KEY is not set; --api-key-env names another variable) (401');
    const right = await checkModelEndpoint({ ...base, baseUrl: fake.baseUrl, model: 'fake-model:7b', apiKey: 'sk-right-0123456789' });
    expect(right.level).toBe('info');
    expect(fake.requests).toEqual([]); // a check never asks the model for a completion
  });

  it('gives up on an endpoint that does not answer, after the timeout', async () => {
    const url = await startServer(); // accepts and never answers
    const check = await checkModelEndpoint({ ...base, baseUrl: `${url}/v1`, model: 'm', timeoutMs: 200 });
    expect(check.message).toBe(`Cannot reach the model server at ${url}/v1: no answer within 0.2 s. Replies from this agent will fail until that is fixed; the server runs either way.`);
  });

  it('keeps escape sequences in the answer away from the terminal, and reads what is not a model list, or an answer cut short, as unknown', async () => {
    const url = await startServer((path, res) => {
      if (path === '/a/v1/models') res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'evil\u001b]0;pwned\u0007name' }] }));
      else if (path === '/b/v1/models') res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>LM Studio</html>');
      else if (path === '/d/v1/models') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{"data":[', () => res.socket?.destroy());
      }
      else res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'loading \u001b[2Jmodel' }));
    });
    const evil = await checkModelEndpoint({ ...base, baseUrl: `${url}/a/v1`, model: 'm' });
    expect(evil.message).toContain('(it lists: evil]0;pwnedname)');
    expect(await checkModelEndpoint({ ...base, baseUrl: `${url}/b/v1`, model: 'm' })).toEqual({
      level: 'warn',
      message: `The server at ${url}/b/v1 answered GET /models with something other than an OpenAI model list, so agentbar cannot check that it serves m.`,
    });
    expect((await checkModelEndpoint({ ...base, baseUrl: `${url}/c/v1`, model: 'm' })).message).toBe(
      `The model server at ${url}/c/v1 answered 500 to GET /models: loading [2Jmodel. It may be starting or failing; replies may fail too.`,
    );
    expect((await checkModelEndpoint({ ...base, baseUrl: `${url}/d/v1`, model: 'm' })).message).toMatch(new RegExp(`^Cannot reach the model server at ${url}/d/v1: .+\\. Replies from this agent will fail`));
  });
});
