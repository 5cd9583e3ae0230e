import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { AssistantMessage, Message, UserMessage } from '../../shared/schemas.ts';
import { useServices, useToolbar } from '../context.ts';
import { selectMessages, selectRunInActiveChat, selectShownBranch, type ShownBranch } from '../selectors.ts';
import { focusComposer } from './Composer.tsx';
import { CheckIcon, ChevronLeftIcon, ChevronRightIcon, CopyIcon, PencilIcon, RetryIcon } from './icons.tsx';
import { formatDay, formatFullDate, formatTime } from '../formatters.ts';
import { useCopy } from './use-copy.ts';

/** Longer than this, or with more lines, a message of the user's is folded behind "Show more". */
export const FOLD_ABOVE_CHARS = 2_000;
export const FOLD_ABOVE_LINES = 24;

/** "14:05", or "Mar 3, 14:05" for another day; the full date and time on hover. */
export function MessageTime({ at }: { at: number }) {
  const date = new Date(at);
  const sameDay = date.toDateString() === new Date().toDateString();
  const short = formatTime(at);
  const shown = sameDay ? short : `${formatDay(at)}, ${short}`;
  // Drawn from an attribute: the time is not part of the message's text (copying, find, tests).
  return <time class="ab-time" dateTime={date.toISOString()} title={formatFullDate(at)} data-label={shown} />;
}

/** Copies a message's text (its text parts, as written: Markdown stays Markdown). */
export function CopyMessage({ text }: { text: string }) {
  if (!text) return null;
  return <CopyButton label="Copy message" class="ab-msg-btn" text={() => text} />;
}

/**
 * A button that copies `text()` (called on click, so a costly text is only made when wanted) and
 * shows a check, or "Copy failed", for a moment.
 */
