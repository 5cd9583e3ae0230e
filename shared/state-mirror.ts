/**
 * The client's copy of the server's state, as a pure reducer over welcome, snapshot and patch
 * frames (PROTOCOL §3): the rev it is at, the session it came from, and when only a snapshot can
 * repair it. No timers, no sockets: the connection loop (sync-client.ts) acts on what each step
 * returns, so every resync rule is testable on its own.
 */
import { applyPatch } from './patch.ts';
import type { PatchFrame, SnapshotFrame, State } from './schemas.ts';

export interface Mirror {
  /** The last state received, kept while reconnecting; null before the first snapshot. */
  readonly state: State | null;
  /** The rev of `state` (0 while it is null). */
  readonly rev: number;
  /**
   * The session `state` came from. It differs from the connection's session between a new
   * session's welcome and its snapshot: resuming the new session from the old state's rev would
   * splice two histories together.
   */
  readonly stateSession: string | null;
  /** Between a welcome that did not resume and its snapshot, patches have nothing to apply to. */
  readonly awaitingSnapshot: boolean;
  /** After a patch that did not apply the state is suspect: ask for a snapshot, not a replay onto it. */
  readonly needsSnapshot: boolean;
}

export const EMPTY_MIRROR: Mirror = Object.freeze({
  state: null,
  rev: 0,
  stateSession: null,
  awaitingSnapshot: false,
  needsSnapshot: false,
});

/** What a patch frame did to the mirror. */
export type PatchOutcome =
  | { kind: 'applied'; mirror: Mirror }
  /** Already applied (a replay overlapping what we had): nothing to do. */
  | { kind: 'duplicate' }
  /** Arrived before the snapshot it builds on: drop it, the snapshot will carry it. */
  | { kind: 'ignored'; reason: string }
  /** The stream cannot be followed from here: reconnect (resuming from `mirror`). */
  | { kind: 'resync'; mirror: Mirror; why: string };

/**
 * The `resume` to put in a hello, or undefined when only a snapshot will do.
 *
 * @example
 * const resume = findResumePoint(mirror); // { session: 's1', rev: 42 }
 * if (resume) hello.resume = resume;
 */
export function findResumePoint(mirror: Mirror): { session: string; rev: number } | undefined {
  if (mirror.state === null || mirror.stateSession === null || mirror.needsSnapshot) return undefined;
  return { session: mirror.stateSession, rev: mirror.rev };
}

/**
 * A welcome arrived: unless it resumed our state, patches wait for the snapshot that follows.
 *
 * @example
 * mirror = receiveWelcome(mirror, frame.resumed);
 */
export function receiveWelcome(mirror: Mirror, resumed: boolean): Mirror {
  const awaitingSnapshot = !resumed || mirror.state === null;
  return awaitingSnapshot === mirror.awaitingSnapshot ? mirror : { ...mirror, awaitingSnapshot };
}

/**
 * A snapshot replaces the state whatever came before; `session` is the connection's session.
 *
 * @example
 * mirror = receiveSnapshot(mirror, frame, welcome.session);
 */
export function receiveSnapshot(_mirror: Mirror, frame: SnapshotFrame, session: string | null): Mirror {
  return { state: frame.state, rev: frame.rev, stateSession: session, awaitingSnapshot: false, needsSnapshot: false };
}

/**
 * Applies a patch frame. A frame without `rev` is the next one (frames arrive in order); one with
 * an explicit rev must be exactly the next.
 *
 * @example
 * const outcome = receivePatch(mirror, { type: 'patch', ops });
 * if (outcome.kind === 'applied') mirror = outcome.mirror;
 */
export function receivePatch(mirror: Mirror, frame: PatchFrame): PatchOutcome {
  const rev = frame.rev ?? mirror.rev + 1;
  if (mirror.awaitingSnapshot || mirror.state === null) {
    return { kind: 'ignored', reason: `Ignored patch ${rev} that came before the snapshot` };
  }
  if (rev <= mirror.rev) return { kind: 'duplicate' };
  if (rev !== mirror.rev + 1) return { kind: 'resync', mirror, why: `missed patches ${mirror.rev + 1}..${rev - 1}` };
  let state: State;
  try {
    state = applyPatch(mirror.state, frame.ops);
  } catch (err) {
    return {
      kind: 'resync',
      mirror: { ...mirror, needsSnapshot: true },
      why: `patch ${rev} does not apply: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  return { kind: 'applied', mirror: { ...mirror, state, rev } };
}
