/**
 * Runs async tasks one after another, so two writes of one file never overlap. A failed task does
 * not stop the ones behind it.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  /** True while a task runs or waits. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /**
   * Queues `task` and returns its result; the caller handles a rejection (the queue never rejects).
   * With an idle queue the task starts in a microtask, i.e. within the current tick.
   *
   * @example queue.run(() => writeFileAtomic(p, data)).catch(logError);
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(task);
    const settle = (): void => {
      this.pending--;
    };
    this.tail = result.then(settle, settle);
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  idle(): Promise<void> {
    return this.tail;
  }
}
