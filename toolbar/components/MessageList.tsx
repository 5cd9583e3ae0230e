import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useToolbar } from '../context.ts';
import { selectActiveChatId, selectMessages } from '../selectors.ts';
import { ArrowDownIcon } from './icons.tsx';
import { MessageView } from './MessageView.tsx';

/** Within this many px of the bottom the list counts as "at the end" and follows new text. */
const STICK_THRESHOLD = 48;

function WorkingIndicator() {
  const run = useToolbar((s) => s.sync.state?.run ?? null);
  const activeChatId = useToolbar(selectActiveChatId);
  // Between steps (messageId null) nothing streams: say the agent is still busy.
  if (!run || run.chatId !== activeChatId || run.messageId !== null) return null;
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
  const [detached, setDetached] = useState(false);

  const scrollToEnd = () => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_THRESHOLD;
    stick.current = atEnd;
    if (detached === atEnd) setDetached(!atEnd);
  };

  // A new chat opens at its end.
  useLayoutEffect(() => {
    stick.current = true;
    setDetached(false);
    scrollToEnd();
  }, [chatId]);

  useLayoutEffect(() => {
    if (stick.current) scrollToEnd();
  }, [messages]);

  // Content also grows without a new render: images decoding, details opening, fonts loading.
  useEffect(() => {
    const target = inner.current;
    if (!target || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stick.current) scrollToEnd();
    });
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
            messages.map((m) => <MessageView key={m.id} message={m} chatId={chatId ?? ''} />)
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
