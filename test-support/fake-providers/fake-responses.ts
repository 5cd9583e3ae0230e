/**
 * A stand-in for OpenAI's Responses API (`POST /v1/responses`, streamed as server-sent events:
 * `response.created`, output items, `output_text.delta`, reasoning summaries, `function_call`
 * items, `response.completed`), as Codex calls it.
 */
import type { ServerResponse } from 'node:http';
import { playSteps, ProviderServer, type ProviderRequest, type TurnStep } from './provider-server.ts';

/** Starts the stand-in; `${baseUrl}/v1` is the provider's base URL. */
export function startFakeResponses(): Promise<ProviderServer> {
  return new ProviderServer({
    other(request, res) {
      if (request.method === 'GET' && request.url.startsWith('/v1/models')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [], models: [] }));
        return true;
      }
      return false;
    },
    isTurn: (request) => request.method === 'POST' && request.url.startsWith('/v1/responses'),
    write: writeTurn,
  }).start();
}

let sequence = 0;

async function writeTurn(request: ProviderRequest, turn: { steps: TurnStep[] }, res: ServerResponse): Promise<void> {
  const id = `resp_${++sequence}`;
  const model = String(request.body?.model ?? 'gpt-5');
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const response = (status: string, extra: Record<string, unknown> = {}) => ({ id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status, output: [], ...extra });
  event('response.created', { response: response('in_progress') });
  let index = 0;
  await playSteps(turn.steps, res, (step) => {
    const output_index = index++;
    const itemId = `item_${sequence}_${output_index}`;
    if ('text' in step) {
      event('response.output_item.added', { output_index, item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] } });
      event('response.content_part.added', { item_id: itemId, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      event('response.output_text.delta', { item_id: itemId, output_index, content_index: 0, delta: step.text });
      event('response.output_text.done', { item_id: itemId, output_index, content_index: 0, text: step.text });
      event('response.output_item.done', { output_index, item: { type: 'message', id: itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] } });
    } else if ('reasoning' in step) {
      event('response.output_item.added', { output_index, item: { type: 'reasoning', id: itemId, summary: [] } });
      event('response.reasoning_summary_part.added', { item_id: itemId, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } });
      event('response.reasoning_summary_text.delta', { item_id: itemId, output_index, summary_index: 0, delta: step.reasoning });
      event('response.reasoning_summary_text.done', { item_id: itemId, output_index, summary_index: 0, text: step.reasoning });
      event('response.output_item.done', { output_index, item: { type: 'reasoning', id: itemId, summary: [{ type: 'summary_text', text: step.reasoning }] } });
    } else if (step.toolCall.freeform !== undefined) {
      const item = { type: 'custom_tool_call', id: itemId, call_id: step.toolCall.id, name: step.toolCall.name, input: step.toolCall.freeform, status: 'completed' };
      event('response.output_item.added', { output_index, item: { ...item, input: '' } });
      event('response.custom_tool_call_input.delta', { item_id: itemId, output_index, delta: item.input });
      event('response.output_item.done', { output_index, item });
    } else {
      // Codex offers an MCP server's tools in a namespace (mcp__server): a call names both.
      const namespaced = /^(mcp__.+?)__(.+)$/.exec(step.toolCall.name);
      const name = namespaced ? { namespace: namespaced[1], name: namespaced[2] } : { name: step.toolCall.name };
      const item = { type: 'function_call', id: itemId, call_id: step.toolCall.id, ...name, arguments: JSON.stringify(step.toolCall.input), status: 'completed' };
      event('response.output_item.added', { output_index, item: { ...item, arguments: '' } });
      event('response.function_call_arguments.delta', { item_id: itemId, output_index, delta: item.arguments });
      event('response.output_item.done', { output_index, item });
    }
  });
  if (res.destroyed) return;
  event('response.completed', { response: response('completed', { usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } }) });
  res.end();
}

type InputItem = { type?: string; role?: string; content?: unknown; call_id?: string; output?: unknown };

/** The text of the newest user message, when nothing (a tool's output) came after it. */
export function lastUserText(request: ProviderRequest): string {
  const input: InputItem[] = Array.isArray(request.body?.input) ? request.body.input : [];
  const last = input.at(-1);
  if (!last || last.role !== 'user') return '';
  const parts = typeof last.content === 'string' ? [{ text: last.content }] : ((last.content as { text?: string }[]) ?? []);
  return parts.map((p) => p.text ?? '').join('\n');
}

/** The tool outputs after the newest model turn, by call id. */
export function functionOutputs(request: ProviderRequest): Map<string, { content: unknown; isError: boolean }> {
  const input: InputItem[] = Array.isArray(request.body?.input) ? request.body.input : [];
  const results = new Map<string, { content: unknown; isError: boolean }>();
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i]!;
    if (item.type !== 'function_call_output' && item.type !== 'custom_tool_call_output') break;
    results.set(item.call_id ?? '', { content: item.output, isError: /rejected|declined|denied|aborted/i.test(JSON.stringify(item.output)) });
  }
  return results;
}
