/**
 * The last patch frames, kept so a client that reconnects can resume instead of taking a
 * snapshot. Bounded in frames and in bytes (PROTOCOL §2); the oldest go first.
 */
export class ReplayBuffer {
  private frames: { rev: number; frame: string; bytes: number }[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    private readonly maxFrames = 10_000,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  push(rev: number, frame: string): void {
    const bytes = Buffer.byteLength(frame, 'utf8');
    this.frames.push({ rev, frame, bytes });
    this.bytes += bytes;
    while (this.frames.length - this.head > this.maxFrames || (this.bytes > this.maxBytes && this.frames.length - this.head > 1)) {
      this.bytes -= this.frames[this.head]!.bytes;
      this.head++;
    }
    // Compact now and then so the array does not grow with the dropped prefix.
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
  }

  /** Rev of the oldest frame held, or null when empty. */
  oldestRev(): number | null {
    return this.head < this.frames.length ? this.frames[this.head]!.rev : null;
  }

  /** Frames with a rev above `rev`, in order; null when some of them are gone. */
  since(rev: number, currentRev: number): string[] | null {
    if (rev === currentRev) return [];
    if (rev > currentRev) return null;
    const oldest = this.oldestRev();
    if (oldest === null || rev < oldest - 1) return null;
    const out: string[] = [];
    for (let i = this.head + (rev - oldest + 1); i < this.frames.length; i++) out.push(this.frames[i]!.frame);
    return out;
  }

  get size(): { frames: number; bytes: number } {
    return { frames: this.frames.length - this.head, bytes: this.bytes };
  }
}
