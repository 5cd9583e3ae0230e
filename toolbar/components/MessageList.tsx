import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useServices, useToolbar } from '../context.ts';
import { createMessageHub, type MessageHub } from '../message-hub.ts';
import { countAwaitingApproval, selectActiveChatId, selectMessages, selectShownBranch, type ShownBranch } from '../selectors.ts';
import { EmptyChat } from './EmptyChat.tsx';
import { ArrowDownIcon } from './icons.tsx';
import { memo } from './memo.ts';
import { MessageView } from './MessageView.tsx';
import { formatCount } from '../formatters.ts';
import { useMessageAt } from '../use-store.ts';
import { useWheelQuiet } from './use-wheel-quiet.ts';

/** Keys that scroll the log when it (or something in it) has focus. */
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ', 'Tab']);

/** Whether a key smooth-scrolls up. (Not Shift+Tab: the focus it moves scrolls at once, if at all.) */
const isUpKey = (e: KeyboardEvent) => e.key === 'ArrowUp' || e.key === 'PageUp' || e.key === 'Home' || (e.shiftKey && e.key === ' ');

/** Whether something between `target` and the log scrolls up first (a code block scrolled down). */
const isInnerScrolledDown = (target: EventTarget | null, log: HTMLElement) => {
  for (let el = target instanceof Element ? target : null; el && el !== log; el = el.parentElement) {
    if (el.scrollTop > 0) return true;
  }
  return false;
};

/** A field in a message (the reason for a rejection) keeps its keys: they move its caret, not the list. */
const isField = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || target.matches('input, textarea, select'));

/** How long after the user's last wheel, touch or key a move of the list counts as theirs. */
const USER_SCROLL_MS = 1_000;
/**
 * How long a request to go up (Home, Page Up, the wheel up…) waits for the list's first scroll,
 * at most. A busy page (a long task, a loaded machine) can start the browser's smooth scroll more
 * than USER_SCROLL_MS after the key. Its first small steps, near the end, were then taken for
 * layout moving the list, and following the stream meanwhile pulled the list back under the
 * animation: Home did nothing while a reply streamed.
 */
const UP_PENDING_MS = 5_000;

/** Within this many px of the bottom the list counts as "at the end" and follows new text. */
const STICK_THRESHOLD = 48;

/**
 * The latest messages rendered when a chat opens (at least; the window starts on a group
 * boundary). Every message in the DOM costs layout and paint work on each streamed delta, even
 * off-screen, so a long chat renders its end and loads earlier messages when the user scrolls up
 * to them (or asks with the button).
 */
const WINDOW = 60;
/** Messages added to the window each time the user reaches its top. */
const WINDOW_STEP = 80;
/**
 * Messages rendered per frame while the window grows by WINDOW_STEP: each costs its Markdown, DOM
 * and style, and a whole step in one task held the main thread past 50 ms (a hitch). One group, so
 * each batch adds a whole group and the groups keep their indexes.
 */
const EARLIER_BATCH = 10;
/** Within this many px of the top of the window, scrolling up loads more. */
const LOAD_THRESHOLD = 400;

/**
 * Messages per memoized group. When messages come or go, the list renders N / GROUP_SIZE group
 * elements and the GROUP_SIZE message slots of the groups that changed, instead of N slots.
 * Groups sit at fixed indexes: a message never moves to another group as the chat grows, so its
 * DOM (focus, open details, a half-typed reason) stays mounted. Small, because the group that
 * holds the last message is the one the browser checks message by message on every frame of a
 * stream (see MessageGroup); every earlier group is one box.
 */
const GROUP_SIZE = 10;

interface GroupProps {
  ids: readonly string[];
  /** Where each of `ids` is in the chat's messages (fixed for an id: messages are only appended). */
  at: readonly number[];
  /** The group's messages are `ids[start..end)`. */
  start: number;
  end: number;
  chatId: string;
  hub: MessageHub;
}

/** Same message ids in the same range. */
function isSameGroup(prev: GroupProps, next: GroupProps): boolean {
  if (prev.chatId !== next.chatId || prev.hub !== next.hub || prev.start !== next.start || prev.end !== next.end) return false;
  // The group that held the last message must render again when it no longer does (isLast).
  if ((prev.end === prev.ids.length) !== (next.end === next.ids.length)) return false;
  if (prev.ids === next.ids) return true;
  for (let i = prev.start; i < prev.end; i++) if (prev.ids[i] !== next.ids[i]) return false;
  return true;
}

/**
 * One message, watched by its index: a streamed delta replaces one message, and only its slot
 * renders again, not the list, its groups or its other messages.
 */
function MessageSlot({ id, index, chatId, isLast, hub }: { id: string; index: number; chatId: string; isLast: boolean; hub: MessageHub }) {
  const message = useMessageAt(hub, index, id);
  // Only the chat's last message knows it is last (it offers Regenerate).
  return message ? <MessageView message={message} chatId={chatId} isLast={isLast} /> : null;
}

