import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCommand } from './find-command.ts';

let dir = '';

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

async function makeTree(): Promise<{ bin: string; other: string; work: string }> {
  dir = await mkdtemp(path.join(tmpdir(), 'agentbar-find-'));
  const bin = path.join(dir, 'bin');
  const other = path.join(dir, 'other');
  const work = path.join(dir, 'work');
  for (const d of [bin, other, work, path.join(work, 'tools')]) await mkdir(d, { recursive: true });
  await writeFile(path.join(bin, 'gemini'), '#!/bin/sh\n');
  await chmod(path.join(bin, 'gemini'), 0o755);
  await writeFile(path.join(other, 'notes'), 'not a program');
  await chmod(path.join(other, 'notes'), 0o644);
  await mkdir(path.join(other, 'claude'));
  await writeFile(path.join(work, 'tools', 'agent.sh'), '#!/bin/sh\n');
  await chmod(path.join(work, 'tools', 'agent.sh'), 0o755);
  return { bin, other, work };
}

describe('findCommand', () => {
  it('finds a bare name on PATH, as spawn does', async () => {
    const { bin, other, work } = await makeTree();
    const env = { PATH: [other, bin].join(path.delimiter) };
    expect(findCommand('gemini', { cwd: work, env })).toBe(path.join(bin, 'gemini'));
  });

  it('does not find a name that is missing, not executable, or a folder', async () => {
    const { bin, other, work } = await makeTree();
    const env = { PATH: [other, bin].join(path.delimiter) };
    expect(findCommand('gemeni', { cwd: work, env })).toBeNull();
    expect(findCommand('notes', { cwd: work, env })).toBeNull(); // no execute bit: even root cannot run it
    expect(findCommand('claude', { cwd: work, env })).toBeNull();
    expect(findCommand('gemini', { cwd: work, env: {} })).toBeNull();
  });

  it('reads a command with a slash as a path from the agent\'s folder, never from PATH', async () => {
    const { bin, work } = await makeTree();
    const env = { PATH: bin };
    expect(findCommand('./tools/agent.sh', { cwd: work, env })).toBe(path.join(work, 'tools', 'agent.sh'));
    expect(findCommand(path.join(bin, 'gemini'), { cwd: work, env: {} })).toBe(path.join(bin, 'gemini'));
    expect(findCommand('./gemini', { cwd: work, env })).toBeNull();
  });
});
