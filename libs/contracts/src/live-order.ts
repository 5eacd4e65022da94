import type { DaqPayload } from './daq';
/*
 * Frames delivered again. The API forwards each frame the moment it arrives, so frames of several
 * ingest instances (each publishes after its own write commits) can arrive out of time order, and a
 * redelivered MQTT message comes again: the API's live stream and the dashboard's frame source
 * (createFrameSource, below) both recognise a frame seen before with this.
 */

/**
 * The last `capacity` frame times seen (a set with a ring of insertion order): enough to recognise
 * a frame delivered again, however far out of order frames arrive, in bounded memory.
 */
export class RecentTimes {
  private readonly set = new Set<number>();
  private readonly ring: number[] = [];
  private next = 0;

  constructor(private readonly capacity = 4096) {}

  has(time: number): boolean {
    return this.set.has(time);
  }

  /** Records `time`; false when it was already there. */
  add(time: number): boolean {
    if (this.set.has(time)) return false;
    if (this.ring.length < this.capacity) {
      this.ring.push(time);
    } else {
      this.set.delete(this.ring[this.next] as number);
      this.ring[this.next] = time;
      this.next = (this.next + 1) % this.capacity;
    }
    this.set.add(time);
    return true;
  }

  clear(): void {
    this.set.clear();
    this.ring.length = 0;
    this.next = 0;
  }
}

/*
 * The client half of the live stream's ordering (docs/behaviour.md §7): the live frames of one research as the
 * WebSocket delivers them (one subscription shared by every
 * consumer: canvas, side panel, curves), ordered by time on the client: the API forwards each frame the
 * moment it arrives, so frames of several ingest instances (each publishes after its own write commits)
 * can arrive out of time order. The canvas and side panel subscribe to the newest frame, the curves to
 * every frame. Consumers that also load history drop frames whose time is not after the history's
 * last_time, so a viewer joining mid-test sees no gap and no duplicate.
 */

/**
 * The live frames of one research as the WebSocket delivers them, put in order: `latest()` is the
 * newest frame by time and never steps back; a frame delivered again (same time) is dropped.
 */
export interface FrameSource {
  /** Calls `listener` for every frame that becomes the newest by time; returns the function that stops it. */
  subscribe(listener: (frame: DaqPayload) => void): () => void;
  /** Calls `listener` for every frame received once, late ones included (to be placed by time); returns the function that stops it. */
  subscribeAll(listener: (frame: DaqPayload) => void): () => void;
  /** The newest frame received (by time), if any. */
  latest(): DaqPayload | null;
  /**
   * Calls `listener` when frames may have been missed (the connection was lost and is back): a
   * consumer that draws the whole test reads the history again; returns the function that stops it.
   */
  subscribeGap(listener: () => void): () => void;
}

/** A FrameSource fed by hand: the WebSocket client pushes into it; tests push into it directly. */
export function createFrameSource(): FrameSource & { push(frame: DaqPayload): void; markGap(): void } {
  const gaps = new Set<() => void>();
  const newest = new Set<(frame: DaqPayload) => void>();
  const all = new Set<(frame: DaqPayload) => void>();
  const seen = new RecentTimes();
  let last: DaqPayload | null = null;
  return {
    subscribe(listener) {
      newest.add(listener);
      return () => newest.delete(listener);
    },
    subscribeAll(listener) {
      all.add(listener);
      return () => all.delete(listener);
    },
    latest: () => last,
    subscribeGap(listener) {
      gaps.add(listener);
      return () => gaps.delete(listener);
    },
    markGap() {
      for (const l of gaps) l();
    },
    push(frame) {
      if (!seen.add(frame.time)) return;
      for (const l of all) l(frame);
      if (last !== null && frame.time < last.time) return;
      last = frame;
      for (const l of newest) l(frame);
    },
  };
}

/** Index at which a point at time `t` goes into `points` (in time order by their first element): after every point not later. */
export function insertionIndex(points: readonly (readonly [number, ...unknown[]])[], t: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((points[mid] as readonly [number, ...unknown[]])[0] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
