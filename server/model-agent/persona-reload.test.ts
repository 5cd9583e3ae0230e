/**
 * Persona files edited, added and removed while the server runs: what the agent uses and what the
 * log says. Real files in a fresh folder.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../test-support/test-server.ts';
import { watchPersonaFile } from './persona-file.ts';
import { watchPersonaFolder } from './persona-folder.ts';
import { readPersona } from './personas.ts';

const h = useHarness();

async function personaDir(): Promise<string> {
  const dir = path.join(await h.tmpDir(), 'agents');
  await mkdir(dir);
  return dir;
}

describe('watchPersonaFile', () => {
  it('keeps its id and model until a restart, saying so, and its last version when the file is gone', async () => {
    const file = path.join(await personaDir(), 'reviewer.md');
    await writeFile(file, '---\ndescription: A reviewer\nmodel: small\n---\nYou are Rev.\n');
    const logged: string[] = [];
    const watched = watchPersonaFile(await readPersona(file), (level, message) => logged.push(`${level}: ${message}`));
    expect((await watched.get()).prompt).toBe('You are Rev.');
    await writeFile(file, '---\ndescription: A reviewer\nid: team/rev\nmodel: large\n---\nYou are Rev, now longer.\n');
    expect(await watched.get()).toMatchObject({ id: 'persona/reviewer', model: 'small', prompt: 'You are Rev, now longer.' });
    expect(logged).toEqual([
      `warn: Persona ${file}: its id team/rev takes effect after a restart; until then it is persona/reviewer`,
      `warn: Persona ${file}: its model takes effect after a restart`,
      `info: Persona reloaded: ${file}`,
    ]);
    await rm(file);
    expect((await watched.get()).prompt).toBe('You are Rev, now longer.');
    expect(logged).toHaveLength(3);
  });
});

describe('watchPersonaFolder', () => {
  it('logs a persona file added or removed since the last look, once', async () => {
    const dir = await personaDir();
    await writeFile(path.join(dir, 'old.md'), 'x');
    const logged: string[] = [];
    const check = await watchPersonaFolder(dir, (level, message) => logged.push(`${level}: ${message}`));
    await check();
    expect(logged).toEqual([]);
    await writeFile(path.join(dir, 'new.md'), 'x');
    await writeFile(path.join(dir, 'notes.txt'), 'x');
    await rm(path.join(dir, 'old.md'));
    await check();
    await check();
    expect(logged).toEqual([
      `warn: New persona file ${path.join(dir, 'new.md')}: it is served after a restart (agents are fixed while the server runs)`,
      `warn: Persona file removed: ${path.join(dir, 'old.md')}: its agent, if it was served, keeps its last version until a restart`,
    ]);
  });
});
