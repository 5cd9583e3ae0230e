/**
 * The interactive `agentbar chat -a AGENT` on a terminal: an `agent> ` prompt; plain lines are
 * messages, sent in order, one after the previous reply (lines typed during a reply wait in a
 * queue, never lost, are not echoed into the streaming text, and a note says they wait);
 * approvals are asked inline; after each task one completion line. While a reply streams, `/stop`
 * stops it and the chat goes on, and a command that only reads (/help, /chats…) answers at once.
 * Ctrl+C during a run stops it and exits 130; Ctrl+C at the prompt or Ctrl+D exits 0. The slash
 * commands of the terminal chat (/help) work as before.
 */
import readline from 'node:readline';
import { Writable } from 'node:stream';
import type { SyncClient } from '../../shared/sync-client.ts';
import type { ToolCallPart } from '../../shared/schemas.ts';
import { truncateLine } from '../../shared/truncate.ts';
import { createTerminalChat } from './terminal/terminal-chat.ts';
import { readLineDuringReply } from './terminal/line-during-reply.ts';
import { stripTerminalControls } from './terminal/terminal-text.ts';
import { describeApprovalQuestion, readApprovalAnswer } from './approval-prompt.ts';
import { reasonOf, ReplyLostError, runTurn, type ApprovalReply, type TurnResult } from './chat-turn.ts';
import type { StopSignals } from './stop-signals.ts';

export interface InteractiveOptions {
  client: SyncClient;
  agent: string;
  /** The completion line's "where": the chat and its file. */
  describeWhere: (chatId: string) => string;
  formatCompletion: (result: TurnResult, where: string) => string;
  /** `--save-files`: where the replies' files are written as they come (and `/save`'s default). */
  saveFiles?: string;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Told what the chat prints, so notes written elsewhere (stderr) know whether a line is open. */
  onPrint?: (text: string) => void;
  /** SIGTERM and SIGHUP (stop-signals.ts): they stop the reply in progress, as Ctrl+C does here. */
  stop?: Pick<StopSignals, 'signal' | 'track'>;
  /** `--verbose`: tool calls and approvals show the call's whole input. */
  verbose?: boolean;
}

/**
 * The terminal the chat writes to: what comes from the agent or the server, with its control
 * characters removed, and readline's echo of what is typed, muted while a reply streams (the
 * typing would land inside the reply).
 */
function createScreen(output: NodeJS.WritableStream, onPrint: ((text: string) => void) | undefined) {
  let muted = false;
  let gone = false;
  let midLine = false;
  const echo = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const print = (text: string) => {
    if (gone) return;
    try {
      output.write(stripTerminalControls(text));
    } catch {
      // The terminal hung up (EIO): the chat still stops its reply and ends cleanly.
      gone = true;
    }
    if (text) midLine = !text.endsWith('\n');
    onPrint?.(text);
  };
  return {
    echo,
    print,
    /** Starts a line of its own, unless the last text printed ended one. */
    startLine: () => {
      if (midLine) print('\n');
    },
    mute: (value: boolean) => {
      muted = value;
    },
  };
}

/**
 * @example const code = await runInteractiveChat({ client, agent: 'demo/guide', describeWhere, formatCompletion });
 */
