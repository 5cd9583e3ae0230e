/**
 * Pure translations between agentbar's messages and ACP's: the user's message (text, images,
 * files, page context) into prompt blocks; an ACP tool call's content, files and plan into what
 * agentbar shows; the user's Approve / Reject into one of the options the agent offered.
 */
import type { ContentBlock, PermissionOption, PlanEntry as AcpPlanEntry, PromptCapabilities, RequestPermissionOutcome, ToolCallContent, ToolCallLocation } from '@agentclientprotocol/sdk';
import { splitDataUrl } from '../../shared/data-url.ts';
import { readAttachedImage, readAttachedText, SVG_SOURCE_HEADING } from '../sdk/attached-text.ts';
import { describePick } from '../../shared/describe-pick.ts';
import { formatList } from '../../shared/format.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { ApprovalLabels, ApprovalOption, FilePart, ImagePart, Message, PlanEntry, ToolDisplay, ToolLocation, UserMessage } from '../../shared/schemas.ts';
import { truncateLine, truncateText } from '../../shared/truncate.ts';
import type { ApprovalAnswer, NoticeInput } from '../sdk/agent.ts';

/**
 * The prompt for one user message: its text, images and files as ACP blocks the agent said it
 * takes, then the page it was sent from and the elements the user picked, as a text block.
 *
 * @example const prompt = buildAcpPrompt(ctx.message, init.agentCapabilities?.promptCapabilities);
 */
export function buildAcpPrompt(message: UserMessage, caps: PromptCapabilities | undefined, history?: string): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (history) blocks.push({ type: 'text', text: history });
  for (const part of message.content) {
    if (part.type === 'text') {
      blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'image' || part.type === 'file') {
      // A named image (a picked element's picture, `pick-1-button.png`) is introduced by its name.
      if (part.type === 'image' && part.filename) blocks.push({ type: 'text', text: `${part.filename}:` });
      blocks.push(toAcpBlock(part, caps).block);
    }
  }
  const context = describePage(message);
  if (context) blocks.push({ type: 'text', text: context });
  return blocks;
}

/**
 * The attachments of a message the agent cannot be sent as they are (it takes no images, or no
 * files and they are not text), as the reply names them: the agent is only told they are there.
 *
 * @example listNotTaken(messageWithPng, {}) // ['an image (image/png)']
 */
export function listNotTaken(message: UserMessage, caps: PromptCapabilities | undefined): string[] {
  return message.content.flatMap((part) => (part.type === 'image' || part.type === 'file' ? (toAcpBlock(part, caps).notTaken ?? []) : []));
}

/**
 * One attachment as the agent is sent it, as the capabilities it announced allow, and how the
 * reply names it when it could not be sent as it is.
 */
function toAcpBlock(part: ImagePart | FilePart, caps: PromptCapabilities | undefined): { block: ContentBlock; notTaken: string | null } {
  if (part.type === 'image') {
    const read = readAttachedImage(part.image, part.mimeType);
    if (read.kind === 'svg') {
      if (caps?.embeddedContext) return { block: { type: 'resource', resource: { uri: 'attachment:///image.svg', mimeType: 'image/svg+xml', text: read.text } }, notTaken: null };
      return { block: { type: 'text', text: `${SVG_SOURCE_HEADING}\n${read.text}` }, notTaken: null };
    }
    if (read.kind === 'unsupported') {
      return { block: { type: 'text', text: `[The user attached an image (${read.mimeType}); agents are sent PNG, JPEG, GIF and WebP images only.]` }, notTaken: `an image (${read.mimeType})` };
    }
    const { data } = splitDataUrl(part.image);
    if (caps?.image) return { block: { type: 'image', data, mimeType: read.mimeType }, notTaken: null };
    return { block: { type: 'text', text: `[The user attached an image (${read.mimeType}); this agent does not take images.]` }, notTaken: `an image (${read.mimeType})` };
  }
  const { data } = splitDataUrl(part.data);
  const name = part.filename || 'attachment';
  const uri = `attachment:///${encodeURIComponent(name)}`;
  const text = readAttachedText(part.data, part.mimeType);
  if (caps?.embeddedContext) return { block: { type: 'resource', resource: text !== null ? { uri, mimeType: part.mimeType, text } : { uri, mimeType: part.mimeType, blob: data } }, notTaken: null };
  if (text !== null) return { block: { type: 'text', text: `Attached file ${name}:\n${text}` }, notTaken: null };
  return { block: { type: 'text', text: `[The user attached ${name} (${part.mimeType}); this agent does not take files.]` }, notTaken: `${part.filename || 'a file'} (${part.mimeType})` };
}

/**
 * The reply's note for what `listNotTaken` found.
 *
 * @example describeNotTaken(['an image (image/png)'])
 * // { severity: 'warning', title: 'an image (image/png) could not be sent to this agent', description: 'It was only told it was attached.' }
 */
