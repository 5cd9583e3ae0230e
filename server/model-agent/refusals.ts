/**
 * Models and servers that refuse a request because it offers tools: Ollama for models without tool
 * support (deepseek-r1, gemma2, …: "does not support tools"), the llama.cpp server without
 * `--jinja`, vLLM without `--enable-auto-tool-choice`. The model agent always offers the page's
 * tools, so without this every reply from such a model would fail; it answers without tools instead.
 */
import { APICallError, RetryError } from 'ai';

const REFUSES_TOOLS = /does not support tools|tools? (?:are|is) not supported|tools param requires|tool choice requires|enable-auto-tool-choice|does not support (?:function|tool) calling/i;

/**
 * True when the provider refused the request for offering tools, not for anything else.
 *
 * @example isToolsRefusal(ollama400) // true for "llama3:8b does not support tools"
 */
export function isToolsRefusal(error: unknown): boolean {
  const e = RetryError.isInstance(error) ? error.lastError : error;
  if (!APICallError.isInstance(e)) return false;
  const status = e.statusCode ?? 0;
  if (status < 400 || status >= 600 || status === 401 || status === 403 || status === 404 || status === 429) return false;
  return REFUSES_TOOLS.test(`${e.responseBody ?? ''} ${e.message}`);
}
