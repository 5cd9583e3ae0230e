/**
 * A turn in which the agent says nothing for a long time gets one notice saying so. Agents retry
 * their model API quietly: Claude Code's adapter drops Claude Code's retry reports, so a refused
 * key showed nothing for about 100 s. Time spent waiting for the user's approval does not count.
 */
import type { SessionSink } from './acp-process.ts';

/** How long an agent may say nothing before the reply says so (default). */
export const QUIET_NOTICE_MS = 30_000;

/**
 * Calls `onQuiet` once when `ms` pass with no `poke()` while not paused.
 *
 * @example const watch = new QuietWatch(30_000, () => ctx.reply.notice({ … })); watch.poke(); watch.stop();
 */
export class QuietWatch {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private paused = 0;
  private done = false;

  constructor(
    private readonly ms: number,
    private readonly onQuiet: () => void,
  ) {
    this.arm();
  }

  /** The agent said something: the wait starts again. */
  poke(): void {
    this.arm();
  }

  /** The user is being asked: no waiting counts until `resume()`. */
  pause(): void {
    this.paused++;
    this.clear();
  }

  resume(): void {
    this.paused = Math.max(0, this.paused - 1);
    this.arm();
  }

  stop(): void {
    this.done = true;
    this.clear();
  }

  private arm(): void {
    this.clear();
    if (this.done || this.paused > 0 || !(this.ms > 0)) return;
    this.timer = setTimeout(() => {
      this.done = true;
      this.onQuiet();
    }, this.ms);
    this.timer.unref?.();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * A sink that passes everything to `sink` and tells `watch` the agent spoke; the user's approval
 * time is not counted.
 *
 * @example acp.listen(sessionId, watchSink(turn, watch));
 */
export function watchSink(sink: SessionSink, watch: QuietWatch): SessionSink {
  return {
    update(update) {
      watch.poke();
      sink.update(update);
    },
    async requestPermission(request, signal) {
      watch.pause();
      try {
        return await sink.requestPermission(request, signal);
      } finally {
        watch.resume();
      }
    },
  };
}

/** The notice a quiet turn gets. */
export function describeQuiet(agentId: string, ms: number): { severity: 'warning'; title: string; description: string } {
  return {
    severity: 'warning',
    title: `No word from ${agentId} for ${Math.round(ms / 1000)} s`,
    description: 'It may be retrying its model API without saying so: Claude Code does for about two minutes when its key is refused or its endpoint cannot be reached. Stop ends the wait.',
  };
}