/**
 * A group is a box of its own. Once the chat has moved past it (the last message is in a later
 * group), it is "settled": while off screen the browser skips it whole, one box to check per
 * frame of a stream instead of one per message (styles: .ab-msg-group.ab-settled).
 */
const MessageGroup = memo(function MessageGroup({ ids, at, start, end, chatId, hub }: GroupProps) {
  const slots: VNode[] = [];
  for (let i = start; i < end; i++) {
    slots.push(<MessageSlot key={ids[i]} id={ids[i]!} index={at[i]!} chatId={chatId} isLast={i === ids.length - 1} hub={hub} />);
  }
  const settled = end < ids.length;
  return (
    <div class={settled ? 'ab-msg-group ab-settled' : 'ab-msg-group'}>
      {slots}
    </div>
  );
}, isSameGroup);

function renderGroups({ ids, at }: ShownBranch, chatId: string, first: number, hub: MessageHub): VNode[] {
  const groups: VNode[] = [];
  for (let start = first; start < ids.length; start += GROUP_SIZE) {
    const end = Math.min(start + GROUP_SIZE, ids.length);
    groups.push(<MessageGroup key={start} ids={ids} at={at} start={start} end={end} chatId={chatId} hub={hub} />);
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
 * following once they scroll up (a button brings them back). The browser also moves scrollTop by
 * itself (late layout under content-visibility, scroll anchoring, the composer or a notice
 * changing the list's height), and taking that for the user stopped the list following the
 * stream: so a move up counts as the user's when their own scrolling (wheel, touch, keys, the
 * scrollbar) is behind it, or when nothing changed size since the list last scrolled to the end,
 * which layout cannot do (find in page, a screen reader, a script bringing a message into view).
 * A long chat renders only its latest messages (WINDOW) until the user scrolls up to earlier ones.
 */
export function MessageList() {
  // Ids, not messages: a streamed delta changes a message, not the list (MessageSlot renders it).
  // Of the shown branch only: the other versions of an answer wait behind its ‹ n/m ›.
  const { store } = useServices();
  // One store subscription for all message slots (message-hub.ts).
  const hub = useMemo(() => createMessageHub(store, selectMessages), [store]);
  const branch = useToolbar(selectShownBranch);
  const ids = branch.ids;
  const chatId = useToolbar(selectActiveChatId);
  const hasChats = useToolbar((s) => Object.keys(s.sync.state?.chats ?? {}).length > 0);
  const scroller = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  useWheelQuiet(scroller);
  const stick = useRef(true);
  /** Where the list last scrolled itself to the end. */
  const autoTop = useRef<number | null>(null);
  /** The list's content and visible heights then. */
  const autoSize = useRef({ content: 0, visible: 0 });
  const [detached, setDetached] = useState(false);
  /** How many of the latest messages to render, at least. */
  const [shown, setShown] = useState(WINDOW);
  /** The first rendered message and its distance from the list's top before earlier ones are added above it. */
  const anchor = useRef<{ node: Element; offset: number; refocus: boolean } | null>(null);
  // On a group boundary, so groups keep their indexes (and their memo) as the chat grows.
  const first = ids.length <= shown ? 0 : Math.floor((ids.length - shown) / GROUP_SIZE) * GROUP_SIZE;

  /** When the user last did something that scrolls or moves focus in the list. */
  const userScrolledAt = useRef(0);
  /** When the user last asked to go up, until the list's next scroll (0 when nothing waits). */
  const upAskedAt = useRef(0);
  const upIsPending = () => upAskedAt.current !== 0 && Date.now() - upAskedAt.current < UP_PENDING_MS;
  const userIsScrolling = () => Date.now() - userScrolledAt.current < USER_SCROLL_MS || upIsPending();
  const noteUserScroll = (up = false, target: EventTarget | null = null) => {
    userScrolledAt.current = Date.now();
    const el = scroller.current;
    // The wait ends with the list's move up, so none is started where no such move will come:
    // at the top, or when a code block in a message takes the scroll.
    if (up && el && el.scrollTop > 0 && !isInnerScrolledDown(target, el)) upAskedAt.current = userScrolledAt.current;
  };

  const scrollToEnd = () => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    autoTop.current = el.scrollTop;
    autoSize.current = { content: el.scrollHeight, visible: el.clientHeight };
  };

  /** Layout moves scrollTop only when something changes size (anchoring, clamping). */
  const resizedSinceEnd = (el: HTMLElement) => el.scrollHeight !== autoSize.current.content || el.clientHeight !== autoSize.current.visible;

  // Any move up from where the list put itself, even a few px: a smooth (keyboard) scroll starts
  // small, and its scroll event can come after the next streamed patch, which must not undo it.
  const movedUp = (el: HTMLElement) =>
    autoTop.current !== null && el.scrollTop < autoTop.current - 1 && el.scrollHeight - el.scrollTop - el.clientHeight > 1;

  /** A scroll to the end waiting for the next frame (null when none is). */
  const pendingFrame = useRef<number | null>(null);

  // Messages come or go (the ids changed): scroll in the next frame, where layout is read anyway,
  // rather than forcing a layout in the render. Streamed growth is followed by the ResizeObserver.
  const follow = () => {
    if (!stick.current || pendingFrame.current !== null) return;
    if (typeof requestAnimationFrame === 'undefined') return followNow();
    pendingFrame.current = requestAnimationFrame(() => {
      pendingFrame.current = null;
      followNow();
    });
  };

  const followNow = () => {
    const el = scroller.current;
    if (!el || !stick.current) return;
    if (userIsScrolling() && movedUp(el)) {
      stick.current = false;
      setDetached(true);
    } else if (!upIsPending()) scrollToEnd();
    // (Else the user's scroll up has not started: following now would pull the list out from under it.)
  };

  /** How many messages the window grows to, EARLIER_BATCH per frame (reached once that many are rendered). */
  const goal = useRef(0);
  /** The frame that renders the next batch (null when none waits). */
  const batchFrame = useRef<number | null>(null);
  /** This render's messages and first rendered index, for the batches rendered in later frames. */
  const rendered = useRef({ count: 0, first: 0 });
  rendered.current = { count: ids.length - first, first };

  /** Renders the next batch of earlier messages above, keeping the first one shown in place. */
  const addBatch = () => {
    batchFrame.current = null;
    const el = scroller.current;
    const node = inner.current?.querySelector('.ab-msg');
    const { count, first: at } = rendered.current;
    if (!el || !node || at === 0 || anchor.current || goal.current <= count) return el?.removeAttribute('aria-busy');
    const focused = (el.getRootNode() as ShadowRoot | Document).activeElement;
    anchor.current = { node, offset: node.getBoundingClientRect().top - el.getBoundingClientRect().top, refocus: !!focused?.classList.contains('ab-earlier') };
    setShown(Math.min(goal.current, count + EARLIER_BATCH));
  };

  /**
   * Grows the window by WINDOW_STEP, a batch per frame. Batches render in animation frames only: a
   * frame requested from a scroll event runs in that same frame, one requested from a frame's
   * callback in the next, so no frame renders two.
   */
  const showEarlier = () => {
    if (first === 0) return;
    goal.current = Math.max(goal.current, ids.length - first + WINDOW_STEP);
    if (batchFrame.current !== null || anchor.current) return;
    // Busy until the step is in (the attribute is not Preact's: no render to set or clear it).
    scroller.current?.setAttribute('aria-busy', 'true');
    if (typeof requestAnimationFrame === 'undefined') return addBatch();
    batchFrame.current = requestAnimationFrame(addBatch);
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    // The scroll up the user asked for has started: it is theirs from here, however late it came.
    // (Not any scroll: the event of the list's own last move to the end can come after the key.)
    if (upIsPending() && (movedUp(el) || !stick.current)) {
      upAskedAt.current = 0;
      userScrolledAt.current = Date.now();
    }
    // A move the browser made keeps following (see above): one that comes with a change in size,
    // or one that stays near the end (as near as counts as the end when scrolling back down: a
    // script bringing the last message's actions fully into view is not leaving the stream).
    // Any other move up that no hand made is find in page, a screen reader or a script taking
    // the user to an earlier message, and it stays. (One that lands in the very frame where a
    // streaming reply starts a new line is taken for the browser's and undone.)
    const nearEnd = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_THRESHOLD;
    if (stick.current && movedUp(el) && !userIsScrolling() && (resizedSinceEnd(el) || nearEnd)) {
      scrollToEnd();
      return;
    }
    const atEnd = stick.current ? !movedUp(el) : nearEnd;
    // Back near the end: follow from here on.
    if (atEnd && !stick.current) autoTop.current = el.scrollTop;
    stick.current = atEnd;
    if (detached === atEnd) setDetached(!atEnd);
    if (!atEnd && el.scrollTop < LOAD_THRESHOLD && userIsScrolling()) showEarlier();
  };

  /** Back to the end with only the latest messages rendered (sending, "Latest", another chat). */
  const returnToEnd = () => {
    stick.current = true;
    // Asking for the end ends the user's scroll: the browser then laying out the messages it
    // skipped up there moves scrollTop, and that must not count as scrolling away again.
    userScrolledAt.current = 0;
    upAskedAt.current = 0;
    setDetached(false);
    goal.current = 0;
    if (batchFrame.current !== null) cancelAnimationFrame(batchFrame.current);
    batchFrame.current = null;
    scroller.current?.removeAttribute('aria-busy');
    setShown(WINDOW);
    scrollToEnd();
  };

  // Earlier messages went in above: the same content stays under the user's eyes. Checked again
  // for a few frames, as messages laid out late (content-visibility) change heights above it;
  // browsers with scroll anchoring do this too, and the check then finds nothing to correct.
  useLayoutEffect(() => {
    const el = scroller.current;
    const was = anchor.current;
    anchor.current = null;
    if (!el || !was) return;
    if (!was.node.isConnected) return el.removeAttribute('aria-busy');
    // The button is gone once every message is shown: keep the keyboard user in the list.
    if (was.refocus && !el.querySelector('.ab-earlier')) el.focus({ preventScroll: true });
    const keep = () => {
      const drift = was.node.getBoundingClientRect().top - el.getBoundingClientRect().top - was.offset;
      if (Math.abs(drift) >= 1) el.scrollTop += drift;
      return el.scrollTop;
    };
    let expected = keep();
    let frames = 3;
    const check = () => {
      // The user scrolled meanwhile (or the message is gone): their scroll wins.
      if (!was.node.isConnected || Math.abs(el.scrollTop - expected) > 1 || frames-- === 0) return;
      expected = keep();
      requestAnimationFrame(check);
    };
    if (typeof requestAnimationFrame === 'undefined') return;
    requestAnimationFrame(check);
    // The next batch in the next frame, while the window has not reached its goal.
    if (first > 0 && goal.current > ids.length - first) batchFrame.current = requestAnimationFrame(addBatch);
    else el.removeAttribute('aria-busy');
  }, [first]);

  // A new chat opens at its end.
  useLayoutEffect(returnToEnd, [chatId]);

  useLayoutEffect(follow, [ids]);

  // Sending is a clear sign of wanting the end, wherever the list was scrolled to.
  const sending = useToolbar((s) => s.sending);
  useLayoutEffect(() => {
    if (sending) returnToEnd();
  }, [sending]);

  // Passive listeners, not onWheel/onTouchMove (which Preact adds as blocking ones): with a blocking
  // listener the browser waits for the main thread, busy with the stream, before each wheel or touch
  // scroll of the list. (Only refs are read, so the first render's noteUserScroll stays right.)
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => noteUserScroll(e.deltaY < 0, e.target);
    const onTouchMove = () => noteUserScroll();
    el.addEventListener('wheel', onWheel, { passive: true });
    el.addEventListener('touchmove', onTouchMove, { passive: true });
    return () => {
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('touchmove', onTouchMove);
    };
  }, []);

  // Content grows without the list rendering again: a streaming message (MessageSlot), images
  // decoding, details opening, fonts loading. The observer runs in the frame, after layout and
  // before paint, so scrolling there reads no stale layout and shows the new text in that frame.
  // The list itself is watched too: a composer growing by a line, or a smaller panel or window,
  // shortens it from the bottom and would hide the end of the last reply.
  useEffect(() => {
    const target = inner.current;
    const list = scroller.current;
    if (!target || !list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => followNow());
    observer.observe(target);
    observer.observe(list);
    return () => {
      observer.disconnect();
      if (pendingFrame.current !== null) cancelAnimationFrame(pendingFrame.current);
    };
  }, []);

  return (
    <div class="ab-log-wrap">
      <div
        class="ab-log"
        ref={scroller}
        role="log"
        aria-label="Messages"
        tabIndex={0}
        onScroll={onScroll}
        // Only a press on the log itself (its scrollbar) scrolls. A click on a button in a message,
        // and the focus it moves, do not: the stream must keep following after Approve.
        onPointerDown={(e) => {
          if (e.target === e.currentTarget) noteUserScroll();
        }}
        onKeyDown={(e) => {
          // (Tab leaves a field, and the focus it moves may scroll.)
          if (SCROLL_KEYS.has(e.key) && (e.key === 'Tab' || !isField(e.target))) noteUserScroll(isUpKey(e), e.target);
        }}
      >
        <div class="ab-log-inner" ref={inner}>
          {first > 0 ? (
            <button type="button" class="ab-earlier" onClick={showEarlier}>
              Show earlier messages ({formatCount(first)} more)
            </button>
          ) : null}
          {ids.length === 0 ? (
            <EmptyChat title={chatId ? 'No messages yet' : hasChats ? 'No chat selected' : 'Start a conversation'} />
          ) : (
            renderGroups(branch, chatId ?? '', first, hub)
          )}
          <WorkingIndicator />
        </div>
      </div>
      {detached ? (
        <button
          type="button"
          class="ab-jump"
          aria-label="Scroll to latest"
          onClick={returnToEnd}
        >
          <ArrowDownIcon size={13} /> Latest
        </button>
      ) : null}
    </div>
  );
}
