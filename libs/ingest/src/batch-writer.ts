export interface BatchWriterOptions {
  /** Write when this many frames wait. */
  flushFrames: number;
  /** …or this long after the first frame of a batch arrived; 0: at once when no write is running. */
  flushIntervalMs: number;
  /** Most frames in one write. */
  maxBatch: number;
}

/**
 * Group commit: a frame is written at once when no write is running; frames that arrive during a
 * write go together into the next one (up to `maxBatch`). One write runs at a time. `paused()`
 * holds the writes (while the database is unreachable) without losing the batch; after `stop()`
 * nothing is written unless `flush()` is called.
 */
export class BatchWriter<T> {
  private batch: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly options: BatchWriterOptions,
    /** Writes one batch; never throws (the caller handles its own failures). */
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly paused: () => boolean,
    /** After each write (the frames waiting changed). */
    private readonly afterWrite: () => void = () => undefined,
  ) {}

  /** Frames waiting for a write (not those of the running one). */
  get length(): number {
    return this.batch.length;
  }

  /** The running write, if any. */
  get current(): Promise<void> | null {
    return this.writing;
  }

  add(frame: T): void {
    this.batch.push(frame);
    if (this.batch.length >= this.options.flushFrames) this.schedule(0);
    else if (!this.timer) this.schedule(this.options.flushIntervalMs);
  }

  /** Writes the waiting frames now (unless a write runs or writes are paused). */
  flush(): Promise<void> {
    if (this.writing || this.paused() || this.batch.length === 0) return Promise.resolve();
    this.clearTimer();
    const frames = this.batch.splice(0, this.options.maxBatch);
    this.writing = this.write(frames).finally(() => {
      this.writing = null;
      this.afterWrite();
      if (this.batch.length > 0 && !this.paused() && !this.stopped)
        this.schedule(this.batch.length >= this.options.flushFrames ? 0 : this.options.flushIntervalMs);
    });
    return this.writing;
  }

  /** No more writes by themselves (a last `flush()` is the caller's). */
  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  /** Takes every waiting frame out (to hold them elsewhere) and cancels the pending write. */
  takeAll(): T[] {
    this.clearTimer();
    const frames = this.batch;
    this.batch = [];
    return frames;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delayMs: number): void {
    if (this.writing || this.stopped) return; // the running write schedules the next one
    if (this.timer && delayMs > 0) return;
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
  }
}
