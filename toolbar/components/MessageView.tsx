import { formatThinkingTime } from '../../shared/format.ts';
import type { AssistantMessage, Message, Notice, PlanEntry, ReasoningPart, UserMessage } from '../../shared/schemas.ts';
import { describePickChip } from '../pick-chip.ts';
import { FileLink, ImagePreview } from './AttachmentViews.tsx';
import { Markdown } from './Markdown.tsx';
import { memo } from './memo.ts';
import { Collapsible, CopyMessage, EditMessage, MessageTime, offersReplyAction, ReplyActions, VersionSwitcher } from './MessageTools.tsx';
import { PickLabel } from './PickLabel.tsx';
import { ToolMessageView } from './ToolMessageView.tsx';
import { ToolCallCard, ToolResultCard } from './ToolCallCard.tsx';

/** A message's text parts, joined: what "Copy message" copies. */
function textOf(message: UserMessage | AssistantMessage): string {
  return message.content
    .flatMap((p) => (p.type === 'text' ? [p.text] : []))
    .join('\n\n')
    .trim();
}

/** A message that only answers approvals: the answers show on their calls' cards, never as a bubble. */
function isOnlyApprovals(message: UserMessage): boolean {
  return message.metadata.selectedElements.length === 0 && message.content.every((p) => p.type === 'tool-approval-response');
}

function UserMessageView({ message, chatId }: { message: UserMessage; chatId: string }) {
  const elements = message.metadata.selectedElements;
  if (isOnlyApprovals(message)) return null;
  return (
    <div class="ab-msg ab-msg-user" role="article" aria-label="You">
      <Collapsible text={textOf(message)}>
      {message.content.map((part, i) => {
        switch (part.type) {
          case 'text':
            return (
              <div key={i} class="ab-bubble">
                {part.text}
              </div>
            );
          case 'image':
            return <ImagePreview key={i} src={part.image} />;
          case 'file':
            return <FileLink key={i} data={part.data} filename={part.filename} mimeType={part.mimeType} />;
          case 'tool-approval-response':
            return null;
        }
      })}
      </Collapsible>
      {elements.length > 0 ? (
        <div class="ab-meta-chips" role="group" aria-label="Selected elements">
          {elements.slice(0, 12).map((el, i) => {
            const chip = describePickChip(el);
            return (
              <span key={i} class="ab-chip ab-el ab-chip-static" title={chip.title}>
                <PickLabel chip={chip} />
              </span>
            );
          })}
          {elements.length > 12 ? <span class="ab-chip ab-chip-static">+{elements.length - 12}</span> : null}
        </div>
      ) : null}
      <div class="ab-msg-actions">
        {/* The mirror of a reply's row: the buttons at the message's edge, the time outside them. */}
        <MessageTime at={message.createdAt} />
        <VersionSwitcher messageId={message.id} chatId={chatId} />
        <EditMessage message={message} />
        <CopyMessage text={textOf(message)} />
      </div>
    </div>
  );
}

function StatusLine({ message }: { message: AssistantMessage }) {
  switch (message.status) {
    case 'streaming':
      return <span class="ab-live">writing…</span>;
    case 'stopped':
      return <span class="ab-state ab-warn">stopped</span>;
    case 'interrupted':
      return <span class="ab-state ab-warn">interrupted</span>;
    case 'failed':
      return <span class="ab-state ab-bad">failed</span>;
    case 'done':
      return null;
  }
}

/** The last line of text the agent is thinking, for the live preview. */
function lastLine(text: string): string {
  const lines = text.trimEnd().split('\n');
  const line = lines[lines.length - 1]!.trim();
  return line.length > 140 ? `…${line.slice(-139)}` : line;
}

/**
 * Reasoning, collapsed: while it streams its summary shows the latest line; after, how long it took
 * (when the server recorded it).
 */
function ReasoningView({ part, live }: { part: ReasoningPart; live: boolean }) {
  const label = live ? 'Thinking…' : part.durationMs !== undefined ? `Thought for ${formatThinkingTime(part.durationMs)}` : 'Reasoning';
  return (
    <details class="ab-reasoning">
      <summary>
        <span>{label}</span>
        {live ? (
          <span class="ab-reasoning-preview" aria-live="off">
            {lastLine(part.text)}
          </span>
        ) : null}
      </summary>
      <Markdown text={part.text} />
    </details>
  );
}

const PLAN_MARKS: Record<PlanEntry['status'], string> = { pending: '○', in_progress: '◐', completed: '✓' };
const PLAN_LABELS: Record<PlanEntry['status'], string> = { pending: 'to do', in_progress: 'in progress', completed: 'done' };

