import type { Op } from '../../shared/schemas.ts';

interface PendingAppend {
  path: string;
  chunks: string[];
}

/**
 * Ops waiting to be written, as the inside of a JSON array: the one place appends are merged, for
 * patch frames (StateStore) and journal lines alike. Non-append ops are serialized when recorded,
 * so the caller may keep mutating the objects it passed; consecutive appends to one path are
 * merged, so a reply streamed in thousands of deltas costs one op per frame or write.
 *
 * @example
 * const buffer = new OpBuffer();
 * buffer.record([{ op: 'append', path: '/0/content/0/text', value: 'Hel' }]);
 * buffer.record([{ op: 'append', path: '/0/content/0/text', value: 'lo' }]);
 * buffer.take(); // '{"op":"append","path":"/0/content/0/text","value":"Hello"}'
 */
export class OpBuffer {
  private entries: (string | PendingAppend)[] = [];
  private bytes = 0;

  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  /** Rough size of the pending ops in bytes (string lengths), for bounding memory. */
  get size(): number {
    return this.bytes;
  }

  record(ops: readonly Op[]): void {
    for (const op of ops) {
      if (op.op === 'append') {
        if (op.value === '') continue;
        const last = this.entries[this.entries.length - 1];
        if (last !== undefined && typeof last !== 'string' && last.path === op.path) last.chunks.push(op.value);
        else this.entries.push({ path: op.path, chunks: [op.value] });
        this.bytes += op.value.length;
      } else {
        const json = JSON.stringify(op);
        this.entries.push(json);
        this.bytes += json.length;
      }
    }
  }

  /**
   * Puts ops taken by `take` back in front (their write failed), before anything recorded since.
   */
  restore(opsJson: string): void {
    if (opsJson === '') return;
    this.entries.unshift(opsJson);
    this.bytes += opsJson.length;
  }

  /** The pending ops as the inside of a JSON array (`{…},{…}`), emptying the buffer. */
  take(): string {
    const parts = this.entries.map((e) =>
      typeof e === 'string'
        ? e
        : `{"op":"append","path":${JSON.stringify(e.path)},"value":${JSON.stringify(e.chunks.join(''))}}`,
    );
    this.clear();
    return parts.join(',');
  }

  clear(): void {
    this.entries = [];
    this.bytes = 0;
  }
}
