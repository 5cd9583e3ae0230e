/**
 * What an ACP agent last said about each session (its config options, a mode or a context usage
 * it changed itself), kept for that session's next turn. Bounded: past as many sessions as there
 * can be chats, the oldest are forgotten (and read again when they open).
 */
import { LIMITS } from '../../shared/limits.ts';

/** Sessions kept; a session past it is the oldest of a chat that is likely gone. */
const MAX_KEPT_SESSIONS = LIMITS.maxChats;

export class LatestBySession<T> {
  private readonly latest = new Map<string, T>();

  /**
   * Sets the session's value as the newest; past MAX_KEPT_SESSIONS sessions the oldest are forgotten.
   *
   * @example usage.keep('sess_1', { sessionUpdate: 'usage_update', used: 1200, size: 200000 })
   */
  keep(sessionId: string, value: T): void {
    this.latest.delete(sessionId);
    this.latest.set(sessionId, value);
    for (const old of this.latest.keys()) {
      if (this.latest.size <= MAX_KEPT_SESSIONS) break;
      this.latest.delete(old);
    }
  }

  /**
   * The session's value, still kept.
   *
   * @example const options = configs.get('sess_1');
   */
  get(sessionId: string): T | undefined {
    return this.latest.get(sessionId);
  }

  /**
   * The session's value, no longer kept: a turn shows it once.
   *
   * @example const usage = usageNow.take('sess_1');
   */
  take(sessionId: string): T | undefined {
    const value = this.latest.get(sessionId);
    this.latest.delete(sessionId);
    return value;
  }
}
