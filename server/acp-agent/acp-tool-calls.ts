/**
 * The tool calls of one ACP turn as the reply's tool calls: each starts when the agent first
 * reports it, shows its updates, ends with its status (or with the turn), and asks the user when
 * the agent requests permission for it.
 */
import type { RequestPermissionRequest, RequestPermissionResponse, ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { ApprovalLabels, ApprovalOption } from '../../shared/schemas.ts';
import type { ApprovalAnswer, RunContext, ToolCallHandle } from '../sdk/agent.ts';
import { approvalLabelsOf, approvalOptionsOf, chooseOption, textOfContent, textOfRawOutput, toDisplay, toInput, toLocations, toTitle } from './map-acp.ts';

type Outcome = { output: unknown } | { error: string };

/** What the card of a call that ended with nothing to show says: the agent reported no output. */
export const NO_OUTPUT_REPORTED = 'no output reported';

/** How a call asks for approval: the agent's options and their words. */
interface Asking {
  alwaysOffered: boolean;
  labels: ApprovalLabels | undefined;
  options: ApprovalOption[] | undefined;
}

export class AcpToolCalls {
  /** `shown`: the agent gave the call content to show; one that never did shows its raw output's words when it ends. */
  private readonly calls = new Map<string, { handle: ToolCallHandle; settle: (outcome: Outcome) => void; settled: boolean; shown: boolean }>();

  constructor(private readonly ctx: Pick<RunContext, 'startToolCall'>) {}

  /**
   * The agent reported a call (`tool_call`): a new one starts, a known one shows what it says now.
   *
   * @example calls.report(update);
   */
  report(call: ToolCall): void {
    if (this.calls.has(call.toolCallId)) this.updateCall(call);
    else this.startCall(call, false);
  }

  /**
   * The agent updated a call (`tool_call_update`); one it never reported starts with what it says.
   *
   * @example calls.reportUpdate(update);
   */
  reportUpdate(update: ToolCallUpdate): void {
    if (this.calls.has(update.toolCallId)) this.updateCall(update);
    else this.startCall({ ...update, title: update.title ?? update.toolCallId } as ToolCall, false);
  }

  /**
   * The turn ended: a call the agent never finished is done, with what it showed.
   *
   * @example if (response.stopReason === 'end_turn') calls.settleOpen();
   */
  settleOpen(): void {
    for (const entry of this.calls.values()) {
      if (entry.settled) continue;
      entry.settled = true;
      entry.settle({ output: null });
    }
  }

  /**
   * Asks the user about a call the agent requests permission for, and answers with the option
   * that matches; "cancelled" when the run stops, the request is withdrawn, or the call ended.
   *
   * @example return calls.askPermission(request, signal);
   */
  async askPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    const cancelled: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
    const alwaysOffered = request.options.some((o) => o.kind === 'allow_always' || o.kind === 'reject_always');
    const asking = { alwaysOffered, labels: approvalLabelsOf(request.options), options: approvalOptionsOf(request.options) };
    try {
      const known = this.calls.get(request.toolCall.toolCallId);
      let asked: Promise<ApprovalAnswer>;
      if (known) {
        this.updateCall(request.toolCall);
        asked = known.handle.requestApproval(asking);
      } else {
        // Asking from its first word: the call starts with "always" and the agent's words on it.
        const handle = this.startCall({ ...request.toolCall, title: request.toolCall.title ?? request.toolCall.toolCallId } as ToolCall, true, asking);
        asked = handle.requestApproval();
      }
      const aborted = new Promise<null>((resolve) => {
        if (signal.aborted) resolve(null);
        signal.addEventListener('abort', () => resolve(null), { once: true });
      });
      const answer = await Promise.race([asked, aborted]);
      if (!answer) return cancelled;
      const response: RequestPermissionResponse = { outcome: chooseOption(request.options, answer) };
      if (answer.reason) response._meta = { reason: answer.reason };
      return response;
    } catch {
      // The run was stopped or the call already ended: the agent hears "cancelled".
      return cancelled;
    }
  }

  private startCall(call: ToolCall, requiresApproval: boolean, asking: Asking | null = null): ToolCallHandle {
    let settle!: (outcome: Outcome) => void;
    const outcome = new Promise<unknown>((resolve, reject) => {
      settle = (o) => ('error' in o ? reject(new Error(o.error)) : resolve(o.output));
    });
    const input = toInput(call.rawInput);
    const handle = this.ctx.startToolCall({
      name: call.name || call.kind || 'tool',
      runtime: 'cli',
      requiresApproval,
      ...(asking?.alwaysOffered ? { alwaysOffered: true } : {}),
      ...(asking?.labels ? { approvalLabels: asking.labels } : {}),
      ...(asking?.options ? { approvalOptions: asking.options } : {}),
      ...(input ? { input } : {}),
      ...(call.title ? { title: toTitle(call.title) } : {}),
      ...(call.kind ? { kind: call.kind } : {}),
      ...(call.locations?.length ? { locations: toLocations(call.locations) } : {}),
      ...(call.content?.length ? { display: toDisplay(call.content) } : {}),
      execute: () => outcome,
    });
    const entry = { handle, settle, settled: false, shown: Boolean(call.content?.length) };
    this.calls.set(call.toolCallId, entry);
    this.settleIfDone(call.toolCallId, call);
    return handle;
  }

  private updateCall(update: ToolCallUpdate): void {
    const entry = this.calls.get(update.toolCallId)!;
    if (update.content?.length) entry.shown = true;
    const input = toInput(update.rawInput);
    entry.handle.update({
      ...(update.title ? { title: toTitle(update.title) } : {}),
      ...(update.kind ? { kind: update.kind } : {}),
      ...(update.locations ? { locations: toLocations(update.locations) } : {}),
      ...(update.content ? { display: toDisplay(update.content) } : {}),
      ...(input ? { input } : {}),
    });
    this.settleIfDone(update.toolCallId, update);
  }

  private settleIfDone(toolCallId: string, update: ToolCallUpdate): void {
    const entry = this.calls.get(toolCallId)!;
    if (entry.settled) return;
    const text = textOfContent(update.content);
    const ending = update.status === 'completed' || update.status === 'failed';
    // Codex reports a command's output only in rawOutput: shown as the call's output, not only as the result's JSON.
    const rawText = ending && !entry.shown ? textOfRawOutput(update.rawOutput) : null;
    if (rawText) {
      entry.shown = true;
      entry.handle.update({ display: [{ type: 'text', text: rawText }] });
    } else if (update.status === 'completed' && !entry.shown && update.rawOutput == null) {
      // Gemini CLI reports a finished call with empty content: the card says so rather than nothing.
      entry.shown = true;
      entry.handle.update({ display: [{ type: 'text', text: NO_OUTPUT_REPORTED }] });
    }
    if (update.status === 'completed') {
      entry.settled = true;
      entry.settle({ output: update.rawOutput ?? text ?? null });
    } else if (update.status === 'failed') {
      entry.settled = true;
      entry.settle({ error: text ?? rawText ?? (update.rawOutput !== undefined ? JSON.stringify(update.rawOutput) : 'The tool call failed') });
    }
  }
}
