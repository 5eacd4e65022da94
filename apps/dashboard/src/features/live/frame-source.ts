import type { DaqPayload } from '@furnace/contracts';
import { RecentTimes } from '../charts/recent-times';

/**
 * The live frames of one research as the WebSocket delivers them (one subscription shared by every
 * consumer: canvas, side panel, curves). The server forwards each frame the moment it arrives, so
 * frames of several ingest instances can come out of time order: ordering is done here, by `time`.
 * `latest()` is the newest frame by time and never steps back; a frame delivered again (same time)
 * is dropped. Consumers that also load history drop frames whose time is not after the history's
 * last_time, so a viewer joining mid-test sees no gap and no duplicate.
 */
export interface FrameSource {
  /** Calls `listener` for every frame that becomes the newest by time (the canvas, the side panel); returns the function that stops it. */
  subscribe(listener: (frame: DaqPayload) => void): () => void;
  /** Calls `listener` for every frame received once, late ones included (the curves place them by time); returns the function that stops it. */
  subscribeAll(listener: (frame: DaqPayload) => void): () => void;
  /** The newest frame received (by time), if any. */
  latest(): DaqPayload | null;
}

/** A FrameSource fed by hand: the WebSocket client pushes into it; tests push into it directly. */
export function createFrameSource(): FrameSource & { push(frame: DaqPayload): void } {
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
    push(frame) {
      if (!seen.add(frame.time)) return;
      for (const l of all) l(frame);
      if (last !== null && frame.time < last.time) return;
      last = frame;
      for (const l of newest) l(frame);
    },
  };
}
