import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Message } from '../../shared/schemas.ts';
import { useToolbar } from '../context.ts';
import { countAwaitingApproval, selectActiveChatId, selectMessages } from '../selectors.ts';
import { ArrowDownIcon } from './icons.tsx';
import { memo } from './memo.ts';
import { MessageView } from './MessageView.tsx';

/** Within this many px of the bottom the list counts as "at the end" and follows new text. */
const STICK_THRESHOLD = 48;

/**
 * Messages per memoized group. A streaming patch replaces one message (the last), so the list
 * renders N / GROUP_SIZE group elements and the GROUP_SIZE message elements of one group,
 * instead of N message elements. Groups sit at fixed indexes: a message never moves to another
 * group as the chat grows, so its DOM (focus, open details, a half-typed reason) stays mounted.
 */
const GROUP_SIZE = 40;

interface GroupProps {
  messages: readonly Message[];
  /** The group's messages are `messages[start..end)`. */
  start: number;
  end: number;
  chatId: string;
}

/** Same messages (by identity, which structural sharing keeps exact) in the same range. */
function isSameGroup(prev: GroupProps, next: GroupProps): boolean {
  if (prev.chatId !== next.chatId || prev.start !== next.start || prev.end !== next.end) return false;
  // The group that held the last message must render again when it no longer does (isLast).
  if ((prev.end === prev.messages.length) !== (next.end === next.messages.length)) return false;
  if (prev.messages === next.messages) return true;
  for (let i = prev.start; i < prev.end; i++) if (prev.messages[i] !== next.messages[i]) return false;
  return true;
}

const MessageGroup = memo(function MessageGroup({ messages, start, end, chatId }: GroupProps) {
  const views: VNode[] = [];
  for (let i = start; i < end; i++) {
    const m = messages[i]!;
    // Only the chat's last message knows it is last (it offers Regenerate): one prop, no subscription per message.
    views.push(<MessageView key={m.id} message={m} chatId={chatId} isLast={i === messages.length - 1} />);
  }
  return <>{views}</>;
}, isSameGroup);

function renderGroups(messages: readonly Message[], chatId: string): VNode[] {
  const groups: VNode[] = [];
  for (let start = 0; start < messages.length; start += GROUP_SIZE) {
    const end = Math.min(start + GROUP_SIZE, messages.length);
    groups.push(<MessageGroup key={start} messages={messages} start={start} end={end} chatId={chatId} />);
  }
  return groups;
}

function WorkingIndicator() {
  const run = useToolbar((s) => s.sync.state?.run ?? null);
  const activeChatId = useToolbar(selectActiveChatId);
  const awaiting = useToolbar((s) => countAwaitingApproval(selectMessages(s)) > 0);
  // Between steps (messageId null) nothing streams: say the agent is still busy.
  if (!run || run.chatId !== activeChatId || run.messageId !== null) return null;
  if (awaiting) return <div class="ab-working">{run.agent} is waiting for your approval</div>;
  return (
    <div class="ab-working">
      <span class="ab-typing" aria-hidden="true">
        <i />
        <i />
        <i />
      </span>
      {run.agent} is working…
    </div>
  );
}

/**
 * The active chat's messages. Follows new content while the developer is at the end, and stops
 * following once they scroll up (a button brings them back).
 */
export function MessageList() {
  const messages = useToolbar(selectMessages);
  const chatId = useToolbar(selectActiveChatId);
  const hasChats = useToolbar((s) => Object.keys(s.sync.state?.chats ?? {}).length > 0);
  const scroller = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /** Where the list last scrolled itself to the end. */
  const autoTop = useRef<number | null>(null);
  const [detached, setDetached] = useState(false);

  const scrollToEnd = () => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    autoTop.current = el.scrollTop;
  };

  // Any move up from where the list put itself, even a few px: a smooth (keyboard) scroll starts
  // small, and its scroll event can come after the next streamed patch, which must not undo it.
  const movedUp = (el: HTMLElement) =>
    autoTop.current !== null && el.scrollTop < autoTop.current - 1 && el.scrollHeight - el.scrollTop - el.clientHeight > 1;

  const follow = () => {
    const el = scroller.current;
    if (!el || !stick.current) return;
    if (movedUp(el)) {
      stick.current = false;
      setDetached(true);
    } else scrollToEnd();
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atEnd = stick.current ? !movedUp(el) : el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_THRESHOLD;
    // Back near the end: follow from here on.
    if (atEnd && !stick.current) autoTop.current = el.scrollTop;
    stick.current = atEnd;
    if (detached === atEnd) setDetached(!atEnd);
  };

  // A new chat opens at its end.
  useLayoutEffect(() => {
    stick.current = true;
    setDetached(false);
    scrollToEnd();
  }, [chatId]);

  useLayoutEffect(follow, [messages]);

  // Sending is a clear sign of wanting the end, wherever the list was scrolled to.
  const sending = useToolbar((s) => s.sending);
  useLayoutEffect(() => {
    if (!sending) return;
    stick.current = true;
    setDetached(false);
    scrollToEnd();
  }, [sending]);

  // Content also grows without a new render: images decoding, details opening, fonts loading.
  useEffect(() => {
    const target = inner.current;
    if (!target || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(follow);
    observer.observe(target);
    return () => observer.disconnect();
  }, []);

  return (
    <div class="ab-log-wrap">
      <div class="ab-log" ref={scroller} role="log" aria-label="Messages" tabIndex={0} onScroll={onScroll}>
        <div class="ab-log-inner" ref={inner}>
          {messages.length === 0 ? (
            <div class="ab-empty">
              <strong>{chatId ? 'No messages yet' : hasChats ? 'No chat selected' : 'Start a conversation'}</strong>
              Ask the agent about this page. Pick elements to show it what you mean.
            </div>
          ) : (
            renderGroups(messages, chatId ?? '')
          )}
          <WorkingIndicator />
        </div>
      </div>
      {detached ? (
        <button
          type="button"
          class="ab-jump"
          aria-label="Scroll to latest"
          onClick={() => {
            stick.current = true;
            setDetached(false);
            scrollToEnd();
          }}
        >
          <ArrowDownIcon size={13} /> Latest
        </button>
      ) : null}
    </div>
  );
}
