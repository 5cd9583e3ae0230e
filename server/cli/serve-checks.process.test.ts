/**
 * What `agentbar serve` says about its agents' programs once it listens: the real CLI in a child
 * process, with `--acp` commands that exist and one that does not.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive, killSpawnedServers, spawnServer } from '../../test-support/spawn-server.ts';
import { useHarness, waitUntil } from '../../test-support/test-server.ts';

const h = useHarness();
const SCRIPT = fileURLToPath(new URL('../../test-support/scripted-acp-agent.mjs', import.meta.url));

afterEach(async () => {
  for (const pid of await killSpawnedServers()) expect(isProcessAlive(pid)).toBe(false);
});

describe('agentbar serve --acp', () => {
  it('says at start which agent programs it cannot find, and serves every agent anyway', async () => {
    const dataDir = await h.tmpDir();
    const cwd = await h.tmpDir();
    const server = await spawnServer(dataDir, {
      args: ['--port', '0', '--cwd', cwd, '--acp', 'gemeni --experimental-acp', '--acp', './bin/agent', '--acp-id', 'acp/local', '--acp', `node ${SCRIPT}`, '--acp-id', 'acp/scripted'],
    });
    await waitUntil(() => server.stderr.includes('[agentbar acp/local]'), 'the checks');
    expect(server.stderr).toContain('[agentbar acp/gemeni] warn: Cannot find gemeni on the PATH of the agentbar server: is it installed? Give its full path in --acp if it is elsewhere.');
    expect(server.stderr).toContain(`[agentbar acp/local] warn: Cannot find ./bin/agent (from ${path.resolve(cwd)}): is it installed?`);
    expect(server.stderr).not.toContain('acp/scripted');
    const agents = (await (await fetch(`${server.httpUrl}/agents`, { headers: { Authorization: `Bearer ${server.token}` } })).json()) as { id: string }[];
    expect(agents.map((a) => a.id)).toEqual(expect.arrayContaining(['acp/gemeni', 'acp/local', 'acp/scripted']));
  }, 30_000);
});
