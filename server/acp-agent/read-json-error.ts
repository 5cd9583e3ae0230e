/**
 * A provider's error as agents pass it on: the API's JSON body (`{"error":{"code":401,"message":
 * "…","status":"UNAUTHENTICATED"}}`), whole or inside a sentence, and at times as a JSON string
 * inside another error's `message` (Gemini CLI). The user reads its message and status.
 */

/** Text read for JSON at most: an error line, not a dump. */
const MAX_SCAN_CHARS = 20_000;
/** JSON inside a message inside JSON…, followed this deep. */
const MAX_DEPTH = 4;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The text with the JSON error in it as its message and status; the text as it is when it holds
 * none.
 *
 * @example describeJsonErrors('got status: 401. {"error":{"code":401,"message":"API key not valid.","status":"UNAUTHENTICATED"}}')
 * // 'got status: 401. API key not valid. (401 UNAUTHENTICATED)'
 */
export function describeJsonErrors(text: string): string {
  return text.length > MAX_SCAN_CHARS ? text : (describeJsonIn(text, 0) ?? text);
}

/**
 * A JSON value's error as its message and status (`{ error: { message, code, status } }`, or the
 * same fields at the top); null when it has no message.
 *
 * @example describeErrorValue({ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } })
 * // 'Quota exceeded (429 RESOURCE_EXHAUSTED)'
 */
export function describeErrorValue(value: unknown, depth = 0): string | null {
  if (Array.isArray(value)) return value.length === 1 ? describeErrorValue(value[0], depth) : null;
  if (!isRecord(value)) return null;
  const body = isRecord(value.error) ? value.error : value;
  const message = typeof body.message === 'string' ? body.message.trim() : typeof value.error === 'string' ? value.error.trim() : '';
  if (!message) return null;
  // The innermost error is the provider's own: its message and status say the most.
  const inner = depth < MAX_DEPTH ? describeJsonIn(message, depth + 1) : null;
  if (inner !== null) return inner;
  const tags = [...new Set([readTag(body.code), readTag(body.status) ?? (readTag(body.code) ? undefined : readTag(body.type))].filter((t): t is string => t !== undefined))];
  return tags.length > 0 ? `${message} (${tags.join(' ')})` : message;
}

function readTag(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() && value.length <= 64 ? value.trim() : undefined;
}

/** The text with its first JSON error described; null when it holds none. */
function describeJsonIn(text: string, depth: number): string | null {
  let from = 0;
  for (let tries = 0; tries < 5; tries++) {
    const start = text.indexOf('{', from);
    if (start < 0) return null;
    const end = findClosing(text, start);
    if (end < 0) return null;
    const described = parseError(text.slice(start, end), depth);
    if (described !== null) {
      let before = text.slice(0, start);
      let after = text.slice(end);
      // A list of one error (`[{"error":…}]`) reads as that error.
      if (/\[\s*$/.test(before) && /^\s*\]/.test(after)) {
        before = before.replace(/\[\s*$/, '');
        after = after.replace(/^\s*\]/, '');
      }
      return `${before}${described}${after}`.trim();
    }
    from = start + 1;
  }
  return null;
}

function parseError(json: string, depth: number): string | null {
  try {
    return describeErrorValue(JSON.parse(json), depth);
  } catch {
    return null;
  }
}

/** Where the JSON object starting at `start` ends (just past its closing brace), or -1. */
function findClosing(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
