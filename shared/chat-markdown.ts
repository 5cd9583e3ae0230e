/**
 * A chat as one Markdown document, for pasting into an issue, a pull request or notes: the
 * toolbar's "Copy chat" and `agentbar sessions --export` write the same text.
 */
import { dataUrlBytes, splitDataUrl } from './data-url.ts';
import { describePick } from './describe-pick.ts';
import { describeApproval, formatBytes, formatLocalDateTime, formatThinkingTime } from './format.ts';
import { findLineChange } from './line-change.ts';
import type { AssistantMessage, Message, ToolCallPart, ToolDisplay, ToolResultPart, UserMessage } from './schemas.ts';
import { collapseWhitespace, truncateLine, truncateText } from './truncate.ts';
import { selectShownMessages } from './versions.ts';

/** A tool call's input, output or shown text longer than this is cut: the chat is for reading, not replaying. */
export const MAX_TOOL_TEXT = 4_000;

export interface ChatMarkdownOptions {
  /** How a message's time reads; the default is local `2026-11-30 07:22`. */
  formatTime?: (time: number) => string;
}

/**
 * Writes a chat as Markdown: a heading per turn (who and when), the text as written, reasoning as
 * a quote, tool calls with their input and output in code blocks (each cut at 4,000 characters)
 * and a coding agent's file changes as diffs, picked elements (with the components around them and
 * where they are written) and attachments named (their bytes are not copied). Of a chat with
 * versions of its answers, only the shown ones (`head`, as `ChatInfo.head`) are written.
 *
 * @example formatChatMarkdown({ title: 'Fix the filter', messages }) // '# Fix the filter\n\n## You · 2026-11-30 07:22\n\n…'
 */
export function formatChatMarkdown(chat: { title: string; messages: readonly Message[]; head?: string | null | undefined }, options: ChatMarkdownOptions = {}): string {
  const time = options.formatTime ?? formatLocalDateTime;
  const toolNames = new Map<string, string>();
  const blocks: string[] = [`# ${collapseWhitespace(chat.title) || 'Chat'}`];
  /** Who the last heading named: an agent's next step after a tool's result goes on under it. */
  let speaker: string | null = null;
  for (const message of selectShownMessages(chat.messages, chat.head)) {
    if (message.role === 'user') {
      const written = writeUser(message, time, toolNames);
      if (written.heading) speaker = null;
      blocks.push(...written.blocks);
    } else if (message.role === 'assistant') {
      if (speaker !== message.agent) blocks.push(`## ${collapseWhitespace(message.agent)} · ${time(message.createdAt)}`);
      speaker = message.agent;
      blocks.push(...writeAssistant(message, toolNames));
    } else for (const part of message.content) blocks.push(writeResult(part));
  }
  return `${blocks.filter(Boolean).join('\n\n')}\n`;
}

