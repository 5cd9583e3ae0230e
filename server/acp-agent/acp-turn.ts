/**
 * What one ACP prompt turn listens to: the agent's updates for its session written into the reply
 * (text, thoughts, tool calls, plan, mode, usage, notices) in the order they arrive, and its
 * permission requests asked of the user.
 */
import type { RequestPermissionRequest, RequestPermissionResponse, SessionConfigOption, SessionUpdate, UsageUpdate } from '@agentclientprotocol/sdk';
import type { RunContext } from '../sdk/agent.ts';
import type { SessionSink } from './acp-process.ts';
import { AcpToolCalls } from './acp-tool-calls.ts';
import { readWarningChunk } from './known-warnings.ts';
import { toPlan } from './map-acp.ts';

/**
 * Shows how full the session's context is beside the chat's message box. A usage agentbar cannot
 * show (a negative count, say) is left out: no reason to end the turn.
 *
 * @example showUsage(ctx, { sessionUpdate: 'usage_update', used: 1200, size: 200000 });
 */
export function showUsage(ctx: Pick<RunContext, 'setUsage'>, update: UsageUpdate): void {
  try {
    ctx.setUsage({ used: update.used, size: update.size, cost: update.cost ? { amount: update.cost.amount, currency: update.cost.currency } : undefined });
  } catch {
    // not a usage the chat can show
  }
}

/** ACP's severities are open-ended; one agentbar does not know is shown as info. */
function toSeverity(severity: unknown): 'info' | 'warning' | 'error' {
  return severity === 'warning' || severity === 'error' ? severity : 'info';
}

/** One prompt turn: writes what the agent reports into the reply, in the order it arrives. */
export class AcpTurn implements SessionSink {
  private readonly calls: AcpToolCalls;
  /** The first write that failed (a full chat, an invalid part): the turn ends with it. */
  error: Error | null = null;
  cancelled = false;
  /** The answer's text has begun: a known warning after it is the agent's words, not a notice. */
  private answering = false;
  onError: () => void = () => {};
  /** The agent changed its config options during the turn (it may move its own model or mode). */
  onConfigOptions: (options: SessionConfigOption[]) => void = () => {};

  constructor(private readonly ctx: RunContext) {
    this.calls = new AcpToolCalls(ctx);
  }

  update(update: SessionUpdate): void {
    if (this.error || this.ctx.signal.aborted) return;
    try {
      this.apply(update);
    } catch (error) {
      if (this.ctx.signal.aborted) return;
      this.error = error instanceof Error ? error : new Error(String(error));
      this.onError();
    }
  }

  /** The turn ended: a call the agent never finished is done, with what it showed. */
  settleOpenCalls(): void {
    this.calls.settleOpen();
  }

  async requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    if (this.ctx.signal.aborted || this.error) return { outcome: { outcome: 'cancelled' } };
    return this.calls.askPermission(request, signal);
  }

  private apply(update: SessionUpdate): void {
    const { reply } = this.ctx;
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') this.writeText(update.content.text);
        else if (update.content.type === 'image') reply.file({ data: `data:${update.content.mimeType};base64,${update.content.data}`, mimeType: update.content.mimeType });
        return;
      case 'agent_thought_chunk':
        if (update.content.type === 'text') void reply.reasoning(update.content.text).catch((e: unknown) => this.fail(e));
        return;
      case 'tool_call':
        this.calls.report(update);
        return;
      case 'tool_call_update':
        this.calls.reportUpdate(update);
        return;
      case 'plan':
        reply.plan(toPlan(update.entries));
        return;
      case 'current_mode_update':
        // The agent changed its own mode (leaving plan mode to carry the plan out): the chat shows it.
        // A mode it never announced is not shown, and is no reason to end the turn.
        try {
          this.ctx.setMode(update.currentModeId);
        } catch {
          // not one of its modes
        }
        return;
      case 'config_option_update':
        if (Array.isArray(update.configOptions)) this.onConfigOptions(update.configOptions);
        return;
      case 'usage_update':
        showUsage(this.ctx, update);
        return;
      case 'notice':
        // Shown on the reply; an error notice does not end the turn (ACP says so).
        reply.notice({ severity: toSeverity(update.severity), title: update.title, ...(update.description ? { description: update.description } : {}) });
        return;
      default:
        // Commands, session info: nothing a reply shows.
        return;
    }
  }

  /** The agent's text into the answer, but a known warning before the answer as a notice. */
  private writeText(text: string): void {
    const warning = this.answering ? null : readWarningChunk(text);
    if (warning) {
      this.ctx.reply.notice(warning);
      return;
    }
    if (text.trim()) this.answering = true;
    void this.ctx.reply.text(text).catch((e: unknown) => this.fail(e));
  }

  private fail(error: unknown): void {
    if (this.error || this.ctx.signal.aborted) return;
    this.error = error instanceof Error ? error : new Error(String(error));
    this.onError();
  }
}
