/**
 * A look at the model's endpoint when `agentbar serve --model` starts, so a model server that is
 * not running, a key it refuses, a base URL without `/v1` or a model that was never pulled shows
 * in the terminal at once, not as a failed reply after the first message. It only reads the
 * endpoint's model list (`GET {baseUrl}/models`, which costs nothing on hosted providers) and never
 * stops the server from starting: the agent is served either way.
 */
import { collapseWhitespace, truncateText } from '../../shared/truncate.ts';
import { stripTerminalControls } from '../cli/terminal/terminal-text.ts';
import { lacksApiVersion, readErrorBodyMessage } from './describe-model-error.ts';

export interface EndpointCheckOptions {
  /** The OpenAI-compatible base URL, without a trailing slash: `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** The model name as given to `--model`. */
  model: string;
  apiKey?: string;
  /** The environment variable the key comes from, named in the advice. */
  apiKeyEnv: string;
  /** Default 5 s. */
  timeoutMs?: number;
}

export interface EndpointCheck {
  /** `info` when the model is listed, `warn` when its replies are likely to fail. */
  level: 'info' | 'warn';
  message: string;
}

const DEFAULT_TIMEOUT_MS = 5_000;
/** A model list is small; a bigger answer is not one. */
const MAX_LIST_BYTES = 4 * 1024 * 1024;
const MAX_NAMES_SHOWN = 8;

/**
 * Reads the endpoint's model list and says what a user starting the server should know.
 *
 * @example
 * const { level, message } = await checkModelEndpoint({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2', apiKeyEnv: 'OPENAI_API_KEY' });
 * // warn: 'Cannot reach the model server at http://127.0.0.1:11434/v1: the connection was refused (…'
 */
export async function checkModelEndpoint(options: EndpointCheckOptions): Promise<EndpointCheck> {
  const { baseUrl, model, apiKey, apiKeyEnv } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const later = 'Replies from this agent will fail until that is fixed; the server runs either way.';
  let response: Response;
  let body: string;
  try {
    response = await fetch(`${baseUrl}/models`, {
      headers: { Accept: 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    body = await readLimited(response);
  } catch (error) {
    return { level: 'warn', message: `Cannot reach the model server at ${baseUrl}: ${describeFetchFailure(error, timeoutMs)}. ${later}` };
  }
  if (response.status === 401 || response.status === 403) {
    const key = apiKey ? `the key in $${apiKeyEnv}` : `no key ($${apiKeyEnv} is not set; --api-key-env names another variable)`;
    return { level: 'warn', message: `The model server at ${baseUrl} refused ${key} (${response.status}${saidBy(body)}). ${later}` };
  }
  if (response.status === 404) {
    if (lacksApiVersion(baseUrl)) return { level: 'warn', message: `The server at ${baseUrl} has no OpenAI-compatible API there (GET /models answered 404). Most serve it under /v1: try --base-url ${baseUrl}/v1.` };
    return { level: 'warn', message: `The model server at ${baseUrl} has no model list (GET /models answered 404), so agentbar cannot check that it serves ${model}.` };
  }
  if (!response.ok) {
    return { level: 'warn', message: `The model server at ${baseUrl} answered ${response.status} to GET /models${saidBy(body)}. ${response.status >= 500 ? 'It may be starting or failing; replies may fail too.' : later}` };
  }
  const names = readModelNames(body);
  if (names === null) return { level: 'warn', message: `The server at ${baseUrl} answered GET /models with something other than an OpenAI model list, so agentbar cannot check that it serves ${model}.` };
  // Ollama takes `llama3.2` for `llama3.2:latest`; Gemini's endpoint lists `models/gemini-2.5-flash`.
  if (names.includes(model) || names.includes(`${model}:latest`) || names.includes(`models/${model}`)) return { level: 'info', message: `${model} is available at ${baseUrl}.` };
  const shown = names.length === 0 ? 'none' : names.slice(0, MAX_NAMES_SHOWN).map((n) => printable(n, 80)).join(', ') + (names.length > MAX_NAMES_SHOWN ? `, and ${names.length - MAX_NAMES_SHOWN} more` : '');
  return {
    level: 'warn',
    message: `The model server at ${baseUrl} does not list ${model} (it lists: ${shown}). Pull or load it (for Ollama: ollama pull ${model}), or pass one of those to --model. Some servers answer under any name; if replies work, ignore this.`,
  };
}

function describeFetchFailure(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const code = e.cause?.code;
  if (code === 'ECONNREFUSED') return 'the connection was refused (is the model server running? For Ollama: ollama serve)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `its host name does not resolve (${code})`;
  return truncateText(e.cause?.message ?? e.message ?? String(error), 200) + (code ? ` (${code})` : '');
}

async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > MAX_LIST_BYTES) {
    await response.body?.cancel();
    return '';
  }
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_LIST_BYTES) {
      await reader.cancel();
      return '';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What the endpoint said, fit for one terminal line: it could hold escape sequences. */
function printable(text: string, max: number): string {
  return truncateText(stripTerminalControls(collapseWhitespace(text)), max);
}

/** `: <the provider's message>` from an OpenAI-style error body, or nothing. */
function saidBy(body: string): string {
  const said = readErrorBodyMessage(body);
  return said ? `: ${printable(said, 200)}` : '';
}

/** The ids of an OpenAI model list (`{ data: [{ id }] }`), or null when the body is not one. */
function readModelNames(body: string): string[] | null {
  try {
    const parsed = JSON.parse(body) as { data?: unknown };
    if (!Array.isArray(parsed.data)) return null;
    return parsed.data.flatMap((m) => (m && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string' ? [(m as { id: string }).id] : []));
  } catch {
    return null;
  }
}