function writeUser(message: UserMessage, time: (t: number) => string, toolNames: Map<string, string>): { heading: boolean; blocks: string[] } {
  const approvals = message.content.flatMap((p) => (p.type === 'tool-approval-response' ? [p] : []));
  // A message that only answers approvals is a note on the calls above it, not a turn.
  const notes = approvals.map((p) => `_You ${describeApproval(p)}${toolNames.has(p.toolCallId) ? ` (\`${codeSpanText(toolNames.get(p.toolCallId)!)}\`)` : ''}._`);
  if (approvals.length === message.content.length) return { heading: false, blocks: notes };
  const out = [`## You · ${time(message.createdAt)}`];
  const { browser, selectedElements } = message.metadata;
  if (browser || selectedElements.length) {
    const page = browser ? `On ${browser.url}${browser.title ? ` (“${collapseWhitespace(browser.title)}”)` : ''}` : 'On the page';
    const picked = selectedElements.map((e) => {
      const text = truncateLine(e.textContent, 80);
      // With no components, the pick's line would only repeat the element its selector names.
      const chain = e.components?.length ? ` — \`${codeSpanText(describePick(e))}\`` : '';
      return `- \`${codeSpanText(e.selector ?? e.tagName.toLowerCase())}\`${text ? ` “${text}”` : ''}${chain}`;
    });
    out.push(picked.length ? `${page}, with ${picked.length === 1 ? 'this element' : 'these elements'} picked:\n${picked.join('\n')}` : `${page}.`);
  }
  const attached: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text') out.push(closeOpenFence(part.text));
    else if (part.type === 'image') attached.push(`an image (${part.mimeType ?? (splitDataUrl(part.image).mimeType || 'image')}, ${formatBytes(dataUrlBytes(part.image))})`);
    else if (part.type === 'file') attached.push(`${part.filename ? `\`${codeSpanText(part.filename)}\`` : 'a file'} (${part.mimeType}, ${formatBytes(dataUrlBytes(part.data))})`);
  }
  if (attached.length) out.push(`_Attached: ${attached.join(', ')}._`);
  return { heading: true, blocks: [...out, ...notes] };
}

function writeAssistant(message: AssistantMessage, toolNames: Map<string, string>): string[] {
  const out: string[] = [];
  for (const notice of message.notices ?? []) {
    const severity = notice.severity === 'error' || notice.severity === 'warning' ? notice.severity : 'info';
    out.push(quote(`**${severity[0]!.toUpperCase()}${severity.slice(1)}:** ${notice.title}${notice.description ? `\n${notice.description}` : ''}`));
  }
  if (message.plan?.length) {
    const steps = message.plan.map((e) => `- [${e.status === 'completed' ? 'x' : ' '}] ${collapseWhitespace(e.content)}${e.status === 'in_progress' ? ' _(in progress)_' : ''}`);
    out.push(`**Plan**\n\n${steps.join('\n')}`);
  }
  for (const part of message.content) {
    if (part.type === 'text') out.push(closeOpenFence(part.text));
    else if (part.type === 'reasoning') {
      if (!part.text.trim()) continue;
      const head = part.durationMs !== undefined ? `_Thought for ${formatThinkingTime(part.durationMs)}_` : '_Thinking_';
      out.push(quote(`${head}\n\n${closeOpenFence(part.text)}`));
    } else if (part.type === 'tool-call') {
      toolNames.set(part.toolCallId, part.toolName);
      out.push(writeCall(part));
    } else if (part.type === 'tool-result') out.push(writeResult(part));
    else out.push(`_File: ${part.filename ? `\`${codeSpanText(part.filename)}\`` : 'unnamed'} (${part.mimeType}, ${formatBytes(dataUrlBytes(part.data))})._`);
  }
  if (message.status === 'streaming') out.push('_Still being written when copied._');
  else if (message.status === 'stopped') out.push('_Stopped before the answer was complete._');
  else if (message.status === 'interrupted') out.push('_Interrupted: the server stopped before this reply ended._');
  else if (message.status === 'failed') out.push(`_Failed${message.error ? `: ${collapseWhitespace(message.error)}` : ''}._`);
  return out;
}

const CALL_STATES: Record<ToolCallPart['state'], string> = {
  'awaiting-approval': 'waiting for approval',
  denied: 'rejected',
  running: 'running',
  done: 'done',
  failed: 'failed',
  interrupted: 'interrupted',
};

function writeCall(call: ToolCallPart): string {
  const title = call.title ? ` ${collapseWhitespace(call.title)}` : '';
  const files = call.locations?.length ? `, on ${call.locations.map((l) => `\`${codeSpanText(l.path)}\``).join(', ')}` : '';
  const head = `**Tool call** \`${codeSpanText(call.toolName)}\`${title} (${CALL_STATES[call.state]}${files})`;
  const blocks = [head];
  if (Object.keys(call.input).length) blocks.push(fence(JSON.stringify(call.input, null, 2), 'json'));
  // What an agent that runs its own tools showed with the call: a command's output, a file's change.
  for (const item of call.display ?? []) blocks.push(writeDisplay(item));
  return blocks.join('\n\n');
}

function writeDisplay(item: ToolDisplay): string {
  if (item.type === 'text') return item.markdown ? closeOpenFence(cut(item.text)) : fence(item.text, '');
  const { head, removed, added } = findLineChange(item.oldText, item.newText);
  const lines = [...(head > 0 ? [`@@ line ${head + 1}`] : []), ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)];
  const path = `\`${codeSpanText(item.path)}\``;
  return `${item.oldText == null ? `New file ${path}` : path}:\n\n${fence(lines.join('\n'), 'diff')}`;
}

function writeResult(part: ToolResultPart): string {
  // A call that answered nothing (an agent that ran a tool and reports no output) says no more than its call.
  if ((part.output === null || part.output === undefined || part.output === '') && !part.isError) return '';
  const label = part.isError ? '**Tool error**' : '**Tool result**';
  const name = part.title ? collapseWhitespace(part.title) : `\`${codeSpanText(part.toolName)}\``;
  const text = typeof part.output === 'string' ? part.output : (JSON.stringify(part.output, null, 2) ?? 'null');
  return `${label} of ${name}\n\n${fence(text, typeof part.output === 'string' ? '' : 'json')}`;
}

/** A code block that holds `text` whole: its fence is longer than any run of backticks inside. */
function fence(text: string, lang: string): string {
  const body = cut(text);
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${lang}\n${body}\n${marks}`;
}

/** A tool's text cut at MAX_TOOL_TEXT, saying how much was left out. */
function cut(text: string): string {
  return text.length > MAX_TOOL_TEXT ? `${truncateText(text, MAX_TOOL_TEXT, '')}\n… (${(text.length - MAX_TOOL_TEXT).toLocaleString('en')} more characters)` : text;
}

/**
 * A reply stopped inside a code block leaves its fence open, and everything after it in the
 * document would read as code: such a text gets its closing fence.
 */
function closeOpenFence(text: string): string {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    const mark = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!mark) continue;
    const fenceMarks = mark[1]!;
    const rest = mark[2]!;
    if (open === null) {
      // A backtick fence's info string cannot hold a backtick (CommonMark 4.5).
      if (fenceMarks[0] !== '`' || !rest.includes('`')) open = fenceMarks;
    } else if (fenceMarks[0] === open[0] && fenceMarks.length >= open.length && !rest.trim()) open = null;
  }
  return open === null ? text : `${text}\n${open}`;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** Text inside a single-backtick code span cannot hold a backtick. */
function codeSpanText(text: string): string {
  return collapseWhitespace(text).replace(/`/g, "'");
}