export function CopyButton({ label, text, class: className }: { label: string; text: () => string; class?: string }) {
  const [state, copy] = useCopy();
  return (
    <button
      type="button"
      class={className ? `ab-icon-btn ${className}` : 'ab-icon-btn'}
      aria-label={state === 'done' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
      title={label}
      onClick={(e) => copy(text(), e.currentTarget)}
    >
      {state === 'done' ? <CheckIcon size={12} /> : <CopyIcon size={12} />}
    </button>
  );
}

/**
 * Folds very long content behind "Show more" (a pasted log, a whole file). Decided from the text,
 * never by measuring: reading the layout of every message would lay out the ones the browser skips
 * (content-visibility) and cost every streamed token in a long chat. Used for the user's own
 * messages: an agent's long answer is what the user is reading.
 */
export function Collapsible({ text, children }: { text: string; children: ComponentChildren }) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > FOLD_ABOVE_CHARS || countLines(text) > FOLD_ABOVE_LINES;
  if (!long) return <>{children}</>;
  return (
    <>
      <div class={expanded ? 'ab-collapsible' : 'ab-collapsible ab-collapsed'}>{children}</div>
      <button type="button" class="ab-show-more" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
        {expanded ? 'Show less' : 'Show more'}
      </button>
    </>
  );
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && n <= FOLD_ABOVE_LINES; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The question a reply answers: the last user message with content before it on the shown branch (approvals are not). */
function findTrigger(messages: readonly Message[], shown: ShownBranch, replyId: string): UserMessage | null {
  for (let i = shown.ids.indexOf(replyId) - 1; i >= 0; i--) {
    const m = messages[shown.at[i]!];
    if (m?.role === 'user' && m.content.some((p) => p.type !== 'tool-approval-response')) return m;
  }
  return null;
}

function isBroken(message: AssistantMessage): boolean {
  return message.status === 'failed' || message.status === 'stopped' || message.status === 'interrupted';
}

/**
 * Whether a reply offers Retry or Regenerate (rendered by `ReplyActions`).
 *
 * @example offersReplyAction({ ...reply, status: 'failed' }, false) // true
 */
export function offersReplyAction(message: AssistantMessage, isLast: boolean): boolean {
  return isLast || isBroken(message);
}

/**
 * Retry (a reply that failed, was stopped or interrupted) and Regenerate (the last reply): the
 * same agent answers the question again, as a new version of its answer (‹ n/m › keeps the others).
 */
export function ReplyActions({ message, chatId, isLast }: { message: AssistantMessage; chatId: string; isLast: boolean }) {
  const { store, actions } = useServices();
  // While the agent works here (its tool call waiting for an answer, say), the last reply is not
  // the end of the turn, and asking again would only be refused.
  const running = useToolbar(selectRunInActiveChat);
  const broken = isBroken(message);
  if (running || (!broken && !isLast)) return null;
  const again = () => {
    const state = store.getState();
    const trigger = findTrigger(selectMessages(state), selectShownBranch(state), message.id);
    if (trigger) void actions.regenerate(chatId, trigger, message.agent);
  };
  return (
    <button
      type="button"
      class={broken ? 'ab-icon-btn ab-msg-btn ab-retry' : 'ab-icon-btn ab-msg-btn'}
      aria-label={broken ? 'Retry' : 'Regenerate'}
      title={`${broken ? 'Retry' : 'Regenerate'}: ask the same agent again, for a new version of this answer`}
      onClick={again}
    >
      <RetryIcon size={13} />
    </button>
  );
}

/** Edit: the message's text goes back into the composer, to change and send as a new version of it. */
export function EditMessage({ message }: { message: UserMessage }) {
  const { store } = useServices();
  const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n');
  if (!text) return null;
  return (
    <button
      type="button"
      class="ab-icon-btn ab-msg-btn"
      aria-label="Edit"
      title="Edit: put this message in the box below, to change and send as a new version of it"
      onClick={(e) => {
        // What was being typed stays, after the message (setting the box's value clears its undo).
        const typed = store.getState().draft;
        store.getState().setDraft(typed.trim() && typed !== text ? `${text}\n\n${typed}` : text);
        store.setState({ editing: message.id });
        focusComposer(e.currentTarget);
      }}
    >
      <PencilIcon size={12} />
    </button>
  );
}

/**
 * ‹ n/m ›: which version of an answer (or of an edited question) shows, with buttons to the
 * previous and next one. Switching also picks what the agent is given next; not while it answers
 * here. Nothing for a message without other versions.
 */
export function VersionSwitcher({ messageId, chatId }: { messageId: string; chatId: string }) {
  const { actions } = useServices();
  const version = useToolbar((s) => selectShownBranch(s).versions.get(messageId));
  const running = useToolbar(selectRunInActiveChat);
  if (!version) return null;
  const { n, siblings } = version;
  const go = (to: number) => void actions.showVersion(chatId, siblings[to - 1]!);
  return (
    // Drawn from attributes, as the time is: the switcher is not part of the message's text.
    <span class="ab-versions" role="group" aria-label={`Version ${n} of ${siblings.length}`}>
      <button type="button" class="ab-icon-btn ab-msg-btn" aria-label="Previous version" title="Previous version" disabled={running || n === 1} onClick={() => go(n - 1)}>
        <ChevronLeftIcon size={13} />
      </button>
      <span class="ab-versions-n" aria-hidden="true" data-label={`${n}/${siblings.length}`} />
      <button type="button" class="ab-icon-btn ab-msg-btn" aria-label="Next version" title="Next version" disabled={running || n === siblings.length} onClick={() => go(n + 1)}>
        <ChevronRightIcon size={13} />
      </button>
    </span>
  );
}

/** Over the box while it holds an edit: sending makes a new version of that message; Cancel sends it as a new one. */
export function EditingNote() {
  const { store } = useServices();
  const editing = useToolbar((s) => s.editing !== null && selectMessages(s).some((m) => m.id === s.editing));
  if (!editing) return null;
  return (
    <div class="ab-queued">
      <span class="ab-queued-text" role="status">
        <b>Editing:</b> Send makes a new version of your message
      </span>
      <button type="button" class="ab-btn" title="Send it as a new message instead" onClick={() => store.setState({ editing: null })}>
        Cancel edit
      </button>
    </div>
  );
}
