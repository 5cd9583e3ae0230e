/**
 * The demo page behind a one-time sign-in, through the real `agentbar serve` and `agentbar sign-in`
 * commands: what they print, and what the page answers to whom.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive, killSpawnedServers, runCli, spawnServer } from '../../test-support/spawn-server.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const pid of await killSpawnedServers()) expect(isProcessAlive(pid), `spawned server ${pid} is gone`).toBe(false);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function waitForOutput(read: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (let i = 0; i < 200; i++) {
    const m = read().match(pattern);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never printed ${pattern}: ${read()}`);
}

const SIGN_IN = /http:\/\/127\.0\.0\.1:\d+\/sign-in\/[\w-]+/;

describe('signing in to the demo page', () => {
  it('prints a one-time address, never the token, and the page opens only through it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-sign-in-'));
    dirs.push(dataDir);
    const server = await spawnServer(dataDir);
    const [address] = await waitForOutput(() => server.stdout, SIGN_IN);
    expect(server.stdout + server.stderr).not.toContain(server.token);

    // Another local process, without credentials: nothing that holds the token.
    const anonymous = await fetch(`${server.httpUrl}/`);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.text()).not.toContain(server.token);

    // A link preview's HEAD does not use the address up.
    expect((await fetch(address!, { method: 'HEAD' })).status).toBe(200);
    const first = await fetch(address!, { redirect: 'manual' });
    expect(first.status).toBe(200);
    expect(await first.text()).not.toContain(server.token);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    // The cookie, which browsers also send to other servers on 127.0.0.1, gets the page without any credential.
    const page = await fetch(`${server.httpUrl}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/toolbar.js');
    expect(html).not.toContain(server.token);
    expect(html).not.toMatch(/given = "/);

    expect((await fetch(address!, { redirect: 'manual' })).status).toBe(403);
    expect((await fetch(address!, { method: 'HEAD' })).status).toBe(403);

    // `agentbar sign-in` hands out a new address, from the connection file.
    const cli = runCli(['sign-in', '--data-dir', dataDir]);
    expect((await cli.exited).code).toBe(0);
    const [fresh] = cli.stdout.match(SIGN_IN)!;
    expect(fresh).not.toBe(address);
    expect(cli.stdout).not.toContain(server.token);
    expect((await fetch(fresh!, { redirect: 'manual' })).status).toBe(200);
  }, 30_000);

  it('`agentbar sign-in` says clearly when no server runs', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-sign-in-'));
    dirs.push(dataDir);
    const cli = runCli(['sign-in', '--data-dir', dataDir]);
    expect((await cli.exited).code).toBe(1);
    expect(cli.stderr).toMatch(/no running server found .*server\.json.*agentbar serve/);
  }, 30_000);

  it('`agentbar sign-in` says the server is gone when a killed one left its connection file', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-sign-in-'));
    dirs.push(dataDir);
    const server = await spawnServer(dataDir);
    await server.kill('SIGKILL');
    const cli = runCli(['sign-in', '--data-dir', dataDir]);
    expect((await cli.exited).code).toBe(1);
    expect(cli.stderr).toBe(`agentbar sign-in: the server named in ${path.join(dataDir, 'server.json')} (pid ${server.pid}, ${server.httpUrl}) does not answer (ECONNREFUSED): it may have stopped without removing that file. Start one with \`agentbar serve\`.\n`);
  }, 30_000);
});
