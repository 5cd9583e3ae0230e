/**
 * Fetches what the active skill declares as its context (skill-context-spec.ts) once per run, for
 * the system prompt: files of the working folder, the output of page tools, and a command's output,
 * the command run only after the user approves it. Every piece is clipped and the whole section is
 * bounded, so a skill cannot flood the context window.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { truncateText } from '../../shared/truncate.ts';
import { ToolDeniedError, type RunContext } from '../sdk/agent.ts';
import { findContextFiles } from './find-context-files.ts';
import type { Skill } from './skills.ts';

/** The bounds of a skill's context in the prompt. */
export const SKILL_CONTEXT_LIMITS = { files: 20, pieceChars: 4_000, totalChars: 12_000, commandMs: 30_000 } as const;
/** The name the context command's call shows under (it asks the user first). */
export const CONTEXT_COMMAND_TOOL = 'run_skill_command';

function quote(value: unknown): string {
  return truncateText(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), SKILL_CONTEXT_LIMITS.pieceChars);
}

async function readContextFile(root: string, rel: string): Promise<string> {
  const full = path.resolve(root, rel);
  // A symlink or `..` that leads out of the working folder is not read.
  if (path.relative(root, full).startsWith('..')) return '(outside the working folder)';
  try {
    return quote(await readFile(full, 'utf8'));
  } catch (error) {
    return `(could not read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

/** Runs `command` in a shell in `cwd`: its output (stdout and stderr), clipped, and how it ended. */
function runCommand(command: string, cwd: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd, shell: true, signal, timeout: SKILL_CONTEXT_LIMITS.commandMs, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const take = (chunk: Buffer) => {
      if (out.length < SKILL_CONTEXT_LIMITS.pieceChars * 2) out += chunk.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => resolve(`${quote(out.trimEnd())}\n(could not run: ${error.message})`));
    child.on('close', (code, sig) => resolve(`${quote(out.trimEnd())}\n(exit ${code ?? sig})`));
  });
}

async function fetchPieces(ctx: RunContext, skill: Skill, workDir: string): Promise<string[]> {
  const spec = skill.context!;
  const pieces: string[] = [];
  for (const rel of await findContextFiles(workDir, spec.files, SKILL_CONTEXT_LIMITS.files)) pieces.push(`--- file ${rel}\n${await readContextFile(workDir, rel)}`);
  for (const name of spec.page) {
    if (!ctx.pageTools.some((t) => t.name === name)) {
      pieces.push(`--- page ${name}\n(no connected page offers this tool)`);
      continue;
    }
    const { output, isError } = await ctx.callTool({ name, input: {}, runtime: 'toolbar' });
    pieces.push(`--- page ${name}\n${isError ? '(failed) ' : ''}${quote(output)}`);
  }
  if (spec.command) {
    const command = spec.command;
    try {
      const { output } = await ctx.callTool({ name: CONTEXT_COMMAND_TOOL, input: { command, skill: skill.name }, runtime: 'cli', requiresApproval: true, execute: () => runCommand(command, workDir, ctx.signal) });
      pieces.push(`--- command ${command}\n${quote(output)}`);
    } catch (error) {
      if (!(error instanceof ToolDeniedError)) throw error;
      pieces.push(`--- command ${command}\n(the user declined to run it)`);
    }
  }
  return pieces;
}

/**
 * One agent's skill context: `forStep` gives the active skill's section, fetched on its first step
 * of a run and kept for the run's other steps.
 *
 * @example const context = createSkillContext(process.cwd()); const section = await context.forStep(ctx, active);
 */
export function createSkillContext(workDir: string): { forStep(ctx: RunContext, active: Skill | null): Promise<string | null> } {
  const fetched = new WeakMap<RunContext, Map<string, string>>();
  return {
    async forStep(ctx, active) {
      if (!active?.context) return null;
      const byName = fetched.get(ctx) ?? new Map<string, string>();
      fetched.set(ctx, byName);
      let section = byName.get(active.name);
      if (section === undefined) {
        const pieces = await fetchPieces(ctx, active, path.resolve(workDir));
        section = truncateText(`Skill context (${active.name}), fetched for this reply:\n${pieces.join('\n') || '(nothing found)'}`, SKILL_CONTEXT_LIMITS.totalChars);
        byName.set(active.name, section);
      }
      return section;
    },
  };
}
