/**
 * `agentbar chat -a AGENT [-m MESSAGE] [--session NAME] [--new] [--yes] [--save-files DIR]`: one
 * message (`-m`), one per line of piped input, or, on a terminal, the interactive chat. Exit
 * status: 0 when the (last) reply is done, 1 when it failed, was stopped or was refused (or one of
 * its files could not be saved), 2 for a usage mistake.
 */
import { fstatSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { describeApprovalQuestion, readApprovalAnswer } from './approval-prompt.ts';
import { attachOrEmbed, type Attached } from './attach.ts';
import { CliError, openSession, runTurn, type Approver, type TurnOutput, type TurnResult } from './chat-turn.ts';
import { COMMON_HELP, describeOptions } from './options.ts';
import { parseCommandArgs, UsageError } from './parse-args.ts';
import { routeConsoleTo } from './route-console.ts';
import { watchStopSignals } from './stop-signals.ts';
import { describeUnknownAgent } from './unknown-agent.ts';
import { AttachmentError, readAttachments, type Attachment } from './terminal/read-attachment.ts';
import { shownOn, stripTerminalControls } from './terminal/terminal-text.ts';

export const CHAT_USAGE = `Usage: agentbar chat -a <agent> [-m <message> [--attach <file>]…] [--session <name>] [--new] [--yes] [--verbose] [--no-progress] [--save-files <dir>]

Talks to an agent. With -m, sends one message, streams the reply to stdout, prints a completion
line (to stderr) and exits 0 when the reply is done, 1 when it failed, was stopped or was refused.
Tool calls, the files a reply carries and how long the agent thought are noted on stderr.
Without -m, reads one message per line from piped input (exiting with the status of the last), or
opens the interactive chat on a terminal (/help for its commands). Ctrl+C (SIGINT), SIGTERM or
SIGHUP during a reply stops it and exits 130, 143 or 129.
${describeOptions(['agent', 'message', 'session', 'new', 'yes', 'verbose', 'show-progress', 'no-progress', 'save-files', 'attach'])}
${COMMON_HELP}`;

function completionLine(result: TurnResult, where: string): string {
  const mark = result.unsaved > 0 ? '✗' : result.status === 'done' ? '✓' : result.status === 'stopped' ? '■' : '✗';
  const why = result.error ? `: ${result.error}` : '';
  const unsaved = result.unsaved > 0 ? ` (${result.unsaved === 1 ? 'a file was' : `${result.unsaved} files were`} not saved)` : '';
  return `${mark} ${result.status}${why}${unsaved} · ${result.messageId ?? 'no reply message'} · ${(result.ms / 1000).toFixed(1)} s · ${where}`;
}

/**
 * The reply's text to stdout and notes to stderr, so a script's stdout is the reply alone. On a
 * terminal, or where both go to one file or pipe (`> log 2>&1`, a CI log), they land in one place:
 * there a note starts a line of its own instead of running on from the text, and the text goes on
 * below it.
 */
function makeTurnOutput(): TurnOutput & { endReply(): void; printed(text: string): void; mute(): void } {
  const sameScreen = (process.stdout.isTTY === true && process.stderr.isTTY === true) || isSameFile(1, 2);
  // A terminal gets no control characters from the agent; a pipe gets its bytes as they are.
  const toStdout = shownOn(process.stdout);
  const toStderr = shownOn(process.stderr);
  let midLine = false;
  let muted = false;
  /** A terminal that hung up, or a pipe whose reader left, refuses writes (EIO, EPIPE): the command still ends cleanly. */
  const write = (stream: NodeJS.WriteStream, text: string) => {
    if (muted) return;
    try {
      stream.write(text);
    } catch {
      muted = true;
    }
  };
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => (muted = true));
  return {
    text(chunk) {
      if (!chunk) return;
      write(process.stdout, toStdout(chunk));
      midLine = !chunk.endsWith('\n');
    },
    note(line) {
      if (midLine && sameScreen) write(process.stdout, '\n');
      if (sameScreen) midLine = false;
      write(process.stderr, `${toStderr(line)}\n`);
    },
    endReply() {
      // Piped, the reply always ends with a newline of its own; on a terminal, only a line still open.
      if (midLine || !sameScreen) write(process.stdout, '\n');
      midLine = false;
    },
    mute() {
      muted = true;
    },
    /** What the interactive chat wrote to stdout itself. */
    printed(text) {
      if (text) midLine = !text.endsWith('\n');
    },
  };
}

