/**
 * How `agentbar chat` ends on a signal: not at once (which left the reply running on the server
 * and an embedded server's agent processes behind), but by stopping what it waits for and then
 * closing what it started, exiting as a shell reports a signal (128 + its number).
 */

/** How long a signal waits for the reply to be stopped before the command goes anyway. */
const STOP_WAIT_MS = 3_000;
/** A command ended by a signal exits 128 + its number. */
const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export interface StopSignals {
  /** Aborted on the first of the signals: a turn given it stops its reply, and no new one starts. */
  readonly signal: AbortSignal;
  /** Which signal came, if one did. */
  readonly caught: NodeJS.Signals | null;
  /** Counts a turn in progress: a signal waits for it to stop (up to STOP_WAIT_MS) before the command ends. */
  track<T>(turn: Promise<T>): Promise<T>;
  /** The work's exit code, or the signal's once one came (the work may end first, stopped). */
  race(work: Promise<number>): Promise<number>;
  dispose(): void;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * @example
 * const stop = watchStopSignals(['SIGINT', 'SIGTERM'], (signal) => note(`${signal}, stopping…`));
 * try { return await stop.race(stop.track(runTurn(client, { …, signal: stop.signal }))); } finally { stop.dispose(); }
 */
export function watchStopSignals(signals: NodeJS.Signals[], onSignal: (signal: NodeJS.Signals) => void): StopSignals {
  const controller = new AbortController();
  const turns = new Set<Promise<unknown>>();
  let caught: NodeJS.Signals | null = null;
  let resolveSignalled!: (code: number) => void;
  const signalled = new Promise<number>((resolve) => (resolveSignalled = resolve));
  const listeners = signals.map((signal) => {
    const listener = () => {
      if (caught) return;
      caught = signal;
      try {
        onSignal(signal);
      } catch {
        // Saying so is a courtesy: a terminal that hung up refuses the write (EIO).
      }
      controller.abort();
      const stopped = Promise.allSettled([...turns]);
      void Promise.race([stopped, sleep(STOP_WAIT_MS)]).then(() => resolveSignalled(SIGNAL_EXIT_CODES[signal] ?? 1));
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  return {
    signal: controller.signal,
    get caught() {
      return caught;
    },
    track(turn) {
      turns.add(turn);
      const forget = () => turns.delete(turn);
      turn.then(forget, forget);
      return turn;
    },
    async race(work) {
      // Once a signal came, the work's later failure (its client closed) is no one's to handle.
      work.catch(() => {});
      try {
        const code = await Promise.race([work, signalled]);
        return caught ? await signalled : code;
      } catch (error) {
        if (caught) return await signalled;
        throw error;
      }
    },
    dispose() {
      for (const [signal, listener] of listeners) process.off(signal, listener);
    },
  };
}