export function describeNotTaken(labels: readonly string[]): NoticeInput {
  return { severity: 'warning', title: `${formatList(labels)} could not be sent to this agent`, description: `It was only told ${labels.length === 1 ? 'it was' : 'they were'} attached.` };
}

/**
 * The page and the picked elements, as the agent reads them: a line naming each pick with the
 * components around it (`describePick`), then the JSON of the page and picks, on one line of its
 * own. Nothing when the message has neither.
 */
function describePage(message: UserMessage): string | null {
  const { browser, selectedElements } = message.metadata;
  if (!browser && selectedElements.length === 0) return null;
  const context: Record<string, unknown> = {};
  if (browser) context.page = { url: browser.url, title: browser.title, viewport: browser.viewport };
  if (selectedElements.length > 0) {
    context.selectedElements = selectedElements.map((e) => ({
      tagName: e.tagName,
      selector: e.selector,
      xpath: e.xpath,
      attributes: e.attributes,
      textContent: e.textContent,
      boundingClientRect: e.boundingClientRect,
    }));
  }
  const picks = selectedElements.map((e, i) => `Picked element ${i + 1}: ${describePick(e)}\n`).join('');
  return `Context from agentbar (the page the user is looking at, and the elements they picked):\n${picks}${JSON.stringify(context)}`;
}

/** Most characters of earlier chat sent to a new session that cannot load the old one. */
export const MAX_HISTORY_CHARS = 20_000;

/**
 * The chat so far as text, for the first prompt of a session that replaces one the agent could not
 * load: the agent then knows what was said, if not what it did. Newest turns win when it is long.
 */
export function describeHistory(messages: readonly Message[]): string | null {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'tool') continue;
    const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('').trim();
    if (!text) continue;
    lines.push(`${m.role === 'user' ? 'User' : m.agent}: ${text}`);
  }
  if (lines.length === 0) return null;
  let body = lines.join('\n\n');
  if (body.length > MAX_HISTORY_CHARS) body = `…${body.slice(-MAX_HISTORY_CHARS)}`;
  return `This conversation started before; the agent's earlier session is gone. What was said so far:\n\n${body}\n\n(End of the earlier conversation.)`;
}

function clip(text: string, max = LIMITS.maxToolDisplayChars): string {
  return truncateText(text, max, '\n… (clipped)');
}

/**
 * A call's title as it reads best. Claude Code titles a call to an MCP tool with the tool's full
 * name, `mcp__<server>__<tool>`, which cut to the card's width showed only the server's name;
 * Codex titles it `Tool: <server>/<tool>`. Both read as the tool, then its server.
 *
 * @example toTitle('mcp__agentbar-page__get_page_info') // 'get_page_info (agentbar-page)'
 */
export function toTitle(title: string): string {
  const match = /^mcp__(.+?)__(.+)$/.exec(title) ?? /^Tool: ([^/\s]+)\/(\S+)$/.exec(title);
  return match ? `${match[2]} (${match[1]})` : title;
}

/** An ACP tool call's content as what agentbar shows. */
export function toDisplay(content: readonly ToolCallContent[]): ToolDisplay[] {
  const out: ToolDisplay[] = [];
  for (const item of content.slice(0, LIMITS.maxToolDisplayItems)) {
    if (item.type === 'diff') {
      out.push({ type: 'diff', path: item.path.slice(0, LIMITS.maxToolPathLength), oldText: item.oldText == null ? null : clip(item.oldText), newText: clip(item.newText) });
    } else if (item.type === 'content') {
      const block = item.content;
      // ACP's text is Markdown (Claude Code's adapter fences a command's output): shown as such.
      out.push(block.type === 'text' ? { type: 'text', text: clip(block.text), markdown: true } : { type: 'text', text: `[${block.type}]` });
    } else {
      out.push({ type: 'text', text: `[terminal ${item.terminalId}]` });
    }
  }
  return out;
}

/** The text of an ACP tool call's content: what the call's result holds when it has no raw output. */
export function textOfContent(content: readonly ToolCallContent[] | null | undefined): string | null {
  if (!content) return null;
  const texts = content.flatMap((c) => (c.type === 'content' && c.content.type === 'text' ? [c.content.text] : c.type === 'diff' ? [`Changed ${c.path}`] : []));
  return texts.length > 0 ? clip(texts.join('\n')) : null;
}

/** Where agents put a command's output in a call's raw output: Codex's `formatted_output` first. */
const RAW_OUTPUT_TEXT_KEYS = ['formatted_output', 'aggregated_output', 'output', 'stdout', 'stderr'] as const;

/**
 * The words in a call's raw output, for an agent that reports a call only there: Codex gives a
 * command's output in `formatted_output` and no content, and an MCP tool's as a CallToolResult
 * (`content` of text blocks). Null when it holds no text, so the call shows what it showed.
 *
 * @example textOfRawOutput({ exit_code: 0, formatted_output: 'a.ts\n' }) // 'a.ts\n'
 */