export function runInteractiveChat(options: InteractiveOptions): Promise<number> {
  const input = options.input ?? process.stdin;
  const { client } = options;
  const screen = createScreen(options.output ?? process.stdout, options.onPrint);
  const { print } = screen;
  const rl = readline.createInterface({ input, output: screen.echo, terminal: true, prompt: 'agent> ' });
  const commands = createTerminalChat({ client, write: print, agent: options.agent, transcript: false, onQuit: () => rl.close(), saveDir: options.saveFiles });
  const queue: { line: string; typedDuringReply: boolean }[] = [];
  let running = false;
  /** The reply streaming now, with its own stop: `/stop` ends it and the chat goes on. */
  let reply: AbortController | null = null;
  let closing = false;
  let answer: ((line: string) => void) | null = null;

  return new Promise<number>((resolve) => {
    const finish = (code: number) => {
      commands.dispose();
      rl.removeAllListeners('close');
      rl.close();
      resolve(code);
    };

    const approve = (call: ToolCallPart) =>
      new Promise<ApprovalReply>((done) => {
        screen.mute(false);
        print(`\n${describeApprovalQuestion(call, { verbose: options.verbose })}`);
        answer = (line) => {
          answer = null;
          screen.mute(running);
          done(readApprovalAnswer(line, call));
        };
      });

    const sendMessage = async (text: string) => {
      const stop = new AbortController();
      reply = stop;
      const chatId = client.getSnapshot().state?.activeChatId ?? (await client.request('chat.create', {})).chatId;
      screen.mute(true);
      const files = commands.takeAttachments();
      const signal = options.stop ? AbortSignal.any([stop.signal, options.stop.signal]) : stop.signal;
      const out = { text: print, note: (l: string) => print(`\n${l}\n`) };
      const turn = runTurn(client, { chatId, agent: commands.addressed ?? options.agent, text, attachments: files.parts, approve, out, saveFiles: options.saveFiles, saveHint: '/save [dir] saves it', signal, verbose: options.verbose });
      const result = await (options.stop?.track(turn) ?? turn).catch((error: unknown) => {
        // Refused before it was sent (busy, offline, stopped): the files wait for the next message.
        if (!(error instanceof ReplyLostError)) files.restore();
        print(`! ${reasonOf(error)}\n`);
        return null;
      });
      screen.mute(false);
      if (result) print(`\n${options.formatCompletion(result, options.describeWhere(chatId))}\n`);
    };

    const pump = async () => {
      if (running) return;
      while (queue.length) {
        const { line, typedDuringReply } = queue.shift()!;
        // It was not echoed when typed (a reply was streaming): show what is sent now.
        if (typedDuringReply) print(`agent> ${line}\n`);
        running = true;
        try {
          const text = commands.messageText(line);
          if (text === null) await commands.handleLine(line);
          else await sendMessage(text);
        } finally {
          running = false;
          reply = null;
          // A question left open by a reply that ended takes no more lines.
          answer = null;
          screen.mute(false);
        }
      }
      if (closing) return finish(0);
      rl.prompt(true);
    };

    /** `/stop` while a reply streams: that reply stops (an approval it asks is dropped); lines typed after it still go. */
    const stopReply = (stop: AbortController) => {
      answer = null;
      screen.mute(true);
      screen.startLine();
      const waiting = queue.length === 0 ? '' : ` ${queue.length === 1 ? 'The line' : `The ${queue.length} lines`} typed during it go${queue.length === 1 ? 'es' : ''} after it.`;
      print(`Stopping the reply…${waiting}\n`);
      stop.abort();
    };

    /** A command that only reads, typed while a reply streams: answered now, on lines of its own. */
    const answerNow = (line: string) => {
      screen.startLine();
      print(`agent> ${line}\n`);
      void commands.handleLine(line);
    };

    const noteQueued = (line: string) => {
      screen.startLine();
      print(`[queued ${JSON.stringify(truncateLine(line, 60))}: it is sent when this reply ends; /stop ends the reply now]\n`);
    };

    rl.on('line', (line) => {
      const during = reply ? readLineDuringReply(line) : 'queue';
      if (reply && during === 'stop') return stopReply(reply);
      if (answer) return answer(line);
      if (!line.trim()) {
        if (!running) rl.prompt();
        return;
      }
      if (during === 'answer-now') return answerNow(line);
      queue.push({ line, typedDuringReply: reply !== null });
      if (reply) noteQueued(line);
      void pump();
    });
    rl.on('SIGINT', () => {
      if (!running) return finish(0);
      const target = client.getSnapshot().state?.run?.chatId;
      print('\nStopping the agent… bye.\n');
      const stop = target ? client.request('run.stop', { chatId: target }).catch(() => undefined) : Promise.resolve();
      void stop.then(() => finish(130));
    });
    rl.on('close', () => {
      closing = true;
      if (!running && !queue.length) finish(0);
    });
    print(`Talking to ${options.agent}. Type a message; /help for commands; /stop stops a reply; Ctrl+D to leave.\n`);
    rl.prompt();
  });
}
