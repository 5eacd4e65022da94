import type { DaqPayload } from '@furnace/contracts';

/**
 * The live frames of one research as the WebSocket delivers them (one subscription shared by every
 * consumer: canvas, side panel, curves). Consumers that also load history drop frames whose time is
 * not after the history's last_time, so a viewer joining mid-test sees no gap and no duplicate.
 */
export interface FrameSource {
  /** Calls `listener` for every DATA frame from now on; returns the function that stops it. */
  subscribe(listener: (frame: DaqPayload) => void): () => void;
  /** The newest frame received, if any. */
  latest(): DaqPayload | null;
}

/** A FrameSource fed by hand: the WebSocket client pushes into it; tests push into it directly. */
export function createFrameSource(): FrameSource & { push(frame: DaqPayload): void } {
  const listeners = new Set<(frame: DaqPayload) => void>();
  let last: DaqPayload | null = null;
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    latest: () => last,
    push(frame) {
      last = frame;
      for (const l of listeners) l(frame);
    },
  };
}
