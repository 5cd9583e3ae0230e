import { describe, expect, it } from 'vitest';
import type { Op, State } from './schemas.ts';
import { EMPTY_MIRROR, findResumePoint, receivePatch, receiveSnapshot, receiveWelcome, type Mirror } from './state-mirror.ts';

const state = (title: string): State =>
  ({ agents: [], chats: {}, activeChatId: null, active: null, runs: {}, title }) as unknown as State;

const setTitle = (title: string): Op[] => [{ op: 'replace', path: '/title', value: title }];

function snapshotAt(rev: number, session = 's1'): Mirror {
  return receiveSnapshot(receiveWelcome(EMPTY_MIRROR, false), { type: 'snapshot', rev, state: state('a') }, session);
}

describe('state mirror', () => {
  it('waits for a snapshot after a welcome that did not resume, ignoring patches until then', () => {
    const welcomed = receiveWelcome(EMPTY_MIRROR, false);
    expect(welcomed.awaitingSnapshot).toBe(true);
    const outcome = receivePatch(welcomed, { type: 'patch', rev: 1, ops: setTitle('b') });
    expect(outcome).toEqual({ kind: 'ignored', reason: 'Ignored patch 1 that came before the snapshot' });
  });

  it('takes the rev and session of a snapshot and offers them as the resume point', () => {
    const mirror = snapshotAt(41);
    expect(mirror).toMatchObject({ rev: 41, stateSession: 's1', awaitingSnapshot: false, needsSnapshot: false });
    expect(findResumePoint(mirror)).toEqual({ session: 's1', rev: 41 });
    expect(findResumePoint(EMPTY_MIRROR)).toBeUndefined();
  });

  it('counts a patch without rev as the next one', () => {
    const outcome = receivePatch(snapshotAt(41), { type: 'patch', ops: setTitle('b') });
    expect(outcome.kind).toBe('applied');
    if (outcome.kind !== 'applied') return;
    expect(outcome.mirror.rev).toBe(42);
    expect((outcome.mirror.state as unknown as { title: string }).title).toBe('b');
  });

  it('drops a patch it already has and resyncs on a gap, keeping its state', () => {
    const mirror = snapshotAt(41);
    expect(receivePatch(mirror, { type: 'patch', rev: 41, ops: setTitle('old') })).toEqual({ kind: 'duplicate' });
    const gap = receivePatch(mirror, { type: 'patch', rev: 44, ops: setTitle('c') });
    expect(gap).toEqual({ kind: 'resync', mirror, why: 'missed patches 42..43' });
    // A gap is repaired by a replay: the resume point stays.
    if (gap.kind === 'resync') expect(findResumePoint(gap.mirror)).toEqual({ session: 's1', rev: 41 });
  });

  it('asks for a snapshot instead of a replay after a patch that does not apply', () => {
    const mirror = snapshotAt(41);
    const outcome = receivePatch(mirror, { type: 'patch', ops: [{ op: 'remove', path: '/nothing/here' }] });
    expect(outcome.kind).toBe('resync');
    if (outcome.kind !== 'resync') return;
    expect(outcome.why).toMatch(/^patch 42 does not apply: /);
    expect(outcome.mirror.state).toBe(mirror.state);
    expect(findResumePoint(outcome.mirror)).toBeUndefined();
    // The next snapshot clears it.
    expect(findResumePoint(receiveSnapshot(outcome.mirror, { type: 'snapshot', rev: 50, state: state('z') }, 's1'))).toEqual({ session: 's1', rev: 50 });
  });

  it('keeps the old state but resumes nothing across sessions until the new snapshot', () => {
    const old = snapshotAt(41, 's1');
    // A welcome of a new session that could not resume ours: the next snapshot belongs to s2.
    const welcomed = receiveWelcome(old, false);
    expect(welcomed.state).toBe(old.state);
    expect(welcomed.awaitingSnapshot).toBe(true);
    const fresh = receiveSnapshot(welcomed, { type: 'snapshot', rev: 3, state: state('n') }, 's2');
    expect(findResumePoint(fresh)).toEqual({ session: 's2', rev: 3 });
  });
});
