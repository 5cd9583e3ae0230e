import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../shared/patch.ts';
import type { ChatInfo, Op, PatchFrame, SnapshotFrame, State } from '../../shared/schemas.ts';
import { StateStore } from './state-store.ts';

function emptyState(): State {
  return { agents: [], chats: {}, activeChatId: null, active: null, run: null };
}

function chatInfo(id: string, title = 'Hel'): ChatInfo {
  return { id, title, createdAt: 1, updatedAt: 1, messageCount: 0 };
}

/** A store whose flushes run only when the test says so, plus every frame it emitted. */
function makeStore(options: { replayFrames?: number; replayBytes?: number } = {}) {
  const queued: (() => void)[] = [];
  const store = new StateStore(emptyState(), { ...options, schedule: (fn) => queued.push(fn) });
  const frames: string[] = [];
  const revs: number[] = [];
  store.subscribe((frame, rev) => {
    frames.push(frame);
    revs.push(rev);
  });
  const tick = () => {
    for (const fn of queued.splice(0)) fn();
  };
  return { revs, store, frames, tick, queued };
}

const parse = (frame: string) => JSON.parse(frame) as PatchFrame;

/** What a client holds after applying the frames to the state it started from. */
function replay(start: State, frames: readonly string[]): State {
  let state = start;
  for (const f of frames) state = applyPatch(state, parse(f).ops as Op[]);
  return state;
}

describe('StateStore.change', () => {
  it('applies ops to the state at once', () => {
    const { store } = makeStore();
    store.change([{ op: 'add', path: '/chats/a', value: chatInfo('a') }]);
    expect(store.state.chats.a?.title).toBe('Hel');
  });

  it('coalesces the ops of one tick into one frame with the next rev', () => {
    const { store, frames, tick, queued } = makeStore();
    store.change([{ op: 'add', path: '/chats/a', value: chatInfo('a') }]);
    store.change([{ op: 'replace', path: '/activeChatId', value: 'a' }]);
    expect(queued).toHaveLength(1);
    expect(frames).toEqual([]);
    tick();
    expect(frames).toHaveLength(1);
    expect(parse(frames[0]!)).toEqual({
      type: 'patch',
      ops: [
        { op: 'add', path: '/chats/a', value: chatInfo('a') },
        { op: 'replace', path: '/activeChatId', value: 'a' },
      ],
    });
    expect(store.rev).toBe(1);
  });

  it('numbers the frames of successive ticks rev + 1, leaving the rev off the wire', () => {
    const { store, frames, revs, tick } = makeStore();
    for (let i = 0; i < 3; i++) {
      store.change([{ op: 'replace', path: '/activeChatId', value: `c${i}` }]);
      tick();
    }
    expect(revs).toEqual([1, 2, 3]);
    expect(frames.map((f) => parse(f).rev)).toEqual([undefined, undefined, undefined]);
    expect(frames[0]).toBe('{"type":"patch","ops":[{"op":"replace","path":"/activeChatId","value":"c0"}]}');
    expect(store.rev).toBe(3);
  });

  it('merges consecutive appends to one path, across calls', () => {
    const { store, frames, tick } = makeStore();
    store.change([{ op: 'add', path: '/chats/a', value: chatInfo('a') }]);
    tick();
    store.change([{ op: 'append', path: '/chats/a/title', value: 'l' }]);
    store.change([
      { op: 'append', path: '/chats/a/title', value: 'o' },
      { op: 'append', path: '/chats/a/title', value: ', world' },
    ]);
    tick();
    expect(parse(frames[1]!).ops).toEqual([{ op: 'append', path: '/chats/a/title', value: 'lo, world' }]);
    expect(store.state.chats.a?.title).toBe('Hello, world');
  });

  it('does not merge appends to different paths', () => {
    const { store, frames, tick } = makeStore();
    store.change([
      { op: 'add', path: '/chats/a', value: chatInfo('a') },
      { op: 'add', path: '/chats/b', value: chatInfo('b') },
    ]);
    tick();
    store.change([
      { op: 'append', path: '/chats/a/title', value: '1' },
      { op: 'append', path: '/chats/b/title', value: '2' },
      { op: 'append', path: '/chats/a/title', value: '3' },
    ]);
    tick();
    expect(parse(frames[1]!).ops).toEqual([
      { op: 'append', path: '/chats/a/title', value: '1' },
      { op: 'append', path: '/chats/b/title', value: '2' },
      { op: 'append', path: '/chats/a/title', value: '3' },
    ]);
  });

  it('keeps the order of appends around other ops to the same path', () => {
    const { store, frames, tick } = makeStore();
    store.change([{ op: 'add', path: '/chats/a', value: chatInfo('a') }]);
    tick();
    store.change([
      { op: 'append', path: '/chats/a/title', value: 'lo' },
      { op: 'replace', path: '/chats/a/title', value: 'New' },
      { op: 'append', path: '/chats/a/title', value: ' title' },
    ]);
    tick();
    expect(parse(frames[1]!).ops).toEqual([
      { op: 'append', path: '/chats/a/title', value: 'lo' },
      { op: 'replace', path: '/chats/a/title', value: 'New' },
      { op: 'append', path: '/chats/a/title', value: ' title' },
    ]);
    expect(store.state.chats.a?.title).toBe('New title');
  });

  it('drops empty appends', () => {
    const { store, frames, tick } = makeStore();
    store.change([{ op: 'add', path: '/chats/a', value: chatInfo('a') }]);
    tick();
    store.change([{ op: 'append', path: '/chats/a/title', value: '' }]);
    tick();
    expect(frames).toHaveLength(1);
    expect(store.rev).toBe(1);
  });

  it('does not double a value that later appends mutate in the same tick', () => {
    const { store, frames, tick } = makeStore();
    const start = emptyState();
    store.change([{ op: 'add', path: '/chats/a', value: chatInfo('a', 'He') }]);
    store.change([{ op: 'append', path: '/chats/a/title', value: 'llo' }]);
    tick();
    expect(parse(frames[0]!).ops).toEqual([
      { op: 'add', path: '/chats/a', value: chatInfo('a', 'He') },
      { op: 'append', path: '/chats/a/title', value: 'llo' },
    ]);
    expect(replay(start, frames).chats.a?.title).toBe('Hello');
  });

  it('lets a client that applies every frame hold exactly the server state', () => {
    const { store, frames, tick } = makeStore();
    const start = emptyState();
    store.change([
      { op: 'add', path: '/chats/a', value: chatInfo('a', '') },
      { op: 'replace', path: '/activeChatId', value: 'a' },
    ]);
    store.change([{ op: 'replace', path: '/active', value: { chatId: 'a', messages: [] } }]);
    for (const piece of ['a', 'b', 'c']) store.change([{ op: 'append', path: '/chats/a/title', value: piece }]);
    tick();
    store.change([{ op: 'remove', path: '/chats/a' }]);
    store.change([{ op: 'add', path: '/chats/b', value: chatInfo('b') }]);
    tick();
    expect(replay(start, frames)).toEqual(store.state);
  });
});

