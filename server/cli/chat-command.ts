/**
 * `agentbar chat -a AGENT [-m MESSAGE] [--session NAME] [--new] [--yes]`: one message (`-m`), one
 * per line of piped input, or, on a terminal, the interactive chat. Exit status: 0 when the (last)
 * reply is done, 1 when it failed, was stopped or was refused, 2 for a usage mistake.
 */
import path from 'node:path';
import readline from 'node:readline';
import { UsageError } from '../cli-args.ts';
import { attachOrEmbed, type Attached } from './attach.ts';
import { CliError, openSession, runTurn, type Approver, type TurnOutput, type TurnResult } from './chat-turn.ts';
import { COMMON_HELP, parseCommandArgs } from './command-args.ts';

export const CHAT_USAGE = `Usage: agentbar chat -a <agent> [-m <message>] [--session <name>] [--new] [--yes]

Talks to an agent. With -m, sends one message, streams the reply to stdout, prints a completion
line (to stderr) and exits 0 when the reply is done, 1 when it failed, was stopped or was refused.
Without -m, reads one message per line from piped input (exiting with the status of the last), or
opens the interactive chat on a terminal (/help for its commands).
  -a, --agent <id>      The agent to talk to (required; \`agentbar agents\` lists them)
  -m, --message <text>  The message to send
  --session <name>      The chat to use, by title or id (default "default"; created on first use)
  --new                 Start that session afresh (deleting it through the agent, which may refuse)
  --yes                 Approve the agent's tool calls without asking (needed without a terminal)
${COMMON_HELP}`;

function completionLine(result: TurnResult, where: string): string {
  const mark = result.status === 'done' ? '✓' : result.status === 'stopped' ? '■' : '✗';
  const why = result.error ? `: ${result.error}` : '';
  return `${mark} ${result.status}${why} · ${result.messageId ?? 'no reply message'} · ${(result.ms / 1000).toFixed(1)} s · ${where}`;
}

function makeApprover(options: { yes: boolean; interactive: boolean; note: (line: string) => void }): Approver {
  return async (call) => {
    if (options.yes) return { approved: true };
    if (!options.interactive) {
      options.note(`Rejected ${call.toolName}: no terminal to ask for approval (pass --yes to approve tool calls)`);
      return { approved: false, reason: 'agentbar chat ran without a terminal to ask; pass --yes to approve tool calls' };
    }
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
    const answer = await new Promise<string>((resolve) => rl.question(`Approve ${call.toolName} ${JSON.stringify(call.input)}? [y = approve, Enter = reject, or type a reason to reject] `, resolve));
    rl.close();
    const a = answer.trim();
    if (/^(y|yes)$/i.test(a)) return { approved: true };
    return a && !/^(n|no)$/i.test(a) ? { approved: false, reason: a } : { approved: false };
  };
}

export async function runChat(argv: string[]): Promise<number> {
  const { values, common } = parseCommandArgs(argv, {
    agent: { type: 'string', short: 'a' },
    message: { type: 'string', short: 'm' },
    session: { type: 'string' },
    new: { type: 'boolean' },
    yes: { type: 'boolean' },
  });
  if (common.help) {
    console.log(CHAT_USAGE);
    return 0;
  }
  const out: TurnOutput = { text: (s) => process.stdout.write(s), note: (line) => process.stderr.write(`${line}\n`) };
  let attached: Attached;
  try {
    attached = await attachOrEmbed({ dataDir: common.dataDir, flags: common, name: 'agentbar chat' });
  } catch (error) {
    throw new CliError(`Cannot reach the agent server: ${(error as Error).message}`);
  }
  try {
    const state = attached.client.getSnapshot().state!;
    const agent = typeof values.agent === 'string' ? values.agent : null;
    if (!agent) {
      const example = state.agents.find((a) => a.implemented)?.id ?? state.agents[0]?.id ?? 'demo/guide';
      throw new CliError(`Error: Please specify an agent with -a (e.g., -a ${example})`, 2);
    }
    const known = state.agents.find((a) => a.id === agent);
    if (!known) throw new CliError(`Unknown agent: ${agent}`);
    if (!known.implemented) throw new CliError(`Agent '${agent}' not implemented`);
    const name = typeof values.session === 'string' ? values.session : 'default';
    const chatId = await openSession(attached.client, name, { fresh: values.new === true, agent });
    const where = `chat "${name}" · ${path.join(attached.dataDir, 'chats', `${chatId}.jsonl`)}`;
    const interactive = process.stdin.isTTY === true;
    const approve = makeApprover({ yes: values.yes === true, interactive, note: out.note });

    const turn = async (text: string): Promise<TurnResult> => {
      const result = await runTurn(attached.client, { chatId, agent, text, approve, out });
      out.text('\n');
      out.note(completionLine(result, where));
      return result;
    };

    if (typeof values.message === 'string') return (await turn(values.message)).status === 'done' ? 0 : 1;
    if (interactive) {
      const { runInteractiveChat } = await import('./interactive-chat.ts');
      return await runInteractiveChat({
        client: attached.client,
        agent,
        describeWhere: (id) => `chat ${JSON.stringify(attached.client.getSnapshot().state?.chats[id]?.title ?? name)} · ${path.join(attached.dataDir, 'chats', `${id}.jsonl`)}`,
        formatCompletion: completionLine,
      });
    }
    // Piped input: each line in order, each after the previous reply ended.
    const rl = readline.createInterface({ input: process.stdin, terminal: false });
    let last: TurnResult | null = null;
    for await (const line of rl) {
      const text = line.trim();
      if (!text) continue;
      last = await turn(text);
    }
    if (!last) throw new UsageError('Nothing to send: pass -m <message>, or pipe lines in');
    return last.status === 'done' ? 0 : 1;
  } finally {
    await attached.close();
  }
}
