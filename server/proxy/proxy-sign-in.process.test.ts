/**
 * Signing a browser into the proxy after the address `agentbar proxy` printed was used or expired:
 * `agentbar sign-in` finds the proxy in the connection file and prints a fresh address for it,
 * whose code the running proxy redeems, without a restart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tryReadConnectionFile } from '../host/connection-file.ts';
import { isProcessAlive, killSpawnedServers, runCli, spawnServer } from '../../test-support/spawn-server.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const pid of await killSpawnedServers()) expect(isProcessAlive(pid), `spawned server ${pid} is gone`).toBe(false);
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function startApp(): Promise<string> {
  const app: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><html><head><title>My app</title></head><body>My app</body></html>');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => app.close(() => resolve())));
  return `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
}

/** The address after "Your app:" once `read()` holds it. */
async function waitForAppAddress(read: () => string): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const found = /Your app:\s+(http:\/\/\S+)/.exec(read())?.[1];
    if (found) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never printed "Your app:": ${read()}`);
}

describe('agentbar sign-in with agentbar proxy running', () => {
  it('prints a fresh address that signs another browser into the proxy, and one for the demo page', async () => {
    const upstream = await startApp();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-proxy-sign-in-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await spawnServer(dataDir, { args: ['--port', '0', '--proxy', upstream, '--proxy-port', '0'] });
    const printed = await waitForAppAddress(() => server.stdout);
    const proxyOrigin = new URL(printed).origin;
    // The first browser uses the printed address up.
    expect((await fetch(printed, { redirect: 'manual' })).status).toBe(200);
    expect((await fetch(printed, { redirect: 'manual' })).status).toBe(403);
    expect((await tryReadConnectionFile(dataDir))?.proxy).toEqual({ url: proxyOrigin, upstream });

    const cli = runCli(['sign-in', '--data-dir', dataDir]);
    expect((await cli.exited).code).toBe(0);
    expect(cli.stdout).not.toContain(server.token);
    expect(cli.stdout).toContain(`${upstream} with the toolbar`);
    const fresh = /Your app:\s+(\S+)/.exec(cli.stdout)?.[1];
    expect(fresh).toMatch(new RegExp(`^${proxyOrigin}/__agentbar/sign-in/[\\w-]+$`));

    // The second browser: the proxy signs it in (its cookie, its key page), once.
    const second = await fetch(fresh!, { redirect: 'manual' });
    expect(second.status).toBe(200);
    expect(second.headers.get('set-cookie')).toMatch(/^agentbar_proxy=/);
    expect(await second.text()).not.toContain(server.token);
    expect((await fetch(fresh!, { redirect: 'manual' })).status).toBe(403);

    // The demo page's address comes with it, and opens the demo page.
    const demo = /Demo page:\s+(\S+)/.exec(cli.stdout)?.[1];
    expect(demo).toMatch(new RegExp(`^${server.httpUrl}/sign-in/[\\w-]+$`));
    expect((await fetch(demo!, { redirect: 'manual' })).status).toBe(200);
  }, 30_000);
});
