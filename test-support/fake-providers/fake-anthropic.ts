/**
 * A stand-in for Anthropic's Messages API (`POST /v1/messages`, streamed as server-sent events, and
 * `count_tokens`), as Claude Code calls it with `ANTHROPIC_BASE_URL`.
 */
import type { ServerResponse } from 'node:http';
import { playSteps, ProviderServer, type ProviderRequest, type TurnStep } from './provider-server.ts';

/** Starts the stand-in; `baseUrl` goes in `ANTHROPIC_BASE_URL`. */
export function startFakeAnthropic(): Promise<ProviderServer> {
  return new ProviderServer({
    other(request, res) {
      if (request.method === 'HEAD' || request.url === '/') {
        res.writeHead(200).end();
        return true;
      }
      if (request.url.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
        return true;
      }
      return false;
    },
    isTurn: (request) => request.method === 'POST' && request.url.startsWith('/v1/messages'),
    write: writeTurn,
  }).start();
}

async function writeTurn(request: ProviderRequest, turn: { steps: TurnStep[] }, res: ServerResponse): Promise<void> {
  const model = String(request.body?.model ?? 'claude');
  const hasTool = turn.steps.some((s) => 'toolCall' in s);
  const stopReason = hasTool ? 'tool_use' : 'end_turn';
  if (request.body?.stream !== true) {
    const content = turn.steps.flatMap((s): Record<string, unknown>[] => ('text' in s ? [{ type: 'text', text: s.text }] : 'toolCall' in s ? [{ type: 'tool_use', id: s.toolCall.id, name: s.toolCall.name, input: s.toolCall.input }] : []));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'msg_fake', type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', { message: { id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  let index = 0;
  await playSteps(turn.steps, res, (step) => {
    if ('text' in step) {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: step.text } });
    } else if ('reasoning' in step) {
      event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: step.reasoning } });
      event('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'c2lnbmF0dXJl' } });
    } else {
      event('content_block_start', { index, content_block: { type: 'tool_use', id: step.toolCall.id, name: step.toolCall.name, input: {} } });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.toolCall.input) } });
    }
    event('content_block_stop', { index });
    index++;
  });
  if (res.destroyed) return;
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
  event('message_stop', {});
  res.end();
}

/** The text of the newest user turn that is not a tool result, system reminders left out. */
export function lastUserText(request: ProviderRequest): string {
  const messages: { role: string; content: unknown }[] = request.body?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as { type: string; text?: string }[]);
    if (parts.some((p) => p.type === 'tool_result')) return '';
    return parts.filter((p) => p.type === 'text' && !p.text?.startsWith('<system-reminder>')).map((p) => p.text).join('\n');
  }
  return '';
}

/** The tool results in the newest user turn, by tool_use id. */
export function toolResults(request: ProviderRequest): Map<string, { content: unknown; isError: boolean }> {
  const messages: { role: string; content: unknown }[] = request.body?.messages ?? [];
  const last = messages.at(-1);
  const results = new Map<string, { content: unknown; isError: boolean }>();
  if (last?.role !== 'user' || !Array.isArray(last.content)) return results;
  for (const part of last.content as { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[]) {
    if (part.type === 'tool_result' && part.tool_use_id) results.set(part.tool_use_id, { content: part.content, isError: part.is_error === true });
  }
  return results;
}
