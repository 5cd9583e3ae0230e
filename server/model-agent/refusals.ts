/**
 * Requests a model server refuses for what they offer, not for what they ask: tools, and
 * images or PDFs. The model agent always offers the page's tools, so without these every reply
 * from such a model would fail; it asks again without them instead.
 */
import { APICallError, RetryError } from 'ai';

/**
 * Ollama for models without tool support (deepseek-r1, gemma2, …: "does not support tools"), the
 * llama.cpp server without `--jinja`, vLLM without `--enable-auto-tool-choice`.
 */
const REFUSES_TOOLS = /does not support tools|tools? (?:are|is) not supported|tools param requires|tool choice requires|enable-auto-tool-choice|does not support (?:function|tool) calling/i;

/**
 * Ollama for a model without a vision projector ("this model is missing data required for image
 * input", 400 or 500), the llama.cpp server without `--mmproj`, LM Studio ("Model does not support
 * images"), vLLM ("… is not a multimodal model"), OpenAI ("image_url is only supported by certain
 * models").
 */
const REFUSES_MEDIA = /missing data required for image input|image input is not supported|does not support (?:images?|image input|vision|multimodal|pdfs?|file input)|not a multimodal model|(?:image_url|file) is only supported by certain models|vision is not (?:supported|enabled)|mmproj/i;

/**
 * Ollama's OpenAI-compatible endpoint for a content part it cannot take, whatever the model: a
 * PDF or audio part ("invalid message format") and an image other than PNG, JPEG or WebP, such as
 * a GIF or an SVG ("invalid image input"); OpenAI's "Invalid content type".
 */
const REFUSES_CONTENT = /invalid message format|invalid image input|invalid content type/i;

/** An answer that refused the request as a whole, with its text matching `pattern`. */
function isRefusal(error: unknown, pattern: RegExp): boolean {
  const e = RetryError.isInstance(error) ? error.lastError : error;
  if (!APICallError.isInstance(e)) return false;
  const status = e.statusCode ?? 0;
  if (status < 400 || status >= 600 || status === 401 || status === 403 || status === 404 || status === 429) return false;
  return pattern.test(`${e.responseBody ?? ''} ${e.message}`);
}

/**
 * True when the provider refused the request for offering tools, not for anything else.
 *
 * @example isToolsRefusal(ollama400) // true for "llama3:8b does not support tools"
 */
export function isToolsRefusal(error: unknown): boolean {
  return isRefusal(error, REFUSES_TOOLS);
}

/**
 * True when the provider refused the request for the images or PDFs in it.
 *
 * @example isMediaRefusal(ollama500) // true for "this model is missing data required for image input"
 */
export function isMediaRefusal(error: unknown): boolean {
  return isRefusal(error, REFUSES_MEDIA);
}

/**
 * True when the provider refused a kind of content part (a PDF, a GIF) rather than the model's
 * seeing images at all: a request without those parts may go through.
 *
 * @example isContentRefusal(ollama400) // true for "invalid image input"
 */
export function isContentRefusal(error: unknown): boolean {
  return isRefusal(error, REFUSES_CONTENT);
}
