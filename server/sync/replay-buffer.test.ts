import { describe, expect, it } from 'vitest';
import { ReplayBuffer } from './replay-buffer.ts';

/** A patch-like frame for `rev`, `extra` characters longer than the bare one. */
const frame = (rev: number, extra = 0) => `{"rev":${rev}${' '.repeat(extra)}}`;

function filled(count: number, maxFrames?: number, maxBytes?: number): ReplayBuffer {
  const buffer = new ReplayBuffer(maxFrames, maxBytes);
  for (let rev = 1; rev <= count; rev++) buffer.push(rev, frame(rev));
  return buffer;
}

describe('ReplayBuffer.since', () => {
  it('returns nothing to a client that is up to date', () => {
    expect(filled(5).since(5, 5)).toEqual([]);
  });

  it('returns the missed frames in order', () => {
    expect(filled(5).since(2, 5)).toEqual([frame(3), frame(4), frame(5)]);
  });

  it('returns every frame to a client one before the oldest', () => {
    expect(filled(3).since(0, 3)).toEqual([frame(1), frame(2), frame(3)]);
  });

  it('refuses a rev ahead of the current one', () => {
    expect(filled(3).since(4, 3)).toBeNull();
  });

  it('answers an empty buffer: up to date is fine, anything older needs a snapshot', () => {
    const buffer = new ReplayBuffer();
    expect(buffer.since(0, 0)).toEqual([]);
    expect(buffer.since(7, 7)).toEqual([]);
    expect(buffer.since(6, 7)).toBeNull();
  });

  it('refuses a negative rev', () => {
    expect(filled(3).since(-1, 3)).toBeNull();
  });
});

describe('ReplayBuffer bounds', () => {
  it('keeps at most maxFrames frames, dropping the oldest', () => {
    const buffer = filled(10, 4);
    expect(buffer.size.frames).toBe(4);
    expect(buffer.oldestRev()).toBe(7);
    expect(buffer.since(6, 10)).toEqual([frame(7), frame(8), frame(9), frame(10)]);
    expect(buffer.since(5, 10)).toBeNull();
  });

  it('keeps at most maxBytes, dropping the oldest', () => {
    const size = frame(1).length; // every frame below has this length
    const buffer = filled(9, 1000, size * 3);
    expect(buffer.size).toEqual({ frames: 3, bytes: size * 3 });
    expect(buffer.oldestRev()).toBe(7);
    expect(buffer.since(6, 9)).toEqual([frame(7), frame(8), frame(9)]);
    expect(buffer.since(5, 9)).toBeNull();
  });

  it('keeps the newest frame even when it alone is over maxBytes', () => {
    const buffer = new ReplayBuffer(10, 20);
    buffer.push(1, frame(1));
    buffer.push(2, frame(2, 100));
    expect(buffer.size.frames).toBe(1);
    expect(buffer.since(1, 2)).toEqual([frame(2, 100)]);
  });

  it('counts bytes of the frames it still holds', () => {
    const buffer = new ReplayBuffer(2);
    buffer.push(1, 'a'.repeat(10));
    buffer.push(2, 'b'.repeat(20));
    buffer.push(3, 'c'.repeat(30));
    expect(buffer.size).toEqual({ frames: 2, bytes: 50 });
  });

  it('stays correct across many pushes (the dropped prefix is compacted)', () => {
    const buffer = filled(5000, 100);
    expect(buffer.size.frames).toBe(100);
    expect(buffer.oldestRev()).toBe(4901);
    const out = buffer.since(4990, 5000)!;
    expect(out).toHaveLength(10);
    expect(out[0]).toBe(frame(4991));
    expect(out[9]).toBe(frame(5000));
  });
});
