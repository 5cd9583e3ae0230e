/**
 * Sends each running `toolbar` tool call to exactly one connected toolbar that declared the tool,
 * preferring the one that sent the triggering message, and moves it when that toolbar leaves
 * (PROTOCOL §4). Knows nothing of sockets: clients are anything with `send`.
 */
import type { ToolDefinition } from '../../shared/schemas.ts';

export interface ToolClient {
  id: string;
  kind: 'toolbar' | 'cli' | 'other';
  tools: ReadonlySet<string>;
  /** What the client declared in `hello` (name, description, JSON Schema input). */
  toolDefinitions?: readonly ToolDefinition[];
  send(frame: string): void;
}

export interface ToolCallRequest {
  chatId: string;
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  /** The client that sent the message that started the run. */
  preferClientId?: string | undefined;
}

interface PendingCall extends ToolCallRequest {
  clientId: string | null;
  fail: (message: string) => void;
  waitTimer: ReturnType<typeof setTimeout> | null;
  resultTimer: ReturnType<typeof setTimeout>;
}

export interface ToolDispatcherOptions {
  /** How long a call waits for an eligible toolbar to connect before failing. */
  noClientTimeoutMs?: number;
  /** How long a dispatched call may run before failing. */
  resultTimeoutMs?: number;
}

export class ToolDispatcher {
  private readonly clients = new Map<string, ToolClient>();
  private readonly calls = new Map<string, PendingCall>();
  private readonly noClientTimeoutMs: number;
  private readonly resultTimeoutMs: number;

  constructor(options: ToolDispatcherOptions = {}) {
    this.noClientTimeoutMs = options.noClientTimeoutMs ?? 30_000;
    this.resultTimeoutMs = options.resultTimeoutMs ?? 5 * 60_000;
  }

  /**
   * Starts dispatching a call; `fail` is called (once) if no toolbar answers in time.
   *
   * @example dispatcher.dispatch({ chatId, toolCallId, toolName: 'get_page_info', input: {} }, (msg) => markFailed(msg));
   */
  dispatch(request: ToolCallRequest, fail: (message: string) => void): void {
    const call: PendingCall = {
      ...request,
      clientId: null,
      fail,
      waitTimer: null,
      resultTimer: setTimeout(() => this.failCall(call, `Tool ${request.toolName} got no result within ${Math.round(this.resultTimeoutMs / 1000)} s`), this.resultTimeoutMs),
    };
    this.calls.set(request.toolCallId, call);
    this.assign(call, request.preferClientId);
  }

  /** The client a call was sent to, if any. */
  assignedClient(toolCallId: string): string | null | undefined {
    return this.calls.get(toolCallId)?.clientId;
  }

  isPending(toolCallId: string): boolean {
    return this.calls.has(toolCallId);
  }

  /** The call got its result: forget it. */
  settle(toolCallId: string): void {
    const call = this.calls.get(toolCallId);
    if (!call) return;
    this.clearTimers(call);
    this.calls.delete(toolCallId);
  }

  /** The call was interrupted: tell its toolbar to stop and forget it. */
  cancel(toolCallId: string): void {
    const call = this.calls.get(toolCallId);
    if (!call) return;
    this.settle(toolCallId);
    if (call.clientId) this.sendCancel(call.clientId, call);
  }

  /**
   * The tools the connected toolbars declared, one per name (the first toolbar's wins), for agents
   * that offer them to a model.
   */
  toolDefinitions(): ToolDefinition[] {
    const byName = new Map<string, ToolDefinition>();
    for (const client of this.clients.values()) {
      if (client.kind !== 'toolbar') continue;
      for (const t of client.toolDefinitions ?? []) if (!byName.has(t.name)) byName.set(t.name, t);
    }
    return [...byName.values()];
  }

  addClient(client: ToolClient): void {
    this.clients.set(client.id, client);
    if (client.kind !== 'toolbar') return;
    for (const call of this.calls.values()) {
      if (call.clientId === null && client.tools.has(call.toolName)) this.sendTo(client, call);
    }
  }

  removeClient(clientId: string): void {
    this.clients.delete(clientId);
    for (const call of this.calls.values()) {
      if (call.clientId === clientId) {
        call.clientId = null;
        this.assign(call, undefined);
      }
    }
  }

  private eligible(toolName: string, prefer: string | undefined): ToolClient | undefined {
    const preferred = prefer ? this.clients.get(prefer) : undefined;
    if (preferred && preferred.kind === 'toolbar' && preferred.tools.has(toolName)) return preferred;
    for (const c of this.clients.values()) if (c.kind === 'toolbar' && c.tools.has(toolName)) return c;
    return undefined;
  }

  private assign(call: PendingCall, prefer: string | undefined): void {
    const client = this.eligible(call.toolName, prefer);
    if (client) {
      this.sendTo(client, call);
      return;
    }
    call.waitTimer ??= setTimeout(
      () => this.failCall(call, `No connected toolbar can run ${call.toolName}: open the page with the agentbar toolbar and try again`),
      this.noClientTimeoutMs,
    );
  }

  private sendTo(client: ToolClient, call: PendingCall): void {
    if (call.waitTimer) clearTimeout(call.waitTimer);
    call.waitTimer = null;
    call.clientId = client.id;
    client.send(
      JSON.stringify({ type: 'tool.run', chatId: call.chatId, toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }),
    );
  }

  private sendCancel(clientId: string, call: PendingCall): void {
    this.clients.get(clientId)?.send(JSON.stringify({ type: 'tool.cancel', chatId: call.chatId, toolCallId: call.toolCallId }));
  }

  private failCall(call: PendingCall, message: string): void {
    if (this.calls.get(call.toolCallId) !== call) return;
    this.cancel(call.toolCallId);
    call.fail(message);
  }

  private clearTimers(call: PendingCall): void {
    if (call.waitTimer) clearTimeout(call.waitTimer);
    clearTimeout(call.resultTimer);
    call.waitTimer = null;
  }

  /** Stops every timer (server shutdown). */
  close(): void {
    for (const call of this.calls.values()) this.clearTimers(call);
    this.calls.clear();
  }
}
