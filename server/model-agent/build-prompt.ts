/**
 * Turns an agentbar chat into the AI SDK's model messages for one agent: user turns stay user
 * turns, the agent's own turns are assistant turns, and other agents' turns are labelled with
 * their id (`demo/historian: …`) so the model knows who said what. Only the last `historyMessages`
 * messages go in raw (older tasks live on in the session memory), so a chat of any length fits.
 */
import type { ModelMessage, UserContent } from 'ai';
import type { FilePart, ImagePart, Message, UserMessage } from '../../shared/schemas.ts';
import { describePick } from '../../shared/describe-pick.ts';
import { truncateLine, truncateText } from '../../shared/truncate.ts';
import { isApprovalAnswer } from './approval-answer.ts';
import { toModelPart } from './attachments.ts';

/** Raw messages sent to the model, the current one included. Default 24. */
export const DEFAULT_HISTORY_MESSAGES = 24;
/** A tool's input or output quoted in the history is clipped to this. */
const MAX_QUOTED = 600;

function quote(value: unknown): string {
  try {
    return truncateText(typeof value === 'string' ? value : JSON.stringify(value), MAX_QUOTED);
  } catch {
    return '[unprintable]';
  }
}

function textOf(message: Message): string {
  return message.content.map((p) => (p.type === 'text' ? p.text : '')).filter(Boolean).join('\n');
}

/**
 * The page context a toolbar sends with a message, as text the model can use: a line for the page,
 * and one for each picked element that names it with its components (`describePick`), then its
 * selector and text.
 *
 * @example describePageContext(message)
 * // 'Page: Orders <http://localhost:5173/> (viewport 1280×720)\nSelected element: <button#greet> in Greeting (src/Greeting.tsx:4:7) — #greet "Say hi"'
 */
export function describePageContext(message: UserMessage): string | null {
  const lines: string[] = [];
  const browser = message.metadata.browser;
  if (browser) lines.push(`Page: ${browser.title || '(untitled)'} <${browser.url}> (viewport ${browser.viewport.width}×${browser.viewport.height})`);
  for (const el of message.metadata.selectedElements) {
    const text = truncateLine(el.textContent, 200);
    lines.push(`Selected element: ${describePick(el)} — ${el.selector ?? el.xpath}${text ? ` "${text}"` : ''}`);
  }
  return lines.length ? lines.join('\n') : null;
}

/** An attachment of an earlier message: only named, so the history stays small. */
function describeEarlier(part: ImagePart | FilePart): string {
  if (part.type === 'image') return part.filename ? `[an image the user attached earlier: ${part.filename}]` : '[an image the user attached earlier]';
  return `[a file the user attached earlier: ${part.filename ?? part.mimeType}]`;
}

function userContent(message: UserMessage, withAttachments: boolean): UserContent {
  const parts: Exclude<UserContent, string> = [];
  for (const p of message.content) {
    if (p.type === 'text') parts.push({ type: 'text', text: p.text });
    else if (p.type === 'image' || p.type === 'file') {
      // A named image (a picked element's picture, `pick-1-button.png`) is introduced by its name.
      if (withAttachments && p.type === 'image' && p.filename) parts.push({ type: 'text', text: `${p.filename}:` });
      parts.push(withAttachments ? toModelPart(p) : { type: 'text', text: describeEarlier(p) });
    }
  }
  const context = describePageContext(message);
  if (context) parts.push({ type: 'text', text: context });
  return parts.length ? parts : [{ type: 'text', text: '' }];
}

/**
 * @example const messages = buildModelMessages(ctx.messages, 'acme/model', 24);
 */
export function buildModelMessages(chat: readonly Message[], agentId: string, historyMessages = DEFAULT_HISTORY_MESSAGES): ModelMessage[] {
  const window = chat.slice(-Math.max(1, historyMessages));
  const results = new Map<string, { output: unknown; isError: boolean }>();
  for (const m of chat) {
    if (m.role === 'user') continue;
    for (const p of m.content) if (p.type === 'tool-result') results.set(p.toolCallId, { output: p.output, isError: p.isError ?? false });
  }
  const last = window[window.length - 1];
  const out: ModelMessage[] = [];
  for (const m of window) {
    if (isApprovalAnswer(m)) continue;
    if (m.role === 'user') {
      out.push({ role: 'user', content: userContent(m, m === last) });
    } else if (m.role === 'assistant') {
      // Tool calls of past turns are told as text: their call/result pairs need not line up.
      const pieces: string[] = [];
      for (const p of m.content) {
        if (p.type === 'text' && p.text) pieces.push(p.text);
        else if (p.type === 'tool-call') {
          const result = results.get(p.toolCallId);
          const outcome = result ? `${result.isError ? 'failed' : 'returned'} ${quote(result.output)}` : p.state;
          pieces.push(`[called ${p.toolName}(${quote(p.input)}) → ${outcome}]`);
        }
      }
      if (m.status !== 'done' && m.status !== 'streaming') pieces.push(`[this reply ended ${m.status}${m.error ? `: ${truncateText(m.error, 200)}` : ''}]`);
      const text = pieces.join('\n\n');
      if (!text) continue;
      const previous = out[out.length - 1];
      // A reply paused for tool calls spans several messages: the model gets it as one turn.
      if (m.agent === agentId && previous?.role === 'assistant' && typeof previous.content === 'string') previous.content = `${previous.content}\n\n${text}`;
      else if (m.agent === agentId) out.push({ role: 'assistant', content: text });
      else out.push({ role: 'user', content: `${m.agent}: ${text}` });
    }
    // Tool messages are folded into the calls above, and an approval answer into its call's outcome.
  }
  return out;
}

export { textOf as messageText };