describe('StateStore frames', () => {
  it('serializes each frame once: every listener gets the identical string', () => {
    const { store, frames, tick } = makeStore();
    const other: string[] = [];
    store.subscribe((frame) => other.push(frame));
    store.change([{ op: 'replace', path: '/activeChatId', value: 'x' }]);
    tick();
    expect(other).toHaveLength(1);
    expect(Object.is(other[0], frames[0])).toBe(true);
    expect(store.framesSince(0)![0]).toBe(frames[0]);
  });

  it('gives the rev to listeners', () => {
    const { store, tick } = makeStore();
    const revs: number[] = [];
    store.subscribe((_frame, rev) => revs.push(rev));
    store.change([{ op: 'replace', path: '/activeChatId', value: 'x' }]);
    tick();
    expect(revs).toEqual([1]);
  });

  it('stops calling a listener once it unsubscribed', () => {
    const { store, frames, tick } = makeStore();
    const other: string[] = [];
    const unsubscribe = store.subscribe((frame) => other.push(frame));
    unsubscribe();
    store.change([{ op: 'replace', path: '/activeChatId', value: 'x' }]);
    tick();
    expect(frames).toHaveLength(1);
    expect(other).toEqual([]);
  });

  it('emits nothing and keeps the rev when flushed with nothing pending', () => {
    const { store, frames } = makeStore();
    store.flush();
    store.flush();
    expect(frames).toEqual([]);
    expect(store.rev).toBe(0);
  });

  it('flushes on demand before the scheduled flush, which then emits nothing', () => {
    const { store, frames, tick } = makeStore();
    store.change([{ op: 'replace', path: '/activeChatId', value: 'x' }]);
    store.flush();
    expect(frames).toHaveLength(1);
    tick();
    expect(frames).toHaveLength(1);
    expect(store.rev).toBe(1);
  });

  it('schedules again after a flush', () => {
    const { store, frames, revs, tick, queued } = makeStore();
    store.change([{ op: 'replace', path: '/activeChatId', value: 'x' }]);
    tick();
    store.change([{ op: 'replace', path: '/activeChatId', value: 'y' }]);
    expect(queued).toHaveLength(1);
    tick();
    expect(revs).toEqual([1, 2]);
    expect(frames).toHaveLength(2);
  });

  it('flushes at the end of the tick by default', async () => {
    const store = new StateStore(emptyState());
    const frames: string[] = [];
    store.subscribe((frame) => frames.push(frame));
    store.change([{ op: 'replace', path: '/activeChatId', value: 'x' }]);
    expect(frames).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toHaveLength(1);
  });
});

