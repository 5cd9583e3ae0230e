/**
 * The tool calls the server dispatched to this client (`tool.run` / `tool.cancel`, PROTOCOL §6):
 * each toolCallId runs at most once, a re-dispatch gets the remembered result again, a cancel
 * aborts the run and a cancelled run sends nothing.
 */
import type { ToolCancelFrame, ToolRunFrame } from './schemas.ts';

export interface ToolRunResult {
  output: unknown;
  isError?: boolean;
}

export interface ToolRunsOptions {
  /** Runs one call; the signal aborts on `tool.cancel` or when the client closes. Absent: the client cannot run tools. */
  onToolRun?: (run: ToolRunFrame, signal: AbortSignal) => Promise<ToolRunResult>;
  /** Sends a `tool.result` request (fire and forget: failures are the sender's to report). */
  sendResult(chatId: string, toolCallId: string, result: { output: unknown; isError: boolean }): void;
  warn(message: string): void;
}

export interface ToolRuns {
  run(frame: ToolRunFrame): void;
  cancel(frame: ToolCancelFrame): void;
  /** Aborts every running call, for good (the client is closing). */
  abortAll(): void;
}

/** toolCallIds remembered to never run a call twice. */
const MAX_REMEMBERED_TOOL_CALLS = 1000;

type ToolCall =
  | { state: 'running'; controller: AbortController }
  | { state: 'settled'; chatId: string; result: { output: unknown; isError: boolean } }
  | { state: 'aborted' };

/**
 * Creates the tool-run table of one client.
 *
 * @example
 * const tools = createToolRuns({ onToolRun, sendResult: (chatId, toolCallId, r) => request('tool.result', { chatId, toolCallId, ...r }), warn });
 * // on a tool.run frame: tools.run(frame); on tool.cancel: tools.cancel(frame)
 */
export function createToolRuns(options: ToolRunsOptions): ToolRuns {
  const calls = new Map<string, ToolCall>();

  function remember(toolCallId: string, call: ToolCall): void {
    calls.set(toolCallId, call);
    while (calls.size > MAX_REMEMBERED_TOOL_CALLS) {
      const [oldestId, oldest] = calls.entries().next().value!;
      calls.delete(oldestId);
      // A run we no longer track could not be told apart from a re-dispatch: stop it.
      if (oldest.state === 'running') oldest.controller.abort();
    }
  }

  function sendResult(chatId: string, toolCallId: string, result: { output: unknown; isError: boolean }): void {
    let { output, isError } = result;
    try {
      JSON.stringify(output);
    } catch (err) {
      output = `The tool's output cannot be sent as JSON: ${err instanceof Error ? err.message : String(err)}`;
      isError = true;
    }
    options.sendResult(chatId, toolCallId, { output, isError });
  }

  return {
    run(frame) {
      const { chatId, toolCallId } = frame;
      const known = calls.get(toolCallId);
      if (known?.state === 'running') {
        options.warn(`Tool call ${toolCallId} is already running`);
        return;
      }
      if (known?.state === 'settled') {
        // Re-dispatched, e.g. after our result was lost in a reconnect: answer again, never rerun.
        sendResult(known.chatId, toolCallId, known.result);
        return;
      }
      if (known?.state === 'aborted') {
        sendResult(chatId, toolCallId, { output: 'This tool call was cancelled on this client', isError: true });
        return;
      }
      const onToolRun = options.onToolRun;
      if (!onToolRun) {
        const result = { output: 'This client cannot run tools', isError: true };
        remember(toolCallId, { state: 'settled', chatId, result });
        sendResult(chatId, toolCallId, result);
        return;
      }
      const controller = new AbortController();
      const call: ToolCall = { state: 'running', controller };
      remember(toolCallId, call);
      const settle = (result: { output: unknown; isError: boolean }) => {
        if (controller.signal.aborted) return;
        if (calls.get(toolCallId) === call) calls.set(toolCallId, { state: 'settled', chatId, result });
        sendResult(chatId, toolCallId, result);
      };
      let run: Promise<ToolRunResult>;
      try {
        run = Promise.resolve(onToolRun(frame, controller.signal));
      } catch (err) {
        run = Promise.reject(err);
      }
      run.then(
        (r) => settle({ output: r?.output ?? null, isError: r?.isError === true }),
        (err) => settle({ output: err instanceof Error ? err.message : String(err), isError: true }),
      );
    },
    cancel(frame) {
      const call = calls.get(frame.toolCallId);
      if (call?.state !== 'running') return;
      calls.set(frame.toolCallId, { state: 'aborted' });
      call.controller.abort();
    },
    abortAll() {
      for (const [id, call] of calls) {
        if (call.state !== 'running') continue;
        call.controller.abort();
        calls.set(id, { state: 'aborted' });
      }
    },
  };
}
