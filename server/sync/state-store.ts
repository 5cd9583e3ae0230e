/**
 * The server's state document and its change log. Every change is recorded as ops; the ops of one
 * tick are coalesced into one `patch` frame with the next rev, consecutive appends to one path are
 * merged, and each frame is serialized once for every client (PROTOCOL §3).
 */
import { makeId } from '../../shared/ids.ts';
import { applyPatchInPlace } from '../../shared/patch.ts';
import type { Op, State } from '../../shared/schemas.ts';
import { OpBuffer } from './op-buffer.ts';
import { ReplayBuffer } from './replay-buffer.ts';

export type FrameListener = (frame: string, rev: number) => void;

export interface StateStoreOptions {
  replayFrames?: number;
  replayBytes?: number;
  /** Defers a flush to the end of the tick; tests may flush by hand. */
  schedule?: (fn: () => void) => void;
  /**
   * Frames go out at most this often (ms). An agent that yields one delta per event-loop turn would
   * otherwise cost a frame per delta per client; paced streams (deltas 10 ms apart) are not delayed.
   * Default 4, or 0 when a custom `schedule` is given.
   */
  minFrameIntervalMs?: number;
}

export class StateStore {
  readonly session = makeId('s');
  private _state: State;
  private _rev = 0;
  /** Ops of this tick; non-append ops are serialized as they happen, so later mutations of the state cannot leak into them. */
  private readonly pending = new OpBuffer();
  private scheduled = false;
  private readonly replay: ReplayBuffer;
  private readonly listeners = new Set<FrameListener>();
  private snapshotCache: { rev: number; frame: string } | null = null;
  private readonly schedule: (fn: () => void) => void;
  private readonly minFrameIntervalMs: number;
  private lastFrameAt = -Infinity;

  constructor(initial: State, options: StateStoreOptions = {}) {
    this._state = initial;
    this.replay = new ReplayBuffer(options.replayFrames, options.replayBytes);
    this.schedule = options.schedule ?? ((fn) => setImmediate(fn));
    this.minFrameIntervalMs = options.minFrameIntervalMs ?? (options.schedule ? 0 : 4);
  }

  /** The live document. Read it freely; change it only through `change`. */
  get state(): State {
    return this._state;
  }

  get rev(): number {
    return this._rev;
  }

  /**
   * Applies ops to the state now and queues them for the next frame.
   *
   * @example store.change([{ op: 'replace', path: '/run', value: null }]);
   */
  change(ops: readonly Op[]): void {
    if (ops.length === 0) return;
    this.pending.record(ops);
    this._state = applyPatchInPlace(this._state, ops);
    if (!this.scheduled) {
      this.scheduled = true;
      const wait = this.lastFrameAt + this.minFrameIntervalMs - performance.now();
      if (wait > 0) setTimeout(() => this.flush(), wait);
      else this.schedule(() => this.flush());
    }
  }

  /** Emits the queued ops as one patch frame now. Called before a result so patches precede it. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.isEmpty) return;
    const ops = this.pending.take();
    this.lastFrameAt = performance.now();
    const rev = ++this._rev;
    // No rev: it is the previous one + 1 (PROTOCOL §3), and it cost 3.4 of the 14 deflated bytes of
    // a paced delta. Every client's first patch follows a snapshot or a resume point of known rev.
    const frame = `{"type":"patch","ops":[${ops}]}`;
    this.replay.push(rev, frame);
    for (const listener of this.listeners) listener(frame, rev);
  }

  /** The snapshot frame of the current state, serialized at most once per rev. */
  snapshotFrame(): string {
    this.flush();
    if (this.snapshotCache?.rev !== this._rev) {
      this.snapshotCache = { rev: this._rev, frame: JSON.stringify({ type: 'snapshot', rev: this._rev, state: this._state }) };
    }
    return this.snapshotCache.frame;
  }

  /** Patch frames after `rev`, or null when the client must take a snapshot. */
  framesSince(rev: number): string[] | null {
    this.flush();
    return this.replay.since(rev, this._rev);
  }

  subscribe(listener: FrameListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get replaySize(): { frames: number; bytes: number } {
    return this.replay.size;
  }
}