/** The agent's plan as a checklist; it updates in place as the agent works. */
function PlanView({ plan }: { plan: readonly PlanEntry[] }) {
  const done = plan.filter((e) => e.status === 'completed').length;
  return (
    <div class="ab-plan" role="group" aria-label={`Plan, ${done} of ${plan.length} done`}>
      <div class="ab-plan-head">
        Plan <span class="ab-plan-count">{`${done}/${plan.length}`}</span>
      </div>
      <ul>
        {plan.map((entry, i) => (
          <li key={i} class={`ab-plan-${entry.status}`}>
            <span class="ab-plan-mark" aria-label={PLAN_LABELS[entry.status]} role="img">
              {PLAN_MARKS[entry.status]}
            </span>
            <span>{entry.content}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const NOTICE_MARKS: Record<string, string> = { info: 'i', warning: '!', error: '×' };
const NOTICE_LABELS: Record<string, string> = { info: 'Note', warning: 'Warning', error: 'Error' };

/**
 * What the agent told besides its reply (an MCP server it could not reach): one line each, the
 * detail under it. A notice is advice, not a failure: an error notice is red, the reply goes on.
 */
function NoticeList({ notices }: { notices: readonly Notice[] }) {
  return (
    <ul class="ab-notices" aria-label="Notices from the agent">
      {notices.map((n, i) => {
        const severity = n.severity in NOTICE_LABELS ? n.severity : 'info';
        return (
          <li key={i} class={`ab-notice ab-notice-${severity}`}>
            <span class="ab-notice-mark" role="img" aria-label={NOTICE_LABELS[severity]}>
              {NOTICE_MARKS[severity]}
            </span>
            <span class="ab-notice-text">
              <span class="ab-notice-title">{n.title}</span>
              {n.description ? <span class="ab-notice-about">{n.description}</span> : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function AssistantMessageView({ message, chatId, isLast }: { message: AssistantMessage; chatId: string; isLast: boolean }) {
  const empty = message.content.length === 0;
  const ended = message.status !== 'streaming';
  // Not while it streams: joining the reply's text per token would cost every delta its length.
  const text = ended ? textOf(message) : '';
  // A reply with nothing to copy or redo (a step that only called a tool) keeps its time in its
  // head: a row of its own pushed its tool's result away from the call, nearer the next reply.
  const actionsRow = ended && (text !== '' || offersReplyAction(message, isLast));
  return (
    <div
      class="ab-msg ab-msg-assistant"
      role="article"
      aria-label={`${message.agent}${message.status === 'done' ? '' : `, ${message.status}`}`}
      aria-busy={message.status === 'streaming'}
    >
      <div class="ab-msg-head">
        <span class="ab-agent">{message.agent}</span>
        <StatusLine message={message} />
        {/* ‹ n/m › where the eye ends a reply (its actions), else by its name. */}
        {actionsRow ? null : <VersionSwitcher messageId={message.id} chatId={chatId} />}
        {ended && !actionsRow ? <MessageTime at={message.createdAt} /> : null}
      </div>
      {message.notices && message.notices.length > 0 ? <NoticeList notices={message.notices} /> : null}
      {message.content.map((part, i) => {
        switch (part.type) {
          case 'text':
            return <Markdown key={i} text={part.text} />;
          case 'reasoning':
            return <ReasoningView key={i} part={part} live={message.status === 'streaming' && i === message.content.length - 1} />;
          case 'file':
            return part.mimeType.startsWith('image/') ? (
              <ImagePreview key={i} src={part.data} label={part.filename || 'Image'} />
            ) : (
              <FileLink key={i} data={part.data} filename={part.filename} mimeType={part.mimeType} />
            );
          case 'tool-call':
            return <ToolCallCard key={part.toolCallId} part={part} chatId={chatId} />;
          case 'tool-result':
            // On its call's card when the call is in this message (a backend tool's).
            return message.content.some((p) => p.type === 'tool-call' && p.toolCallId === part.toolCallId) ? null : <ToolResultCard key={`r-${part.toolCallId}`} part={part} />;
        }
      })}
      {message.plan && message.plan.length > 0 ? <PlanView plan={message.plan} /> : null}
      {empty && !message.plan && !message.notices && message.status === 'streaming' ? (
        <span class="ab-typing" aria-hidden="true">
          <i />
          <i />
          <i />
        </span>
      ) : null}
      {message.status === 'failed' ? (
        <div class="ab-error-text" role="note">
          {message.error ? `Failed: ${message.error}` : 'The agent failed to answer.'}
        </div>
      ) : null}
      {message.status === 'stopped' ? <div class="ab-note">Stopped before the answer was complete.</div> : null}
      {message.status === 'interrupted' ? (
        <div class="ab-note">Interrupted{message.error ? `: ${message.error}` : ' (the server stopped before the answer was complete).'}</div>
      ) : null}
      {/* At the end, so reaching them from the composer never scrolls the reply away. */}
      {actionsRow ? (
        <div class="ab-msg-actions">
          {/* Retry first: it shows without a hover, and after the hidden copy button it sat past a gap. */}
          <VersionSwitcher messageId={message.id} chatId={chatId} />
          <ReplyActions message={message} chatId={chatId} isLast={isLast} />
          <CopyMessage text={text} />
          <MessageTime at={message.createdAt} />
        </div>
      ) : null}
    </div>
  );
}

/**
 * One message. Memoized on the message object: a streaming patch gives only the streaming
 * message a new identity, so a long chat re-renders one message per token.
 */
export const MessageView = memo(function MessageView({ message, chatId, isLast = false }: { message: Message; chatId: string; isLast?: boolean }) {
  switch (message.role) {
    case 'user':
      return <UserMessageView message={message} chatId={chatId} />;
    case 'assistant':
      return <AssistantMessageView message={message} chatId={chatId} isLast={isLast} />;
    case 'tool':
      return <ToolMessageView message={message} />;
  }
});