describe('StateStore.snapshotFrame', () => {
  it('holds the current state and rev, pending ops included', () => {
    const { store, frames } = makeStore();
    store.change([{ op: 'add', path: '/chats/a', value: chatInfo('a') }]);
    const snapshot = JSON.parse(store.snapshotFrame()) as SnapshotFrame;
    expect(snapshot).toEqual({ type: 'snapshot', rev: 1, state: store.state });
    // The pending ops went out first, so a client's rev and the patches agree.
    expect(frames).toHaveLength(1);
  });

  it('is serialized once per rev', () => {
    const { store, tick } = makeStore();
    const first = store.snapshotFrame();
    expect(store.snapshotFrame()).toBe(first);
    store.change([{ op: 'replace', path: '/activeChatId', value: 'x' }]);
    tick();
    const second = store.snapshotFrame();
    expect(second).not.toBe(first);
    expect(JSON.parse(second).rev).toBe(1);
    expect(store.snapshotFrame()).toBe(second);
  });

  it('starts at rev 0', () => {
    const { store } = makeStore();
    expect(JSON.parse(store.snapshotFrame())).toEqual({ type: 'snapshot', rev: 0, state: emptyState() });
  });
});

describe('StateStore.framesSince', () => {
  function withRevs(count: number, options: { replayFrames?: number } = {}) {
    const made = makeStore(options);
    for (let i = 1; i <= count; i++) {
      made.store.change([{ op: 'replace', path: '/activeChatId', value: `c${i}` }]);
      made.tick();
    }
    return made;
  }

  it('returns no frames for the current rev', () => {
    expect(withRevs(3).store.framesSince(3)).toEqual([]);
  });

  it('returns the frames after a rev still in the buffer', () => {
    const { store, frames } = withRevs(5);
    expect(store.framesSince(2)).toEqual(frames.slice(2));
  });

  it('includes ops not yet flushed', () => {
    const { store, frames } = withRevs(2);
    store.change([{ op: 'replace', path: '/activeChatId', value: 'late' }]);
    const missed = store.framesSince(2)!;
    expect(missed).toHaveLength(1);
    expect(parse(missed[0]!).ops).toEqual([{ op: 'replace', path: '/activeChatId', value: 'late' }]);
    expect(frames).toHaveLength(3);
  });

  it('returns null once the frames after that rev expired', () => {
    const { store, frames } = withRevs(6, { replayFrames: 3 });
    expect(store.framesSince(3)).toEqual(frames.slice(3));
    expect(store.framesSince(2)).toBeNull();
    expect(store.replaySize.frames).toBe(3);
  });

  it('returns null for a rev from the future', () => {
    expect(withRevs(2).store.framesSince(9)).toBeNull();
  });

  it('lets a resumed client reach the server state', () => {
    const { store } = withRevs(4);
    const snapshotAt2 = withRevs(2).store.state;
    expect(replay(structuredClone(snapshotAt2), store.framesSince(2)!)).toEqual(store.state);
  });
});

describe('StateStore frame rate', () => {
  it('merges deltas that come faster than one frame per 4 ms into one frame, and sends a slower one at the end of its tick', async () => {
    const { vi } = await import('vitest');
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
    try {
      const store = new StateStore({ ...emptyState(), chats: { a: chatInfo('a') } });
      const frames: string[] = [];
      store.subscribe((f) => frames.push(f));
      const append = (value: string) => store.change([{ op: 'append', path: '/chats/a/title', value }]);

      append('l');
      vi.advanceTimersToNextTimer(); // the end of the tick
      expect(frames.map((f) => parse(f).ops)).toEqual([[{ op: 'append', path: '/chats/a/title', value: 'l' }]]);

      // One delta per turn, right after a frame: held until 4 ms have passed, then sent together.
      for (const c of ['o', ' ', '!']) {
        append(c);
        vi.advanceTimersByTime(1);
      }
      expect(frames).toHaveLength(1);
      vi.advanceTimersByTime(2);
      expect(frames).toHaveLength(2);
      expect(parse(frames[1]!).ops).toEqual([{ op: 'append', path: '/chats/a/title', value: 'o !' }]);

      // A paced delta (10 ms later) goes out at the end of its own tick.
      vi.advanceTimersByTime(10);
      append('?');
      vi.advanceTimersToNextTimer();
      expect(frames).toHaveLength(3);
      expect(store.state.chats.a!.title).toBe('Hello !?');
    } finally {
      vi.useRealTimers();
    }
  });
});
