/**
 * Provider failures as a user should read them in the failed message: what happened, and what to
 * do. Covers a refused connection, bad keys, rate limits, provider errors, a context window that
 * is full, and a stream cut mid-reply.
 */
import { APICallError, RetryError } from 'ai';
import { truncateLine } from '../../shared/truncate.ts';

function clip(text: string, max = 300): string {
  return truncateLine(text, max);
}

/**
 * The provider's own words in an OpenAI-style error body (`{"error":{"message":…}}`, `{"error":…}`
 * or `{"message":…}`), or null when the body holds no such text.
 *
 * @example readErrorBodyMessage('{"error":{"message":"Incorrect API key provided."}}') // 'Incorrect API key provided.'
 */
export function readErrorBodyMessage(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown } | null;
    const said = typeof parsed?.error === 'string' ? parsed.error : parsed?.error?.message ?? parsed?.message;
    return typeof said === 'string' && said ? said : null;
  } catch {
    return null;
  }
}

/**
 * True when the base URL's path has no version in it (`http://127.0.0.1:11434`): OpenAI-compatible
 * servers answer under one (`/v1`, Gemini's `/v1beta/openai`), and leaving it out is the usual slip
 * behind a 404.
 *
 * @example lacksApiVersion('http://127.0.0.1:11434') // true
 */
export function lacksApiVersion(baseUrl: string): boolean {
  try {
    return !/\/v\d+[a-z0-9]*(?:\/|$)/i.test(new URL(baseUrl).pathname);
  } catch {
    return false;
  }
}

/** The provider's own message from an OpenAI-style error body, else the error's. */
function providerMessage(error: APICallError): string {
  return clip(readErrorBodyMessage(error.responseBody ?? '') ?? error.message);
}

function causeCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * @example describeModelError(error, 'http://localhost:11434/v1') // 'Cannot reach the model at …'
 */
export function describeModelError(error: unknown, baseUrl?: string): string {
  if (RetryError.isInstance(error)) return describeModelError(error.lastError, baseUrl);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const said = providerMessage(error);
    if (status === undefined) {
      const code = causeCode(error);
      const where = baseUrl ?? error.url;
      if (code === 'ECONNREFUSED') return `Cannot reach the model at ${where}: the connection was refused. Is the model server running?`;
      return `Cannot reach the model at ${where}: ${clip(error.message)}${code ? ` (${code})` : ''}`;
    }
    // The answer started fine and then could not be read to its end.
    if (status >= 200 && status < 300) return `The model's reply stream broke off in the middle (${clip(error.message)}). Send again to retry.`;
    if (status === 401 || status === 403) return `The model provider refused the credentials (${status}): ${said}. Check the API key (agentbar reads it from the environment variable named by --api-key-env, OPENAI_API_KEY by default).`;
    if (status === 404) {
      const hint = baseUrl && lacksApiVersion(baseUrl) ? ` OpenAI-compatible servers answer under /v1: try --base-url ${baseUrl.replace(/\/+$/, '')}/v1.` : '';
      return `The model provider does not know this model or address (404): ${said}. Check --model and --base-url.${hint}`;
    }
    if (status === 429) return `The model provider is rate limiting (429): ${said}. Wait a moment and send again.`;
    if (/context|too long|maximum.*tokens|token limit/i.test(said) && status < 500) return `The conversation does not fit the model's context window (${status}): ${said}. Start a new chat or use a model with a larger context.`;
    if (status >= 500) return `The model provider failed (${status}): ${said}. Try again in a moment.`;
    return `The model provider answered ${status}: ${said}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/terminated|other side closed|ECONNRESET|socket hang up|premature close|aborted/i.test(message) || causeCode(error) === 'UND_ERR_SOCKET') {
    return `The model's reply stream broke off in the middle (${clip(message)}). Send again to retry.`;
  }
  return clip(message, 500);
}
