/**
 * Notices an ACP agent sends while no turn of their session listens (an MCP server it could not
 * reach, told as the session starts, before the prompt): held for the session's next turn, which
 * shows them, unless they are old by then. Bounded: a few per session, a few sessions.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';

export type NoticeUpdate = Extract<SessionUpdate, { sessionUpdate: 'notice' }>;

export interface HeldNoticesOptions {
  /** Notices kept per session; older ones give way. */
  maxPerSession?: number;
  /** Sessions with notices kept; the one that got none for longest gives way. */
  maxSessions?: number;
  /** A notice older than this when the next turn starts is no longer news. */
  maxAgeMs?: number;
  now?: () => number;
}

export class HeldNotices {
  private readonly held = new Map<string, { update: NoticeUpdate; at: number }[]>();
  private readonly maxPerSession: number;
  private readonly maxSessions: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(o: HeldNoticesOptions = {}) {
    this.maxPerSession = o.maxPerSession ?? 5;
    this.maxSessions = o.maxSessions ?? 50;
    this.maxAgeMs = o.maxAgeMs ?? 5 * 60_000;
    this.now = o.now ?? Date.now;
  }

  /**
   * Keeps a notice for the session's next turn.
   *
   * @example held.hold('sess_1', { sessionUpdate: 'notice', severity: 'warning', title: 'MCP server unavailable' })
   */
  hold(sessionId: string, update: NoticeUpdate): void {
    const list = this.held.get(sessionId) ?? [];
    this.held.delete(sessionId);
    list.push({ update, at: this.now() });
    if (list.length > this.maxPerSession) list.splice(0, list.length - this.maxPerSession);
    this.held.set(sessionId, list);
    for (const oldest of this.held.keys()) {
      if (this.held.size <= this.maxSessions) break;
      this.held.delete(oldest);
    }
  }

  /**
   * The session's held notices that are still recent, oldest first; none are held after.
   *
   * @example for (const notice of held.take('sess_1')) turn.update(notice);
   */
  take(sessionId: string): NoticeUpdate[] {
    const list = this.held.get(sessionId) ?? [];
    this.held.delete(sessionId);
    const since = this.now() - this.maxAgeMs;
    return list.filter((n) => n.at >= since).map((n) => n.update);
  }
}
