import type { DaqPayload } from '@furnace/contracts';

/** Seconds of the test in one request: 121 frames of a 1 Hz test, 2 s of playback at 60×. */
export const WINDOW_SECONDS = 120;
/** Windows kept in memory (the current one, the next and a few behind to scrub back). */
const KEPT_WINDOWS = 8;
/**
 * Reads under way at most: a slider dragged across the test asks for the window under the thumb
 * once the reads before it are in, not for every window it passed.
 */
const READS_AT_ONCE = 2;

/** Reads the stored frames with from ≤ time ≤ to, in time order. */
export type FetchWindow = (from: number, to: number) => Promise<readonly DaqPayload[]>;

/**
 * The stored frames of a test, read window by window (WINDOW_SECONDS each, aligned on the first
 * frame's time) as the replay reaches them: a seek anywhere reads one window, playing reads the next
 * one ahead. Windows are kept by index, the least recently used dropped past KEPT_WINDOWS.
 */
export class ReplayWindows {
  private readonly loaded = new Map<number, readonly DaqPayload[]>();
  private readonly pending = new Map<number, Promise<void>>();
  private readonly listeners = new Set<() => void>();
  private failed: unknown = null;
  /** Windows whose read failed: not read again until retryFailed() (a failing server is not asked in a loop). */
  private readonly failedWindows = new Set<number>();

  constructor(
    private readonly origin: number,
    private readonly fetchWindow: FetchWindow,
  ) {}

  indexOf(time: number): number {
    return Math.max(0, Math.floor((time - this.origin) / WINDOW_SECONDS));
  }

  /** Calls `listener` when a window has been read (or failed); returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The last read's error, if it failed (cleared by the next successful read). */
  error(): unknown {
    return this.failed;
  }

  /** The windows that failed may be read again (the user moved: seek, play). */
  retryFailed(): void {
    this.failedWindows.clear();
  }

  hasFailed(index: number): boolean {
    return this.failedWindows.has(index);
  }

  isLoaded(index: number): boolean {
    return this.loaded.has(index);
  }

  /** Reads window `index` unless it is read or being read (or READS_AT_ONCE reads are: ask again when one is in). */
  ensure(index: number): void {
    if (
      index < 0 ||
      this.loaded.has(index) ||
      this.pending.has(index) ||
      this.failedWindows.has(index) ||
      this.pending.size >= READS_AT_ONCE
    )
      return;
    const from = this.origin + index * WINDOW_SECONDS;
    const read = this.fetchWindow(from, from + WINDOW_SECONDS)
      .then((frames) => {
        // Both ends are inclusive: a frame on the boundary belongs to the later window only.
        this.loaded.set(
          index,
          frames.filter((f) => this.indexOf(f.time) === index),
        );
        this.failed = null;
        this.failedWindows.delete(index);
        this.evict(index);
      })
      .catch((error: unknown) => {
        this.failed = error;
        this.failedWindows.add(index);
      })
      .finally(() => {
        this.pending.delete(index);
        for (const l of this.listeners) l();
      });
    this.pending.set(index, read);
  }

  /**
   * The frame shown at `time`: the newest with time ≤ `time` (of its window, else the one before);
   * undefined while the windows it needs are not read; null before the first frame.
   */
  frameAt(time: number): DaqPayload | null | undefined {
    const index = this.indexOf(time);
    const frames = this.touch(index);
    if (!frames) return undefined;
    const at = newestAtOrBefore(frames, time);
    if (at) return at;
    if (index === 0) return frames[0] ?? null;
    const before = this.touch(index - 1);
    if (!before) return undefined;
    return before[before.length - 1] ?? frames[0] ?? null;
  }

  /** Every frame with after < time ≤ upTo, in time order; null when a window in between is not read. */
  framesBetween(after: number, upTo: number): DaqPayload[] | null {
    const frames: DaqPayload[] = [];
    for (let index = this.indexOf(after); index <= this.indexOf(upTo); index++) {
      const window = this.loaded.get(index);
      if (!window) return null;
      for (const frame of window) if (frame.time > after && frame.time <= upTo) frames.push(frame);
    }
    return frames;
  }

  /** The frames of window `index` with time ≤ upTo; null when it is not read. */
  framesUpTo(index: number, upTo: number): DaqPayload[] | null {
    const window = this.loaded.get(index);
    return window ? window.filter((frame) => frame.time <= upTo) : null;
  }

  /** The start of window `index`, s. */
  startOf(index: number): number {
    return this.origin + index * WINDOW_SECONDS;
  }

  private touch(index: number): readonly DaqPayload[] | undefined {
    const frames = this.loaded.get(index);
    if (frames) {
      // Most recently used last.
      this.loaded.delete(index);
      this.loaded.set(index, frames);
    }
    return frames;
  }

  private evict(keep: number): void {
    for (const index of this.loaded.keys()) {
      if (this.loaded.size <= KEPT_WINDOWS) return;
      if (index !== keep) this.loaded.delete(index);
    }
  }
}

/** The newest frame with time ≤ `time` in `frames` (in time order), by bisection. */
export function newestAtOrBefore(frames: readonly DaqPayload[], time: number): DaqPayload | null {
  let lo = 0;
  let hi = frames.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (frames[mid]!.time <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? frames[lo - 1]! : null;
}