/** True when two descriptors are one open file, pipe or terminal (`2>&1`). */
function isSameFile(a: number, b: number): boolean {
  try {
    const [x, y] = [fstatSync(a), fstatSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

function makeApprover(options: { yes: boolean; interactive: boolean; verbose: boolean; note: (line: string) => void }): Approver {
  return async (call) => {
    if (options.yes) return { approved: true };
    if (!options.interactive) {
      options.note(`Rejected ${call.toolName}: no terminal to ask for approval (pass --yes to approve tool calls)`);
      return { approved: false, reason: 'agentbar chat ran without a terminal to ask; pass --yes to approve tool calls' };
    }
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
    // On a terminal, readline takes Ctrl+C from the process: hand it back, so it stops the reply.
    rl.on('SIGINT', () => {
      rl.close();
      process.kill(process.pid, 'SIGINT');
    });
    const answer = await new Promise<string>((resolve) => rl.question(stripTerminalControls(describeApprovalQuestion(call, { verbose: options.verbose })), resolve));
    rl.close();
    return readApprovalAnswer(answer, call);
  };
}

/** The lines of piped input, trimmed, blank ones left out. */
async function* readNonBlankLines(lines: AsyncIterable<string>): AsyncGenerator<string, void> {
  for await (const line of lines) {
    const text = line.trim();
    if (text) yield text;
  }
}

export async function runChat(argv: string[]): Promise<number> {
  const { values, common } = parseCommandArgs('chat', argv);
  if (common.help) {
    console.log(CHAT_USAGE);
    return 0;
  }
  if (values['save-files'] === '') throw new UsageError('--save-files needs a folder, e.g. --save-files ./out');
  const saveFiles = typeof values['save-files'] === 'string' ? path.resolve(values['save-files']) : undefined;
  const attachFiles = Array.isArray(values.attach) ? values.attach : [];
  if (attachFiles.length > 0 && typeof values.message !== 'string') throw new UsageError('--attach goes with -m: the files are sent with that message');
  // Read before any server starts: a missing or oversized file is the whole answer.
  let attachments: Attachment[];
  try {
    attachments = await readAttachments(attachFiles, { stdin: process.stdin });
  } catch (error) {
    if (error instanceof AttachmentError) throw new CliError(error.message, 2);
    throw error;
  }
  if (values['show-progress'] && values['no-progress']) throw new UsageError('--show-progress and --no-progress: give one of them');
  const out = makeTurnOutput();
  if (values['no-progress']) out.progress = () => {};
  let attached: Attached;
  try {
    // A server started here logs its problems between the reply's lines, not inside one.
    attached = await attachOrEmbed({ dataDir: common.dataDir, flags: common, name: 'agentbar chat', log: out.note });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`Cannot reach the agent server: ${(error as Error).message}`);
  }
  const restoreConsole = routeConsoleTo(out.note);
  const interactive = process.stdin.isTTY === true;
  // The interactive chat reads Ctrl+C itself (it stops the run and exits 130); -m on a terminal does not.
  const interactiveChat = interactive && typeof values.message !== 'string';
  const stop = watchStopSignals(interactiveChat ? ['SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP'], (signal) => {
    // After SIGHUP the terminal is gone: nothing more is written to it.
    if (signal === 'SIGHUP') out.mute();
    else out.note(`agentbar chat: ${signal}, stopping…`);
  });
  try {
    const state = attached.client.getSnapshot().state!;
    // With no -a, the one agent given by --model or --acp is the one meant (when it is served).
    const given = [...(common.model ? [common.model.agentId] : []), ...common.acp.map((a) => a.id)];
    const served = given.filter((id) => state.agents.some((a) => a.id === id && a.implemented));
    const agent = typeof values.agent === 'string' ? values.agent : given.length === 1 && served.length === 1 ? served[0]! : null;
    if (!agent) {
      const example = served[0] ?? state.agents.find((a) => a.implemented)?.id ?? state.agents[0]?.id ?? 'demo/guide';
      throw new CliError(`Error: Please specify an agent with -a (e.g., -a ${example})`, 2);
    }
    const known = state.agents.find((a) => a.id === agent);
    if (!known) throw new CliError(describeUnknownAgent(agent, state.agents));
    if (!known.implemented) throw new CliError(`Agent '${agent}' not implemented`);
    const name = typeof values.session === 'string' ? values.session : 'default';
    // Opened (a --new one emptied) only once there is something to send: a usage mistake changes nothing.
    const openChat = () => openSession(attached.client, name, { fresh: values.new === true, agent });
    const verbose = values.verbose === true;
    const approve = makeApprover({ yes: values.yes === true, interactive, verbose, note: out.note });

    const turn = async (chatId: string, text: string, files: Attachment[] = []): Promise<TurnResult> => {
      const result = await stop.track(runTurn(attached.client, { chatId, agent, text, attachments: files, approve, out, saveFiles, saveHint: '--save-files <dir> saves it', signal: stop.signal, verbose }));
      out.endReply();
      out.note(completionLine(result, `chat "${name}" · ${path.join(attached.dataDir, 'chats', `${chatId}.jsonl`)}`));
      return result;
    };
    const exitCode = (result: TurnResult) => (result.status === 'done' && result.unsaved === 0 ? 0 : 1);

    if (typeof values.message === 'string') {
      const chatId = await openChat();
      return await stop.race(turn(chatId, values.message, attachments).then(exitCode));
    }
    if (interactiveChat) {
      await openChat();
      const { runInteractiveChat } = await import('./interactive-chat.ts');
      return await stop.race(runInteractiveChat({
        client: attached.client,
        agent,
        saveFiles,
        stop,
        verbose,
        describeWhere: (id) => `chat ${JSON.stringify(attached.client.getSnapshot().state?.chats[id]?.title ?? name)} · ${path.join(attached.dataDir, 'chats', `${id}.jsonl`)}`,
        formatCompletion: completionLine,
        // A note (the server's, a library's) then starts a line of its own, not one a reply left open.
        onPrint: out.printed,
      }));
    }
    // Piped input: each line in order, each after the previous reply ended.
    const rl = readline.createInterface({ input: process.stdin, terminal: false });
    const readLines = async () => {
      const lines = readNonBlankLines(rl);
      const first = await lines.next();
      if (first.done) throw new UsageError('Nothing to send: pass -m <message>, or pipe lines in');
      const chatId = stop.caught ? null : await openChat();
      let last: TurnResult | null = null;
      for (let next: IteratorResult<string, void> = first; chatId !== null && !next.done; next = await lines.next()) {
        // The lines after a signal are not sent.
        if (stop.caught) break;
        last = await turn(chatId, next.value);
      }
      return last ? exitCode(last) : 1;
    };
    try {
      return await stop.race(readLines());
    } finally {
      rl.close();
    }
  } finally {
    stop.dispose();
    // A server this command started stops its agents (and an ACP agent's processes) here.
    await attached.close();
    restoreConsole();
  }
}