export function textOfRawOutput(raw: unknown): string | null {
  if (typeof raw === 'string') return raw.trim() ? clip(raw) : null;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const fields = raw as Record<string, unknown>;
  for (const key of RAW_OUTPUT_TEXT_KEYS) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim()) return clip(value);
  }
  if (Array.isArray(fields.content)) {
    const texts = fields.content.flatMap((c: unknown) => (c && typeof c === 'object' && (c as { type?: unknown }).type === 'text' && typeof (c as { text?: unknown }).text === 'string' ? [(c as { text: string }).text] : []));
    if (texts.some((t) => t.trim())) return clip(texts.join('\n'));
  }
  return null;
}

export function toLocations(locations: readonly ToolCallLocation[]): ToolLocation[] {
  return locations.slice(0, LIMITS.maxToolLocations).map((l) => (l.line != null ? { path: l.path.slice(0, LIMITS.maxToolPathLength), line: l.line } : { path: l.path.slice(0, LIMITS.maxToolPathLength) }));
}

export function toPlan(entries: readonly AcpPlanEntry[]): PlanEntry[] {
  return entries.slice(0, LIMITS.maxPlanEntries).map((e) => ({ content: e.content.slice(0, LIMITS.maxPlanEntryLength), status: e.status, priority: e.priority }));
}

/** A JSON object for a tool call's input: ACP's raw input may be anything. */
export function toInput(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  return { value: raw };
}

/**
 * The option that carries the user's answer: allow or reject, "always" when they chose it and the
 * agent offers it, else "once"; `cancelled` when the agent offered no option of that kind.
 */
export function chooseOption(options: readonly PermissionOption[], answer: ApprovalAnswer): RequestPermissionOutcome {
  // The user chose one of the agent's own options by its id (the toolbar offers each one).
  const chosen = answer.optionId === undefined ? undefined : options.find((o) => o.optionId === answer.optionId);
  if (chosen) return { outcome: 'selected', optionId: chosen.optionId };
  const wanted = answer.approved ? (answer.always ? ['allow_always', 'allow_once'] : ['allow_once', 'allow_always']) : answer.always ? ['reject_always', 'reject_once'] : ['reject_once', 'reject_always'];
  for (const kind of wanted) {
    const option = options.find((o) => o.kind === kind);
    if (option) return { outcome: 'selected', optionId: option.optionId };
  }
  return { outcome: 'cancelled' };
}

/**
 * The agent's names for the answers the approval's buttons give (the options `chooseOption` picks
 * for them), so the buttons say what the agent means: Codex's "always" is "Yes, and don't ask again
 * for commands that start with `npm test`". "Always" is named only by an allow-always option;
 * undefined when no option has a name.
 *
 * @example approvalLabelsOf([{ optionId: 'y', name: 'Yes, proceed', kind: 'allow_once' }]) // { approve: 'Yes, proceed' }
 */
export function approvalLabelsOf(options: readonly PermissionOption[]): ApprovalLabels | undefined {
  const nameOf = (answer: ApprovalAnswer, kinds: readonly string[]): string | undefined => {
    const outcome = chooseOption(options, answer);
    if (outcome.outcome !== 'selected') return undefined;
    const option = options.find((o) => o.optionId === outcome.optionId);
    if (!option || !kinds.includes(option.kind)) return undefined;
    const name = truncateLine(option.name, LIMITS.maxTitleLength);
    return name || undefined;
  };
  const labels: ApprovalLabels = {};
  const approve = nameOf({ approved: true }, ['allow_once', 'allow_always']);
  const always = nameOf({ approved: true, always: true }, ['allow_always']);
  const reject = nameOf({ approved: false }, ['reject_once', 'reject_always']);
  if (approve) labels.approve = approve;
  // An agent whose only allow is "always" has one button for it, named once.
  if (always && always !== approve) labels.always = always;
  if (reject) labels.reject = reject;
  return Object.keys(labels).length > 0 ? labels : undefined;
}

/**
 * Every answer the agent offers, by its id and name, for clients that offer each one: Claude Code
 * asks to leave plan mode with two "always" ("Yes, and bypass permissions", "Yes, and auto-accept
 * edits"). Undefined when the options cannot all be offered (too many, an id too long, no names):
 * the buttons then fall back to `approvalLabelsOf`.
 *
 * @example approvalOptionsOf([{ optionId: 'y', name: 'Yes', kind: 'allow_once' }]) // [{ id: 'y', label: 'Yes', kind: 'allow_once' }]
 */
export function approvalOptionsOf(options: readonly PermissionOption[]): ApprovalOption[] | undefined {
  if (options.length === 0 || options.length > LIMITS.maxApprovalOptions) return undefined;
  const offered: ApprovalOption[] = [];
  for (const o of options) {
    const label = truncateLine(o.name, LIMITS.maxTitleLength);
    if (!label || !o.optionId || o.optionId.length > LIMITS.maxApprovalOptionIdLength || offered.some((p) => p.id === o.optionId)) return undefined;
    offered.push({ id: o.optionId, label, kind: o.kind });
  }
  return offered;
}
