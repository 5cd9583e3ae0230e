/**
 * The interactive `agentbar chat -a AGENT` on a terminal: an `agent> ` prompt; plain lines are
 * messages, sent in order, one after the previous reply (lines typed during a run wait in a queue,
 * never lost, and are not echoed into the streaming text); approvals are asked inline; after each
 * task one completion line. Ctrl+C during a run stops it and exits 130; Ctrl+C at the prompt or
 * Ctrl+D exits 0. The slash commands of the terminal chat (/help) work as before.
 */
import readline from 'node:readline';
import { Writable } from 'node:stream';
import type { SyncClient } from '../../shared/sync-client.ts';
import type { ToolCallPart } from '../../shared/schemas.ts';
import { createTerminalChat } from './terminal/terminal-chat.ts';
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
}

export function runInteractiveChat(options: InteractiveOptions): Promise<number> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const { client } = options;
  let muted = false;
  // Readline echoes what is typed; during a run that would land inside the streamed reply.
  const echo = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input, output: echo, terminal: true, prompt: 'agent> ' });
  // Everything printed here comes from the agent or the server, never a sequence of ours.
  let gone = false;
  const print = (text: string) => {
    if (gone) return;
    try {
      output.write(stripTerminalControls(text));
    } catch {
      // The terminal hung up (EIO): the chat still stops its reply and ends cleanly.
      gone = true;
    }
    options.onPrint?.(text);
  };
  const commands = createTerminalChat({ client, write: print, agent: options.agent, transcript: false, onQuit: () => rl.close(), saveDir: options.saveFiles });
  const queue: { line: string; typedDuringRun: boolean }[] = [];
  let running = false;
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
        muted = false;
        print(`\n${describeApprovalQuestion(call)}`);
        answer = (line) => {
          answer = null;
          muted = running;
          done(readApprovalAnswer(line, call));
        };
      });

    const pump = async () => {
      if (running) return;
      while (queue.length) {
        const { line, typedDuringRun } = queue.shift()!;
        // It was not echoed when typed (a reply was streaming): show what is sent now.
        if (typedDuringRun) print(`agent> ${line}\n`);
        running = true;
        try {
          const text = commands.messageText(line);
          if (text === null) {
            await commands.handleLine(line);
          } else {
            const chatId = client.getSnapshot().state?.activeChatId ?? (await client.request('chat.create', {})).chatId;
            muted = true;
            const files = commands.takeAttachments();
            const turn = runTurn(client, { chatId, agent: commands.addressed ?? options.agent, text, attachments: files.parts, approve, out: { text: print, note: (l) => print(`\n${l}\n`) }, saveFiles: options.saveFiles, saveHint: '/save [dir] saves it', signal: options.stop?.signal });
            const result = await (options.stop?.track(turn) ?? turn).catch((error: unknown) => {
              // Refused before it was sent (busy, offline): the files wait for the next message.
              if (!(error instanceof ReplyLostError)) files.restore();
              print(`! ${reasonOf(error)}\n`);
              return null;
            });
            muted = false;
            if (result) print(`\n${options.formatCompletion(result, options.describeWhere(chatId))}\n`);
          }
        } finally {
          running = false;
          muted = false;
        }
      }
      if (closing) return finish(0);
      rl.prompt(true);
    };

    rl.on('line', (line) => {
      if (answer) return answer(line);
      if (!line.trim()) {
        if (!running) rl.prompt();
        return;
      }
      queue.push({ line, typedDuringRun: running });
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
    print(`Talking to ${options.agent}. Type a message; /help for commands; Ctrl+D to leave.\n`);
    rl.prompt();
  });
}
