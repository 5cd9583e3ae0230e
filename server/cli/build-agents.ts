/**
 * The agents `agentbar serve` runs, and every command that starts a server of its own when none is
 * running: your ACP agents (`--acp`), a model agent (`--model`), then the demo agents. The first
 * implemented one answers a new chat, so your own agent comes first.
 */
import path from 'node:path';
import type { AgentDefinition } from '../sdk/agent.ts';
import type { AcpArgs, ModelArgs } from './parse-args.ts';
import { createDemoAgents, DemoGate } from '../sdk/demo-agents.ts';

/** Where the agents' own lines go (an ACP agent started, a model endpoint that does not answer). */
export type AgentLog = (agentId: string, level: 'info' | 'warn' | 'error', message: string) => void;

/** `agentbar serve`'s terminal: every line, each naming its agent. */
const logToStderr: AgentLog = (agentId, level, message) => console.error(`[agentbar ${agentId}] ${level}: ${message}`);

export interface AgentFlags {
  model: ModelArgs | null;
  acp: readonly AcpArgs[];
  /** The folder ACP agents work in (default: the current one). */
  cwd: string | undefined;
}

/**
 * `checks` look at what the agents need (the model endpoint, the ACP programs) and log what they
 * find: `agentbar serve` runs them once it listens. `log` gets the agents' own lines (default: stderr).
 *
 * @example const { agents, summary, checks } = await buildAgents({ model: null, acp: [], cwd: undefined }, dataDir);
 */
export async function buildAgents(flags: AgentFlags, dataDir: string, agentLog: AgentLog = logToStderr): Promise<{ agents: AgentDefinition[]; summary: string[]; checks: (() => Promise<void>)[] }> {
  // AGENTBAR_DEMO_PACE_MS lets tests and demos stream the demo replies faster or slower.
  const pace = process.env.AGENTBAR_DEMO_PACE_MS;
  const agents: AgentDefinition[] = [];
  const summary: string[] = [];
  /** Looks at what the agents depend on, for `agentbar serve` to run once it listens. */
  const checks: (() => Promise<void>)[] = [];
  if (flags.acp.length > 0) {
    const { existsSync, statSync } = await import('node:fs');
    const cwd = path.resolve(flags.cwd ?? process.cwd());
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new Error(`--cwd ${cwd} is not a folder`);
    const { createAcpAgent } = await import('../acp-agent/create-acp-agent.ts');
    const { findCommand } = await import('../acp-agent/find-command.ts');
    for (const a of flags.acp) {
      const log = (level: 'info' | 'warn' | 'error', message: string) => agentLog(a.id, level, message);
      agents.push(createAcpAgent({ id: a.id, command: a.command, args: a.args, cwd, log }));
      summary.push(`ACP agent:       ${a.id} → ${[a.command, ...a.args].join(' ')} (in ${cwd}; started on its first message)`);
      // Started on the first message only, so a misspelt or missing program would otherwise show then.
      if (findCommand(a.command, { cwd }) === null) {
        checks.push(async () =>
          log('warn', `Cannot find ${a.command}${where(a.command, cwd)}: is it installed? Give its full path in --acp if it is elsewhere. The agent is listed anyway; a message to it fails until it can start.`),
        );
      }
    }
  }
  if (flags.model) {
    const { createModelAgentsFromArgs } = await import('../model-agent/model-agents-from-args.ts');
    const made = await createModelAgentsFromArgs(flags.model, path.resolve(dataDir), process.env, agentLog);
    agents.push(...made.agents);
    summary.push(...made.summary);
    checks.push(...made.checks);
  }
  agents.push(...createDemoAgents({ ...(pace ? { paceMs: Number(pace) } : {}), gate: demoGateFromEnv() }));
  return { agents, summary, checks };
}

let stdinGate: DemoGate | undefined;

/**
 * With AGENTBAR_DEMO_GATE=stdin (tests that run `agentbar serve` as a process), the demo's long
 * reply and its reasoning are held by a `DemoGate` that the lines `open` and `close` on standard
 * input move. Nothing else of the server reads standard input.
 */
function demoGateFromEnv(): DemoGate | undefined {
  if (process.env.AGENTBAR_DEMO_GATE !== 'stdin') return undefined;
  if (!stdinGate) {
    const gate = new DemoGate();
    let pending = '';
    process.stdin.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!.slice(-100);
      for (const line of lines) {
        if (line.trim() === 'open') gate.open();
        else if (line.trim() === 'close') gate.close();
      }
    });
    stdinGate = gate;
  }
  return stdinGate;
}

/** Where `spawn` looks for a program, for the message that it is not there. */
function where(command: string, cwd: string): string {
  if (!command.includes('/')) return ' on the PATH of the agentbar server';
  return path.isAbsolute(command) ? '' : ` (from ${cwd})`;
}
