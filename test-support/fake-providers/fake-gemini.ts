/**
 * A stand-in for the Gemini API (`models/*:streamGenerateContent?alt=sse`, `:generateContent`,
 * `:countTokens`), as Gemini CLI calls it with `GOOGLE_GEMINI_BASE_URL` and `GEMINI_API_KEY`.
 */
import type { ServerResponse } from 'node:http';
import { playSteps, ProviderServer, type ProviderRequest, type TurnStep } from './provider-server.ts';

/** Starts the stand-in; `baseUrl` goes in `GOOGLE_GEMINI_BASE_URL`. */
export function startFakeGemini(): Promise<ProviderServer> {
  return new ProviderServer({
    other(request, res) {
      if (request.url.includes(':countTokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"totalTokens":10}');
        return true;
      }
      return false;
    },
    isTurn: (request) => request.method === 'POST' && /:(stream)?[gG]enerateContent/.test(request.url),
    write: writeTurn,
    // Gemini CLI asks for JSON on the side (its model router rates each prompt): a valid object keeps it going.
    isSide: (request) => jsonSchemaOf(request) !== undefined,
    fallback: (request) => {
      const schema = jsonSchemaOf(request);
      return { steps: [{ text: schema ? JSON.stringify(sampleOf(schema)) : 'OK.' }] };
    },
  }).start();
}

function jsonSchemaOf(request: ProviderRequest): Parameters<typeof sampleOf>[0] | undefined {
  return request.body?.generationConfig?.responseJsonSchema ?? request.body?.generationConfig?.responseSchema;
}

/** A value that fits a (Gemini-style, upper-case types) JSON schema: the smallest of each kind. */
function sampleOf(schema: { type?: string; properties?: Record<string, unknown>; items?: unknown; enum?: unknown[] }): unknown {
  if (schema.enum?.length) return schema.enum[0];
  switch (String(schema.type ?? 'string').toLowerCase()) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sampleOf(v as typeof schema)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 10;
    case 'boolean':
      return false;
    default:
      return 'simple';
  }
}

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

function partOf(step: Exclude<TurnStep, { hold: unknown }>): Record<string, unknown> {
  if ('text' in step) return { text: step.text };
  if ('reasoning' in step) return { text: step.reasoning, thought: true };
  return { functionCall: { id: step.toolCall.id, name: step.toolCall.name, args: step.toolCall.input } };
}

async function writeTurn(request: ProviderRequest, turn: { steps: TurnStep[] }, res: ServerResponse): Promise<void> {
  if (!request.url.includes(':streamGenerateContent')) {
    const parts = turn.steps.flatMap((s) => ('hold' in s ? [] : [partOf(s)]));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (parts: unknown[], done: boolean) =>
    res.write(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, ...(done ? { finishReason: 'STOP' } : {}) }], ...(done ? { usageMetadata: USAGE } : {}), modelVersion: 'gemini-fake' })}\r\n\r\n`);
  await playSteps(turn.steps, res, (step) => chunk([partOf(step)], false));
  if (res.destroyed) return;
  chunk([{ text: '' }], true);
  res.end();
}

/** The text of the newest user turn that carries text (not function responses). */
export function lastUserText(request: ProviderRequest): string {
  const contents: { role: string; parts: { text?: string; functionResponse?: unknown }[] }[] = request.body?.contents ?? [];
  const last = contents.at(-1);
  if (!last || last.role !== 'user' || last.parts.some((p) => p.functionResponse)) return '';
  return last.parts.map((p) => p.text ?? '').join('\n');
}

/** The function responses in the newest user turn, by the call's id (or its name, when it has none). */
export function functionResponses(request: ProviderRequest): Map<string, unknown> {
  const contents: { role: string; parts: { functionResponse?: { id?: string; name: string; response: unknown } }[] }[] = request.body?.contents ?? [];
  const last = contents.at(-1);
  const results = new Map<string, unknown>();
  for (const part of last?.role === 'user' ? last.parts : []) if (part.functionResponse) results.set(part.functionResponse.id ?? part.functionResponse.name, part.functionResponse.response);
  return results;
}
