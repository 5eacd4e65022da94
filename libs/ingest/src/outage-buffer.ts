import { FrameQueue } from './frame-queue';

export interface OutageBufferOptions {
  /** Frames held; past it the oldest are dropped. */
  maxFrames: number;
  /** Frames in one write attempt. */
  maxBatch: number;
  retryMinMs: number;
  retryMaxMs: number;
}

/** What a drain does with a chunk of the buffer (the ingest's database writes). */
export interface DrainHandlers<T> {
  /** Writes the chunk; throws when the database fails it. */
  write(chunk: T[]): Promise<void>;
  /** After a written chunk has left the buffer. */
  written(chunk: T[]): void;
  /** True for a failure that passes (the database unreachable); the chunk is retried with backoff. */
  isTransient(error: unknown): boolean;
  /** Any other failure: the chunk has left the buffer, and the handler deals with it frame by frame (it may put frames back with `unshiftAll`). */
  refused(chunk: T[], error: unknown): Promise<void>;
}

/**
 * Frames held in memory while the database is unreachable, and the loop that writes them once it
 * answers again: oldest first, `maxBatch` at a time, retried with exponential backoff
 * (retryMinMs → retryMaxMs). Bounded: past `maxFrames` the oldest are dropped (the newest are the
 * end of the test, which decides its result) and reported to `onDrop`.
 */
export class OutageBuffer<T> {
  private readonly queue = new FrameQueue<T>();
  private stopDeadline: number | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly options: OutageBufferOptions,
    private readonly onDrop: () => void,
  ) {}

  get length(): number {
    return this.queue.length;
  }

  push(frame: T): void {
    this.queue.push(frame);
    if (this.queue.length > this.options.maxFrames) {
      this.queue.drop(1);
      this.onDrop();
    }
  }

  /** Puts frames back at the front, in order (a drain's chunk the database partly took). */
  unshiftAll(frames: readonly T[]): void {
    this.queue.unshiftAll(frames);
  }

  /**
   * Writes the buffer until it is empty. Resolves `true` when it is, `false` when it gave up because
   * `stop` was called and its deadline passed with the database still unreachable.
   */
  async drain(handlers: DrainHandlers<T>): Promise<boolean> {
    let delay = this.options.retryMinMs;
    while (this.queue.length > 0) {
      const chunk = this.queue.peek(this.options.maxBatch);
      try {
        await handlers.write(chunk);
        this.queue.drop(chunk.length);
        handlers.written(chunk);
        delay = this.options.retryMinMs;
        continue;
      } catch (error) {
        if (!handlers.isTransient(error)) {
          this.queue.drop(chunk.length);
          await handlers.refused(chunk, error);
          continue;
        }
      }
      const stopping = this.stopDeadline !== null;
      if (stopping && Date.now() >= this.stopDeadline!) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, stopping ? Math.min(delay, 250) : delay);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
      delay = Math.min(delay * 2, this.options.retryMaxMs);
    }
    return true;
  }

  /** Makes a running drain retry now, and give up once `deadline` (epoch ms) has passed. */
  stop(deadline: number): void {
    this.stopDeadline = deadline;
    this.wake?.();
  }
}
